// serviceaccounts/{name}/token: issues a ServiceAccount token (TokenRequest, nothing stored).
// Defaults, limits and messages as upstream's token REST: expirationSeconds defaults to an hour
// and must lie in [10 min, 2^32 s]; no audiences means the API's own (--api-audiences).
import { groups, serviceaccounts, tokenRequestKind, TokenRequest, TokenRequestSchema } from '../api';
import { errors } from '../machinery/errors';
import { fieldErr, FieldError } from '../machinery/fieldErrors';
import type { CreateOnlyEndpoint } from '../registry/createOnly';
import type { RequestContext } from '../registry/strategy';

export const defaultTokenExpirationSeconds = 3600;
const minTokenSeconds = 600;
const maxTokenSeconds = 2 ** 32;
const bindableKinds = ['Pod', 'Secret', 'Node'];

export interface IssueTokenRequest {
  serviceAccount: { namespace: string; name: string; uid: string };
  audiences: string[];
  expirationSeconds: number;
  boundObject?: { kind: string; name: string; uid: string };
}

export interface TokenRequestOptions {
  /** The ServiceAccount as stored (a quorum read); throws the 404 ApiError when missing. */
  getServiceAccount(ctx: RequestContext, namespace: string, name: string): Promise<{ metadata?: { uid?: string } }>;
  issue(req: IssueTokenRequest): Promise<{ token: string; expirationTimestamp: Date }>;
  apiAudiences: readonly string[];
  /** --service-account-max-token-expiration (0 = no cap). */
  maxExpirationSeconds?: number;
}

function validate(tr: TokenRequest): FieldError[] {
  const errs: FieldError[] = [];
  const exp = tr.spec?.expirationSeconds ?? defaultTokenExpirationSeconds;
  if (exp < minTokenSeconds) errs.push(fieldErr.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 10 minutes'));
  if (exp > maxTokenSeconds) errs.push(fieldErr.invalid('spec.expirationSeconds', exp, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

export function tokenRequestEndpoint(opts: TokenRequestOptions): CreateOnlyEndpoint {
  const gk = { group: groups.authentication, kind: 'TokenRequest' };
  return {
    resource: serviceaccounts,
    subresource: 'token',
    body: { schema: TokenRequestSchema, ...tokenRequestKind },
    async create(ctx, name, obj) {
      const req = obj as TokenRequest;
      const meta = req.metadata ?? {};
      if (meta.name && meta.name !== name) {
        throw errors.invalid(gk, name, [fieldErr.invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
      }
      if (meta.namespace && meta.namespace !== ctx.namespace) {
        throw errors.invalid(gk, name, [fieldErr.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
      }
      const errs = validate(req);
      if (errs.length) throw errors.invalid(gk, '', errs);
      const sa = await opts.getServiceAccount(ctx, ctx.namespace, name);

      const spec = { ...req.spec, audiences: [...(req.spec?.audiences ?? [])], expirationSeconds: req.spec?.expirationSeconds ?? defaultTokenExpirationSeconds };
      let boundObject: IssueTokenRequest['boundObject'];
      const ref = spec.boundObjectRef;
      if (ref && (ref.kind || ref.name || ref.uid)) {
        if (!bindableKinds.includes(ref.kind ?? '')) {
          throw errors.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to object of kind ${JSON.stringify(`${ref.apiVersion ?? ''}, Kind=${ref.kind ?? ''}`)}`);
        }
        if (!ref.name) throw errors.invalid(gk, '', [fieldErr.required('spec.boundObjectRef.name', '')]);
        boundObject = { kind: ref.kind ?? '', name: ref.name, uid: ref.uid ?? '' };
      }
      if (spec.audiences.length === 0) spec.audiences = [...opts.apiAudiences];
      if (opts.maxExpirationSeconds && spec.expirationSeconds > opts.maxExpirationSeconds) spec.expirationSeconds = opts.maxExpirationSeconds;

      const out: TokenRequest = {
        kind: 'TokenRequest',
        apiVersion: `${groups.authentication}/v1`,
        metadata: { ...meta, name, namespace: ctx.namespace },
        spec,
        status: {},
      };
      // A dry run issues nothing (upstream returns the defaulted request without a token).
      if (ctx.dryRun) return out;
      const issued = await opts.issue({
        serviceAccount: { namespace: ctx.namespace, name, uid: sa.metadata?.uid ?? '' },
        audiences: spec.audiences,
        expirationSeconds: spec.expirationSeconds,
        boundObject,
      });
      // metav1.Time: RFC 3339 in whole seconds.
      out.status = { token: issued.token, expirationTimestamp: issued.expirationTimestamp.toISOString().replace(/\.\d{3}Z$/, 'Z') };
      return out;
    },
  };
}
