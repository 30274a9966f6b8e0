// svc-controller-manager's flags, named as kube-controller-manager's (cmd/kube-controller-manager/app/options,
// k8s.io/controller-manager/options, component-base's leader-election flags), with `kubelet` →
// `svclet` and `kube-apiserver` → `svc-apiserver` in the per-signer signing flags.
import { controllerManagerComponent, namespaceNames, processNames, signerNames } from '../../lib/api';
import { csrCleanerDefaults, type CsrCleanerIntervals } from '../../lib/controllers/csr';
import { resolveSignerCAFiles } from '../../lib/signing/signer';
import type { SignerCAFlags } from '../../lib/signing/signer';
import { featureGatesFlagHelp, type FeatureGates } from '../../lib/api/featureGates';
import { FlagError, FlagSpec, FlagValues, parseFeatureGatesFlag, parseFlags } from '../flagSet';

/** Controllers this process runs, by their upstream short names; all are on by default. */
export const knownControllers = ['csrsigning', 'csrapproving', 'csrcleaner', 'serviceaccount', 'namespace'] as const;
export type ControllerName = (typeof knownControllers)[number];

/** Upstream's canonical names (since 1.28) are accepted as aliases of the short ones. */
export const controllerAliases: Readonly<Record<string, ControllerName>> = {
  'certificatesigningrequest-signing-controller': 'csrsigning',
  'certificatesigningrequest-approving-controller': 'csrapproving',
  'certificatesigningrequest-cleaner-controller': 'csrcleaner',
  'serviceaccount-controller': 'serviceaccount',
  'namespace-controller': 'namespace',
};

/** None of ours is off by default (upstream: bootstrapsigner, tokencleaner, …). */
export const disabledByDefaultControllers: readonly ControllerName[] = [];

/** Per-signer CA flags: flag infix → signer name. */
export const perSignerFlagInfixes: ReadonlyArray<[string, string]> = [
  ['svclet-serving', signerNames.svcletServing],
  ['svclet-client', signerNames.apiserverClientSvclet],
  [`${processNames.apiserver}-client`, signerNames.apiserverClient],
  ['legacy-unknown', signerNames.legacyUnknown],
];

const perSignerFlags: FlagSpec[] = perSignerFlagInfixes.flatMap(([infix, signer]): FlagSpec[] => [
  {
    name: `cluster-signing-${infix}-cert-file`,
    type: 'string',
    default: '',
    help: `Filename containing a PEM-encoded X509 CA certificate used to issue certificates for the ${signer} signer. If specified, --cluster-signing-${infix}-key-file must be set as well.`,
  },
  {
    name: `cluster-signing-${infix}-key-file`,
    type: 'string',
    default: '',
    help: `Filename containing a PEM-encoded RSA or ECDSA private key used to sign certificates for the ${signer} signer. If specified, --cluster-signing-${infix}-cert-file must be set as well.`,
  },
]);

/**
 * csrcleaner's deadlines. Upstream hard-codes them (cleaner.go); ours are flags so tests and
 * impatient clusters can shorten them. Defaults are upstream's.
 */
export const csrCleanerFlags: Readonly<Record<keyof CsrCleanerIntervals, { name: string; help: string }>> = {
  pollingInterval: { name: 'csr-cleaner-polling-interval', help: 'How often csrcleaner walks every CSR looking for ones past their deadline.' },
  approvedExpiration: { name: 'csr-cleaner-approved-expiration', help: 'Approved (and issued) CSRs are deleted this long after approval.' },
  deniedExpiration: { name: 'csr-cleaner-denied-expiration', help: 'Denied and Failed CSRs are deleted this long after that condition was set.' },
  pendingExpiration: { name: 'csr-cleaner-pending-expiration', help: 'CSRs with no condition are deleted this long after creation.' },
};

