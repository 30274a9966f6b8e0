// The opening of `svc-apiserver --help`: what this build serves, derived from the registered
// resources and the default --runtime-config, so the text cannot fall behind the code.
import { apiVersionOf, productDomain, type ResourceInfo } from '../../lib/api';
import { defaultResourceConfig, isServed } from '../../lib/apiserver/resourceConfig';

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** A kind with its subresources, as the README's table writes them: CertificateSigningRequest (+approval, status). */
function kindWithSubresources(kind: string, served: readonly ResourceInfo[]): string {
  const subresources = unique(served.filter((r) => r.kind === kind).flatMap((r) => r.subresources.map((s) => s.name)));
  return subresources.length ? `${kind} (+${subresources.join(', ')})` : kind;
}

/**
 * Two lines: the kinds served with the default --runtime-config (stored ones, then the
 * create-only reviews), and the group/versions that are registered but off until enabled.
 */
export function servedSummary(program: string, registered: readonly ResourceInfo[]): string {
  const defaults = defaultResourceConfig(registered);
  const served = registered.filter((r) => isServed(defaults, r));
  // Whatever --runtime-config=api/all=true would add: alpha and beta versions not yet removed.
  const everything = defaultResourceConfig(registered);
  everything.enableMatchingVersions(() => true);
  const offByDefault = unique(registered.filter((r) => !isServed(defaults, r) && isServed(everything, r)).map(apiVersionOf));

  const stored = unique(served.filter((r) => r.verbs.includes('get')).map((r) => r.kind)).map((k) => kindWithSubresources(k, served));
  const createOnly = unique(served.filter((r) => !r.verbs.includes('get')).map((r) => r.kind));
  const lines = [
    `${program} serves ${stored.join(', ')}` + (createOnly.length ? `, and the create-only ${createOnly.join(', ')}` : '') + ` (core v1 and the *.${productDomain} groups) from etcd.`,
  ];
  if (offByDefault.length) lines.push(`Registered but off unless --runtime-config enables them: ${offByDefault.join(', ')}.`);
  return lines.join('\n');
}
