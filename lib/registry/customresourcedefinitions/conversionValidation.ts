// Upstream's validateCustomResourceConversion with the webhook checks of
// k8s.io/apiserver/pkg/util/webhook (ValidateWebhookURL, ValidateWebhookService). Paths use the
// internal type's names (spec.conversion.webhookClientConfig, spec.conversion.conversionReviewVersions),
// as upstream reports them. CA bundles are not parsed: upstream tolerates invalid ones on create and
// until the CRD is Established (the controller then reports InvalidCABundle).
import type { CustomResourceConversion } from '../../api';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { parseURL } from '../../machinery/goUrl';
import { isDNS1035Label, isDNS1123Subdomain } from '../../machinery/validation/names';

const acceptedReviewVersions = ['v1', 'v1beta1'];
const form = '; desired format: https://host[/path]';

/** The userinfo of a URL's authority (Go's u.User), if it has one. */
function userInfo(raw: string): string | undefined {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(raw);
  if (!m) return undefined;
  const at = m[1].lastIndexOf('@');
  return at < 0 ? undefined : m[1].slice(0, at);
}

export function validateWebhookURL(path: string, url: string): FieldError[] {
  let u;
  try {
    u = parseURL(url);
  } catch (e) {
    return [fieldErr.required(path, `url must be a valid URL: ${(e as Error).message}${form}`)];
  }
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(fieldErr.invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (!u.host) errs.push(fieldErr.invalid(path, u.host, `host must be provided${form}`));
  const user = userInfo(url);
  if (user !== undefined) errs.push(fieldErr.invalid(path, user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(fieldErr.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery) errs.push(fieldErr.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

export function validateWebhookService(path: string, namespace: string, name: string, urlPath: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(fieldErr.required(`${path}.name`, 'service name is required'));
  if (!namespace) errs.push(fieldErr.required(`${path}.namespace`, 'service namespace is required'));
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    errs.push(fieldErr.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return errs;
  if (urlPath === '//') return [...errs, fieldErr.invalid(`${path}.path`, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) {
      errs.push(fieldErr.invalid(`${path}.path`, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(fieldErr.invalid(`${path}.path`, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

function validateReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) return [fieldErr.required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErr.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldErr.invalid(`${path}[${i}]`, v, msg));
    if (acceptedReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldErr.invalid(path, versions, `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  return errs;
}

export function validateConversion(conversion: CustomResourceConversion | undefined, requireRecognized: boolean, path: string): FieldError[] {
  if (!conversion) return [];
  const errs: FieldError[] = [];
  const strategy = conversion.strategy ?? '';
  if (!strategy) errs.push(fieldErr.required(`${path}.strategy`));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(fieldErr.notSupported(`${path}.strategy`, strategy, ['None', 'Webhook']));
  const cc = conversion.webhook?.clientConfig;
  const reviewVersions = conversion.webhook?.conversionReviewVersions ?? [];
  const ccPath = `${path}.webhookClientConfig`;
  if (strategy === 'Webhook') {
    if (!cc) errs.push(fieldErr.required(ccPath, 'required when strategy is set to Webhook'));
    else {
      const hasURL = cc.url !== undefined && cc.url !== null;
      const hasService = cc.service !== undefined && cc.service !== null;
      if (hasURL === hasService) errs.push(fieldErr.required(ccPath, 'exactly one of url or service is required'));
      else if (hasURL) errs.push(...validateWebhookURL(`${ccPath}.url`, cc.url ?? ''));
      else {
        const s = cc.service ?? {};
        errs.push(...validateWebhookService(`${ccPath}.service`, s.namespace ?? '', s.name ?? '', s.path ?? undefined, s.port ?? 443));
      }
    }
    errs.push(...validateReviewVersions(reviewVersions, requireRecognized, `${path}.conversionReviewVersions`));
  } else {
    if (cc) errs.push(fieldErr.forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errs.push(fieldErr.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}