const csrCleanerFlagSpecs: FlagSpec[] = (Object.keys(csrCleanerFlags) as (keyof CsrCleanerIntervals)[]).map((k) => ({
  name: csrCleanerFlags[k].name,
  type: 'duration',
  default: csrCleanerDefaults[k],
  help: `${csrCleanerFlags[k].help} Not an upstream flag (upstream hard-codes the default).`,
}));

export const controllerManagerFlags: readonly FlagSpec[] = [
  { name: 'kubeconfig', type: 'string', default: '', help: 'Path to kubeconfig file with authorization and master location information (the apiserver writes one next to --write-kubeconfig).' },
  {
    name: 'controllers',
    type: 'stringSlice',
    default: ['*'],
    help: `A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'. All controllers: ${knownControllers.join(', ')}. Disabled-by-default controllers: ${disabledByDefaultControllers.join(', ') || 'none'}.`,
  },
  { name: 'leader-elect', type: 'bool', default: true, help: 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.' },
  {
    name: 'leader-elect-lease-duration',
    type: 'duration',
    default: 15_000,
    help: 'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate.',
  },
  { name: 'leader-elect-renew-deadline', type: 'duration', default: 10_000, help: 'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration.' },
  { name: 'leader-elect-retry-period', type: 'duration', default: 2_000, help: 'The duration the clients should wait between attempting acquisition and renewal of a leadership.' },
  { name: 'leader-elect-resource-lock', type: 'string', default: 'leases', help: "The type of resource object that is used for locking during leader election. Supported options are 'leases'." },
  { name: 'leader-elect-resource-name', type: 'string', default: controllerManagerComponent, help: 'The name of resource object that is used for locking during leader election.' },
  { name: 'leader-elect-resource-namespace', type: 'string', default: namespaceNames.system, help: 'The namespace of resource object that is used for locking during leader election.' },
  {
    name: 'cluster-signing-cert-file',
    type: 'string',
    default: '',
    help: 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates. If specified, no more specific --cluster-signing-* flag may be specified.',
  },
  {
    name: 'cluster-signing-key-file',
    type: 'string',
    default: '',
    help: 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates. If specified, no more specific --cluster-signing-* flag may be specified.',
  },
  ...perSignerFlags,
  {
    name: 'cluster-signing-duration',
    type: 'duration',
    default: 8760 * 3600_000,
    help: "The max length of duration signed certificates will be given. Individual CSRs may request shorter certs by setting spec.expirationSeconds.",
  },
  { name: 'concurrent-namespace-syncs', type: 'int', default: 10, help: 'The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load.' },
  { name: 'namespace-sync-period', type: 'duration', default: 300_000, help: 'The period for syncing namespace life-cycle updates.' },
  ...csrCleanerFlagSpecs,
  { name: 'bind-address', type: 'string', default: '0.0.0.0', help: 'The IP address on which to listen for the --secure-port port (/healthz and /metrics).' },
  { name: 'secure-port', type: 'int', default: 10257, help: 'The port on which to serve HTTPS (/healthz, /metrics). If 0, don\'t serve HTTPS at all.' },
  { name: 'tls-cert-file', type: 'string', default: '', help: 'File containing the x509 certificate for HTTPS. If not given, a self-signed certificate for localhost is generated in memory.' },
  { name: 'tls-private-key-file', type: 'string', default: '', help: 'File containing the x509 private key matching --tls-cert-file.' },
  { name: 'feature-gates', type: 'string', default: '', help: featureGatesFlagHelp() },
  { name: 'v', type: 'int', default: 0, help: 'Log verbosity: 4 and above adds debug output (workqueue retries, per-sync timings).' },
];

export interface LeaderElectionOptions {
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resourceNamespace: string;
  resourceName: string;
}

export interface ControllerManagerOptions {
  kubeconfig: string;
  /** As given, aliases replaced by the short names. */
  controllers: string[];
  leaderElection: LeaderElectionOptions;
  /** The CA flags as lib/signing/signer's loadSignerCAs takes them. */
  signing: SignerCAFlags & { durationMs: number };
  concurrentNamespaceSyncs: number;
  namespaceSyncPeriodMs: number;
  /** Milliseconds. */
  csrCleaner: CsrCleanerIntervals;
  bindAddress: string;
  securePort: number;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  /** The same registry as the apiserver's, as upstream's controller manager shares DefaultFeatureGate. */
  features: FeatureGates;
  verbosity: number;
}

/** Replaces aliases with short names, keeping a leading '-'. */
export function canonicalControllerNames(values: readonly string[]): string[] {
  return values.map((v) => {
    const negated = v.startsWith('-');
    const bare = negated ? v.slice(1) : v;
    const name = controllerAliases[bare] ?? bare;
    return negated ? `-${name}` : name;
  });
}

/** Every entry other than '*' must name a known controller (or alias), with or without '-'. */
export function validateControllers(values: readonly string[]): string[] {
  const errs: string[] = [];
  for (const v of values) {
    if (v === '*') continue;
    const bare = v.startsWith('-') ? v.slice(1) : v;
    const name = controllerAliases[bare] ?? bare;
    if (!(knownControllers as readonly string[]).includes(name)) errs.push(`${JSON.stringify(bare)} is not in the list of known controllers`);
  }
  return errs;
}

/** Upstream's IsControllerEnabled: the first entry naming it (or '-' it) decides; else '*' turns on the on-by-default ones. */
export function isControllerEnabled(name: string, controllers: readonly string[], disabledByDefault: readonly string[] = disabledByDefaultControllers): boolean {
  let star = false;
  for (const c of controllers) {
    if (c === name) return true;
    if (c === `-${name}`) return false;
    if (c === '*') star = true;
  }
  return star && !disabledByDefault.includes(name);
}

export function enabledControllers(controllers: readonly string[]): ControllerName[] {
  return knownControllers.filter((n) => isControllerEnabled(n, controllers));
}

/** `-v N` / `-v=N` (klog's shorthand) as `--v`; everything else untouched. */
export function normalizeShorthands(argv: readonly string[]): string[] {
  return argv.map((a) => (a === '-v' ? '--v' : a.startsWith('-v=') ? `--v=${a.slice(3)}` : a));
}

function leaderElectionOptions(v: FlagValues): LeaderElectionOptions {
  const le: LeaderElectionOptions = {
    leaderElect: Boolean(v['leader-elect']),
    leaseDurationMs: Number(v['leader-elect-lease-duration']),
    renewDeadlineMs: Number(v['leader-elect-renew-deadline']),
    retryPeriodMs: Number(v['leader-elect-retry-period']),
    resourceNamespace: String(v['leader-elect-resource-namespace']),
    resourceName: String(v['leader-elect-resource-name']),
  };
  if (!le.leaderElect) return le;
  // component-base's ValidateLeaderElectionConfiguration, plus client-go's jitter rule.
  if (String(v['leader-elect-resource-lock']) !== 'leases') throw new FlagError('resourceLock value must be "leases"');
  if (le.leaseDurationMs <= 0) throw new FlagError('--leader-elect-lease-duration must be greater than zero');
  if (le.renewDeadlineMs <= 0) throw new FlagError('--leader-elect-renew-deadline must be greater than zero');
  if (le.retryPeriodMs <= 0) throw new FlagError('--leader-elect-retry-period must be greater than zero');
  if (le.leaseDurationMs <= le.renewDeadlineMs) throw new FlagError('--leader-elect-lease-duration must be greater than --leader-elect-renew-deadline');
  if (le.renewDeadlineMs <= 1.2 * le.retryPeriodMs) throw new FlagError('--leader-elect-renew-deadline must be greater than 1.2 × --leader-elect-retry-period');
  if (!le.resourceName) throw new FlagError('--leader-elect-resource-name is required');
  if (!le.resourceNamespace) throw new FlagError('--leader-elect-resource-namespace is required');
  return le;
}

function signingOptions(v: FlagValues): ControllerManagerOptions['signing'] {
  const perSigner: Record<string, { certFile: string; keyFile: string }> = {};
  for (const [infix, signer] of perSignerFlagInfixes) {
    const certFile = String(v[`cluster-signing-${infix}-cert-file`]);
    const keyFile = String(v[`cluster-signing-${infix}-key-file`]);
    if (!!certFile !== !!keyFile) throw new FlagError(`--cluster-signing-${infix}-cert-file and --cluster-signing-${infix}-key-file must be given together`);
    if (certFile) perSigner[signer] = { certFile, keyFile };
  }
  const certFile = String(v['cluster-signing-cert-file']);
  const keyFile = String(v['cluster-signing-key-file']);
  if (!!certFile !== !!keyFile) throw new FlagError('--cluster-signing-cert-file and --cluster-signing-key-file must be given together');
  const durationMs = Number(v['cluster-signing-duration']);
  if (!(durationMs > 0)) throw new FlagError('--cluster-signing-duration must be greater than zero');
  const flags: ControllerManagerOptions['signing'] = { durationMs, perSigner };
  if (certFile) Object.assign(flags, { certFile, keyFile });
  try {
    // Upstream's rule (default pair xor per-signer pairs), checked before anything starts.
    resolveSignerCAFiles(flags, Object.values(signerNames));
  } catch (e) {
    throw new FlagError((e as Error).message);
  }
  return flags;
}

function csrCleanerOptions(v: FlagValues): CsrCleanerIntervals {
  const out = { ...csrCleanerDefaults };
  for (const k of Object.keys(csrCleanerFlags) as (keyof CsrCleanerIntervals)[]) {
    const ms = Number(v[csrCleanerFlags[k].name]);
    if (!(ms > 0)) throw new FlagError(`--${csrCleanerFlags[k].name} must be greater than zero`);
    out[k] = ms;
  }
  return out;
}

export function toOptions(v: FlagValues): ControllerManagerOptions {
  const kubeconfig = String(v.kubeconfig);
  if (!kubeconfig) throw new FlagError('--kubeconfig is required: the controller manager reaches the apiserver through a kubeconfig');
  const controllers = v.controllers as string[];
  const errs = validateControllers(controllers);
  if (errs.length) throw new FlagError(errs.join(', '));
  const port = Number(v['secure-port']);
  if (port < 0 || port > 65535) throw new FlagError(`--secure-port ${port} must be between 0 and 65535, inclusive (0 disables serving)`);
  const tlsCert = String(v['tls-cert-file']);
  const tlsKey = String(v['tls-private-key-file']);
  if (!!tlsCert !== !!tlsKey) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  const syncs = Number(v['concurrent-namespace-syncs']);
  if (syncs < 1) throw new FlagError('--concurrent-namespace-syncs must be at least 1');
  return {
    kubeconfig,
    controllers: canonicalControllerNames(controllers),
    leaderElection: leaderElectionOptions(v),
    signing: signingOptions(v),
    concurrentNamespaceSyncs: syncs,
    namespaceSyncPeriodMs: Number(v['namespace-sync-period']),
    csrCleaner: csrCleanerOptions(v),
    bindAddress: String(v['bind-address']),
    securePort: port,
    tlsCertFile: tlsCert,
    tlsPrivateKeyFile: tlsKey,
    features: parseFeatureGatesFlag(v),
    verbosity: Number(v.v),
  };
}

/** Parses argv into options (help: print usage instead). Throws FlagError. */
export function parseControllerManagerFlags(argv: readonly string[]): { options?: ControllerManagerOptions; help: boolean } {
  const { values, help } = parseFlags(normalizeShorthands(argv), controllerManagerFlags);
  if (help) return { help };
  return { options: toOptions(values), help };
}
