// The in-tree CSR signer (csrsigning): checks a request against its signer's policy and issues
// the certificate (certificates.md §3). Deciding *when* to sign (Approved, not Failed, no
// certificate yet) and writing the result back are the controller's job.
import { issueWithIssuer, prepareIssuer, type PreparedIssuer } from '../issue';
import { knownKeyUsages } from '../../api';
import { parseCertificateRequest, requestPublicKeyObject, verifyCertificateRequestSignature, type ParsedCertificateRequest } from './csrParse';
import { signerPolicies, type SignerPolicy } from './policies';
import { parseSignerCA, type SignerCA, type SignerCAMaterial } from './signerCA';
import { certificateTTL, certificateValidity, SigningError, validityDefaults } from './validity';

/** The parts of a CertificateSigningRequest the signer reads. */
export interface SignableRequest {
  metadata?: { name?: string };
  spec: {
    /** base64 of the PEM request, as in the API object. */
    request: string;
    signerName: string;
    usages?: readonly string[];
    expirationSeconds?: number | null;
  };
}

export type SignOutcome =
  | { kind: 'issued'; certificatePem: string }
  /** The request breaks its signer's constraints: record a Failed condition with this reason/message. */
  | { kind: 'failed'; reason: 'SignerValidationFailure'; message: string }
  /** Not a signer this instance runs: leave the CSR alone. */
  | { kind: 'ignored' };

export interface CsrSignerOptions {
  /** CA for every signer without its own entry in perSigner. */
  ca?: SignerCAMaterial | SignerCA;
  /** CA per signer name; a signer with neither is not run (its CSRs are ignored). */
  perSigner?: Readonly<Record<string, SignerCAMaterial | SignerCA | undefined>>;
  /** `--cluster-signing-duration` in ms (default 8760h): the longest certificate issued. */
  maxDuration?: number;
  now?: () => Date;
  /** Signers to run (default: every signer with a policy). */
  signerNames?: readonly string[];
}

interface RunningSigner {
  policy: SignerPolicy;
  ca: SignerCA;
  /** Imported once, on first use, and shared by signers using the same CA. */
  issuer: () => Promise<PreparedIssuer>;
}

const failureReason = 'SignerValidationFailure';
const known: ReadonlySet<string> = new Set(knownKeyUsages);

function isParsed(m: SignerCAMaterial | SignerCA): m is SignerCA {
  return 'cert' in m && 'key' in m;
}

/** Go's %q of a []string: ["a" "b"]. */
function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

export class CsrSigner {
  private readonly signers = new Map<string, RunningSigner>();
  private readonly maxDuration: number;
  private readonly now: () => Date;

  constructor(opts: CsrSignerOptions) {
    this.maxDuration = opts.maxDuration ?? validityDefaults.maxDurationMs;
    if (!(this.maxDuration > 0)) throw new Error(`maxDuration must be positive, got ${this.maxDuration}`);
    this.now = opts.now ?? (() => new Date());
    // Parse each distinct pair once; signers sharing it share the imported key too.
    const prepared = new Map<SignerCAMaterial | SignerCA, { ca: SignerCA; issuer: () => Promise<PreparedIssuer> }>();
    const prepare = (m: SignerCAMaterial | SignerCA, name: string): { ca: SignerCA; issuer: () => Promise<PreparedIssuer> } => {
      let p = prepared.get(m);
      if (!p) {
        const ca = isParsed(m) ? m : parseSignerCA(m, `inline CA for ${name}`);
        let pending: Promise<PreparedIssuer> | undefined;
        const issuer = (): Promise<PreparedIssuer> => {
          if (!pending) {
            pending = prepareIssuer(ca.key, ca.cert);
            // A failed import is retried on the next call rather than cached forever.
            pending.catch(() => {
              pending = undefined;
            });
          }
          return pending;
        };
        prepared.set(m, (p = { ca, issuer }));
      }
      return p;
    };
    for (const name of opts.signerNames ?? [...signerPolicies.keys()]) {
      const policy = signerPolicies.get(name);
      if (!policy) throw new Error(`no signing policy for signer "${name}"`);
      const material = opts.perSigner?.[name] ?? opts.ca;
      if (material) this.signers.set(name, { policy, ...prepare(material, name) });
    }
  }

  /** Signer names this instance issues for. */
  get signerNames(): string[] {
    return [...this.signers.keys()];
  }

  handles(signerName: string): boolean {
    return this.signers.has(signerName);
  }

  /**
   * Checks and signs one request. Constraint failures come back as 'failed'; anything that
   * may succeed later (CA expired, bad signature, unparsable request) throws, to be retried.
   */
  async sign(csr: SignableRequest): Promise<SignOutcome> {
    const signer = this.signers.get(csr.spec.signerName);
    if (!signer) return { kind: 'ignored' };
    const usages = csr.spec.usages ?? [];

    let parsed: ParsedCertificateRequest;
    try {
      parsed = parseCertificateRequest(Buffer.from(csr.spec.request, 'base64'));
    } catch (e) {
      throw new SigningError(`unable to parse csr "${csr.metadata?.name ?? ''}": ${(e as Error).message}`);
    }
    const failure = signer.policy.validate(parsed, usages);
    if (failure !== null) return { kind: 'failed', reason: failureReason, message: failure };

    // From here on upstream's CertificateAuthority.Sign: signature, usages, validity, issuance.
    try {
      await verifyCertificateRequestSignature(parsed);
    } catch (e) {
      throw new SigningError((e as Error).message);
    }
    const unrecognised = usages.filter((u) => !known.has(u));
    if (unrecognised.length) throw new SigningError(`unrecognized usage values: ${goQuotedList(unrecognised)}`);
    const ttl = certificateTTL(csr.spec.expirationSeconds, this.maxDuration);
    const { notBefore, notAfter } = certificateValidity(this.now(), ttl, signer.ca.notAfter);

    try {
      const issued = await issueWithIssuer(await signer.issuer(), {
        publicKey: requestPublicKeyObject(parsed),
        subject: parsed.subject,
        sans: { dnsNames: parsed.dnsNames, emailAddresses: parsed.emailAddresses, ipAddresses: parsed.ipAddresses, uris: parsed.uris },
        usages,
        // X.509 times have whole seconds; drop the rest like Go's encoder does.
        notBefore: wholeSeconds(notBefore),
        notAfter: wholeSeconds(notAfter),
      });
      return { kind: 'issued', certificatePem: issued.pem };
    } catch (e) {
      throw new SigningError(`failed to sign certificate: ${(e as Error).message}`);
    }
  }
}

function wholeSeconds(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}
