// What each in-tree signer accepts (certificates.md §3): one ordered list of checks per signer,
// first failure wins. The texts are upstream's, so clients see the same Failed condition message.
import { signerNames } from '../../api';

/** The request facts the policies look at (a ParsedCertificateRequest has them all). */
export interface RequestFacts {
  commonName: string;
  organizations: readonly string[];
  dnsNames: readonly string[];
  emailAddresses: readonly string[];
  ipAddresses: readonly string[];
  uris: readonly string[];
}

/** One constraint: the failure text, or null when it holds. */
type Check = (csr: RequestFacts, usages: ReadonlySet<string>, usageList: readonly string[]) => string | null;

export interface SignerPolicy {
  signerName: string;
  /** The first failed constraint's text in upstream's check order, or null. */
  validate(csr: RequestFacts, usages: readonly string[]): string | null;
}

export const nodeCommonNamePrefix = 'system:node:';
export const nodesGroup = 'system:nodes';

const orgIsNodes: Check = (csr) =>
  csr.organizations.length === 1 && csr.organizations[0] === nodesGroup ? null : `subject organization is not ${nodesGroup}`;
const cnIsNode: Check = (csr) => (csr.commonName.startsWith(nodeCommonNamePrefix) ? null : `subject common name does not begin with ${nodeCommonNamePrefix}`);
const noDNS: Check = (csr) => (csr.dnsNames.length ? 'DNS subjectAltNames are not allowed' : null);
const noEmail: Check = (csr) => (csr.emailAddresses.length ? 'Email subjectAltNames are not allowed' : null);
const noIP: Check = (csr) => (csr.ipAddresses.length ? 'IP subjectAltNames are not allowed' : null);
const noURI: Check = (csr) => (csr.uris.length ? 'URI subjectAltNames are not allowed' : null);
const dnsOrIP: Check = (csr) => (csr.dnsNames.length || csr.ipAddresses.length ? null : 'DNS or IP subjectAltName is required');

/** spec.usages as a set must equal one of `allowed`; the message lists the first set sorted (Go's sets.List). */
function usagesOneOf(...allowed: ReadonlyArray<readonly string[]>): Check {
  const sets = allowed.map((a) => new Set(a));
  const message = `usages did not match [${[...allowed[0]].sort().join(' ')}]`;
  return (_csr, usages) => (sets.some((s) => s.size === usages.size && [...s].every((u) => usages.has(u))) ? null : message);
}

/** Optional digital signature / key encipherment, required client auth; walks the list in order. */
const clientUsages: Check = (_csr, _set, list) => {
  const optional = new Set(['digital signature', 'key encipherment']);
  let clientAuth = false;
  for (const u of list) {
    if (u === 'client auth') clientAuth = true;
    else if (!optional.has(u)) return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? null : 'missing required usage for client certificate: client auth';
};

const svcletClientUsages = usagesOneOf(['digital signature', 'key encipherment', 'client auth'], ['digital signature', 'client auth']);
const svcletServingUsages = usagesOneOf(['digital signature', 'key encipherment', 'server auth'], ['digital signature', 'server auth']);

const svcletClientChecks: readonly Check[] = [orgIsNodes, noDNS, noEmail, noIP, noURI, cnIsNode, svcletClientUsages];

/** The check order per signer (upstream's ValidateKubeletClientCSR / ValidateKubeletServingCSR / validAPIServerClientUsages). */
const checksBySigner: ReadonlyArray<[string, readonly Check[]]> = [
  [signerNames.apiserverClient, [clientUsages]],
  [signerNames.apiserverClientSvclet, svcletClientChecks],
  [signerNames.svcletServing, [orgIsNodes, dnsOrIP, noEmail, noURI, svcletServingUsages, cnIsNode]],
  // Kept unrestricted for compatibility; v1 refuses the name at creation anyway.
  [signerNames.legacyUnknown, []],
];

function policyOf(signerName: string, checks: readonly Check[]): SignerPolicy {
  return {
    signerName,
    validate(csr, usages) {
      const set = new Set(usages);
      for (const check of checks) {
        const failure = check(csr, set, usages);
        if (failure !== null) return failure;
      }
      return null;
    },
  };
}

/** Every signer the in-tree signer can run, by name. */
export const signerPolicies: ReadonlyMap<string, SignerPolicy> = new Map(checksBySigner.map(([name, checks]) => [name, policyOf(name, checks)]));

export function signerPolicy(signerName: string): SignerPolicy | undefined {
  return signerPolicies.get(signerName);
}

const svcletClientPolicy = policyOf(signerNames.apiserverClientSvclet, svcletClientChecks);

/**
 * True when a request has the svclet client certificate shape (O exactly system:nodes, CN
 * system:node:…, no SANs, the two allowed usage sets). The auto-approver's recognisers use it.
 */
export function isSvcletClientShape(csr: RequestFacts, usages: readonly string[]): boolean {
  return svcletClientPolicy.validate(csr, usages) === null;
}
