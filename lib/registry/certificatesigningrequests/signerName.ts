// Upstream's ValidateSignerName (rules 5 and 7–12 of errors.md §5): "<domain>/<path>", the domain
// made of DNS-1123 labels (at least two), the path of dot-separated DNS-1123 subdomains.
import { fieldErr, FieldError, goQuote } from '../../machinery/fieldErrors';
import {
  dns1123LabelMaxLength,
  dns1123SubdomainMaxLength,
  isDNS1123Label,
  isDNS1123Subdomain,
} from '../../machinery/validation/names';

const maxDomainLength = dns1123SubdomainMaxLength;
// The path must hold a DNS label, a '.', and a DNS subdomain (a full resource name).
const maxPathLength = dns1123SubdomainMaxLength + dns1123LabelMaxLength + 1;
const maxSignerNameLength = maxDomainLength + maxPathLength + 1;

/** Go's len(): lengths are counted in bytes. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Every message of the first failing dot-separated label only: later ones would repeat. */
function firstLabelErrors(
  field: string,
  segment: string,
  check: (label: string) => string[],
): FieldError[] {
  for (const label of segment.split('.')) {
    const msgs = check(label);
    if (msgs.length > 0) return msgs.map((m) => fieldErr.invalid(field, segment, `validating label ${goQuote(label)}: ${m}`));
  }
  return [];
}

export function validateSignerName(field: string, signerName: string): FieldError[] {
  if (signerName.length === 0) return [fieldErr.required(field)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [fieldErr.invalid(field, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, path] = segments;
  const errs: FieldError[] = [];
  if (byteLength(domain) > maxDomainLength) errs.push(fieldErr.tooLong(field, maxDomainLength));
  errs.push(...firstLabelErrors(field, domain, isDNS1123Label));
  if (domain.split('.').length < 2) {
    errs.push(fieldErr.invalid(field, domain, 'should be a domain with at least two segments separated by dots'));
  }
  errs.push(...firstLabelErrors(field, path, isDNS1123Subdomain));
  if (byteLength(signerName) > maxSignerNameLength) errs.push(fieldErr.tooLong(field, maxSignerNameLength));
  return errs;
}
