// svc-apiserver's flags, named as kube-apiserver's (DESIGN.md §2.12).
import { featureGatesFlagHelp, FeatureGates } from '../../lib/api/featureGates';
import { defaultServiceAccountIssuer, naming, type NamingProfileName } from '../../lib/api/product';
import type { ResourceInfo } from '../../lib/api/resource';
import type { ResourceConfig } from '../../lib/apiserver/resourceConfig';
import { resourceConfigFromFlag, RuntimeConfigError } from '../../lib/apiserver/runtimeConfig';
import { defaultWatchBudgetBytes } from '../../lib/machinery/watchBudget';
import { FlagError, FlagSpec, FlagValues, parseFeatureGatesFlag } from '../flagSet';
import { apiNamingFlagHelp } from '../namingEntry';

export const apiserverFlags: readonly FlagSpec[] = [
  { name: 'etcd-servers', type: 'stringSlice', default: ['http://127.0.0.1:2379'], help: 'List of etcd servers to connect with (scheme://ip:port), comma separated.' },
  { name: 'etcd-cafile', type: 'string', default: '', help: 'SSL Certificate Authority file used to secure etcd communication.' },
  { name: 'etcd-certfile', type: 'string', default: '', help: 'SSL certification file used to secure etcd communication.' },
  { name: 'etcd-keyfile', type: 'string', default: '', help: 'SSL key file used to secure etcd communication.' },
  { name: 'etcd-prefix', type: 'string', default: '/registry', help: 'The prefix to prepend to all resource paths in etcd.' },
  {
    name: 'api-naming',
    type: 'string',
    default: 'svc',
    help: `${apiNamingFlagHelp} Recorded in storage at the first start; a later start with the other spelling on the same data fails.`,
  },
  {
    name: 'ephemeral',
    type: 'bool',
    default: false,
    help: 'Serve a throwaway server: memory storage, the PKI and an admin kubeconfig in a new temporary directory (its path printed), all removed on exit. Overrides --storage-backend, --cert-dir and --write-kubeconfig.',
  },
  { name: 'storage-backend', type: 'string', default: 'etcd3', help: "The storage backend for persistence. Options: 'etcd3' (default), 'memory' (in-process, for tests and throwaway servers)." },
  { name: 'etcd-compaction-interval', type: 'duration', default: 300_000, help: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.' },
  { name: 'bind-address', type: 'string', default: '0.0.0.0', help: 'The IP address on which to listen for the --secure-port port.' },
  { name: 'secure-port', type: 'int', default: 6443, help: 'The port on which to serve HTTPS with authentication and authorization. 0 picks a free port.' },
  { name: 'cert-dir', type: 'string', default: 'data/pki', help: 'The directory where the TLS certs are located. Generated there (cluster CA, serving and admin certificates) when --tls-cert-file and --tls-private-key-file are not given.' },
  { name: 'client-ca-file', type: 'string', default: '', help: 'Any request presenting a client certificate signed by one of the authorities in this file is authenticated with the CommonName as user and the Organizations as groups.' },
  { name: 'tls-cert-file', type: 'string', default: '', help: 'File containing the default x509 certificate for HTTPS.' },
  { name: 'tls-private-key-file', type: 'string', default: '', help: 'File containing the default x509 private key matching --tls-cert-file.' },
  { name: 'write-kubeconfig', type: 'string', default: '', help: 'Write an admin kubeconfig to this path (needs the generated --cert-dir PKI).' },
  { name: 'anonymous-auth', type: 'bool', default: true, help: 'Enables anonymous requests to the secure port. Anonymous requests have a username of system:anonymous and a group of system:unauthenticated.' },
  { name: 'feature-gates', type: 'string', default: '', help: featureGatesFlagHelp() },
  { name: 'runtime-config', type: 'string', default: '', help: 'A set of key=value pairs that enable or disable built-in APIs. Supported options are: v1=true|false for the core API group; <group>/<version>=true|false for a specific API group and version (e.g. certificates.svc.io/v1=true); <group>/<version>/<resource>=true|false for one resource; api/all, api/ga, api/beta, api/alpha=true|false for all, GA, beta or alpha versions; api/legacy is deprecated, and will be removed in a future version.' },
  { name: 'watch-cache', type: 'bool', default: true, help: 'Enable the watch cache: lists and watches are served from memory fed by one etcd watch per resource.' },
  { name: 'http2-max-streams-per-connection', type: 'int', default: 0, help: "The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero means to use golang's default." },
  {
    name: 'max-watch-unsent-bytes',
    type: 'int',
    default: defaultWatchBudgetBytes,
    help: "The most bytes all watches together may hold for clients that have not taken them yet (events written and not sent, and events queued by dedicated etcd watches for paused clients). A watch's writes wait while the total is at this limit; a watch that has sent nothing for 1s while holding bytes is then closed, longest first, as upstream's cacher closes unresponsive watchers. One watch holds at most 32 MiB or this, whichever is less.",
  },
  { name: 'max-request-bytes', type: 'int', default: 3 * 1024 * 1024, help: 'The largest request body accepted, in bytes.' },
  { name: 'request-timeout', type: 'duration', default: 60_000, help: 'An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by the ?timeout= query parameter; watches are not affected.' },
  { name: 'authorization-mode', type: 'stringSlice', default: ['RBAC'], help: 'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,RBAC. Members of system:masters are always allowed.' },
  { name: 'token-auth-file', type: 'string', default: '', help: 'If set, the file that will be used to secure the secure port of the API server via token authentication (CSV: token,user,uid,"group1,group2").' },
  { name: 'service-account-signing-key-file', type: 'string', default: '', help: 'Path to the file that contains the current private key of the service account token issuer (RSA or ECDSA P-256). Generated as <cert-dir>/sa.key when not given.' },
  { name: 'service-account-key-file', type: 'stringSlice', default: [], help: 'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. Defaults to the signing key\'s public half. Repeatable.' },
  { name: 'service-account-issuer', type: 'stringSlice', default: [defaultServiceAccountIssuer], help: 'Identifier of the service account token issuer (the iss claim). Repeatable: the first issues new tokens, all are accepted.' },
  { name: 'api-audiences', type: 'stringSlice', default: [], help: 'Identifiers of the API. The service account token authenticator validates that tokens are bound to at least one of these audiences. Defaults to the first --service-account-issuer.' },
  { name: 'service-account-max-token-expiration', type: 'duration', default: 0, help: 'The maximum validity duration of a token created by the service account token issuer (0 = no cap beyond 2^32 s).' },
  { name: 'audit-log-path', type: 'string', default: '', help: "If set, all requests coming to the apiserver will be logged to this file. '-' means standard out." },
  { name: 'audit-policy-file', type: 'string', default: '', help: 'Path to the file that defines the audit policy configuration (audit.svc.io/v1 Policy, YAML or JSON).' },
  { name: 'audit-log-maxsize', type: 'int', default: 0, help: 'The maximum size in megabytes of the audit log file before it gets rotated (0 = no rotation).' },
  { name: 'audit-log-maxbackup', type: 'int', default: 0, help: 'The maximum number of old audit log files to retain. Setting a value of 0 will mean there\'s no restriction on the number of files.' },
  { name: 'audit-log-maxage', type: 'int', default: 0, help: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.' },
  { name: 'audit-log-batch-buffer-size', type: 'int', default: 10000, help: 'The size of the buffer to store events before writing them; when full, further events are dropped (and counted) rather than blocking requests.' },
  { name: 'livez-grace-period', type: 'duration', default: 0, help: "This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true." },
  { name: 'shutdown-delay-duration', type: 'duration', default: 0, help: 'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.' },
  { name: 'shutdown-send-retry-after', type: 'bool', default: false, help: "If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained, during this window all incoming requests will be rejected with a status code 429 and a 'Retry-After' response header, in addition 'Connection: close' response header is set in order to tear down the TCP connection when idle." },
  { name: 'shutdown-watch-termination-grace-period', type: 'duration', default: 0, help: 'This option, if set, represents the maximum amount of grace period the apiserver will wait for active watch request(s) to drain during the graceful server shutdown window.' },
  { name: 'v', type: 'int', default: 0, help: 'Log verbosity: 0 logs requests at info, 4 and above adds debug output.' },
];

export interface ApiServerOptions {
  apiNaming: NamingProfileName;
  ephemeral: boolean;
  etcdServers: string[];
  /** TLS to etcd (https endpoints): the CA that signed etcd's certificate and our client pair. */
  etcdCAFile: string;
  etcdCertFile: string;
  etcdKeyFile: string;
  etcdPrefix: string;
  storageBackend: 'etcd3' | 'memory';
  etcdCompactionIntervalMs: number;
  bindAddress: string;
  securePort: number;
  certDir: string;
  clientCAFile: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  writeKubeconfig: string;
  anonymousAuth: boolean;
  features: FeatureGates;
  /** Served group/versions and resources (--runtime-config over the defaults). */
  runtimeConfig: ResourceConfig;
  maxRequestBytes: number;
  /** --max-watch-unsent-bytes: the watch budget (lib/machinery/watchBudget.ts). */
  maxWatchUnsentBytes: number;
  /** --http2-max-streams-per-connection; 0 = upstream's default (http2Serving.ts). */
  http2MaxStreamsPerConnection: number;
  watchCache: boolean;
  verbosity: number;
  requestTimeoutMs: number;
  livezGracePeriodMs: number;
  shutdown: { delayMs: number; sendRetryAfter: boolean; watchTerminationGraceMs: number };
  authorizationModes: AuthorizationMode[];
  tokenAuthFile: string;
  serviceAccountSigningKeyFile: string;
  serviceAccountKeyFiles: string[];
  serviceAccountIssuers: string[];
  apiAudiences: string[];
  serviceAccountMaxTokenExpirationSeconds: number;
  audit: {
    logPath: string;
    policyFile: string;
    maxSizeMB: number;
    maxBackups: number;
    maxAgeDays: number;
    bufferEvents: number;
  };
}

export const authorizationModes = ['AlwaysAllow', 'AlwaysDeny', 'RBAC'] as const;
export type AuthorizationMode = (typeof authorizationModes)[number];

function parseAuthorizationModes(values: string[]): AuthorizationMode[] {
  if (values.length === 0) throw new FlagError('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const m of values) {
    if (!(authorizationModes as readonly string[]).includes(m)) {
      throw new FlagError(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    }
    if (seen.has(m)) throw new FlagError(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
  }
  return values as AuthorizationMode[];
}

/** --runtime-config through upstream's parsing, validation and merge; its errors are flag errors. */
function runtimeConfigOption(spec: string, registered: readonly ResourceInfo[]): ResourceConfig {
  try {
    return resourceConfigFromFlag(spec, registered);
  } catch (e) {
    if (e instanceof RuntimeConfigError) throw new FlagError(e.message);
    throw e;
  }
}

/** `registered`: every resource the server can serve (enabled or not), for --runtime-config. */
export function toOptions(v: FlagValues, registered: readonly ResourceInfo[]): ApiServerOptions {
  const apiNaming = String(v['api-naming']);
  // The entry selected the profile from argv before lib/api loaded; a mismatch is a wiring bug.
  if (apiNaming !== naming.name) throw new FlagError(`invalid --api-naming ${JSON.stringify(apiNaming)}: this process serves the "${naming.name}" naming (must be one of "svc", "k8s")`);
  const ephemeral = Boolean(v.ephemeral);
  const backend = ephemeral ? 'memory' : String(v['storage-backend']);
  if (backend !== 'etcd3' && backend !== 'memory') {
    throw new FlagError(`invalid --storage-backend ${JSON.stringify(backend)}: must be one of "etcd3", "memory"`);
  }
  const port = Number(v['secure-port']);
  if (port < 0 || port > 65535) throw new FlagError(`--secure-port ${port} must be between 0 and 65535, inclusive`);
  const servers = v['etcd-servers'] as string[];
  if (backend === 'etcd3') {
    if (servers.length === 0) throw new FlagError('--etcd-servers must be specified');
    for (const s of servers) {
      if (!/^https?:\/\/[^/]+$/.test(s)) throw new FlagError(`--etcd-servers: invalid URL ${JSON.stringify(s)} (want scheme://host:port)`);
    }
  }
  const etcdCert = String(v['etcd-certfile']);
  const etcdKey = String(v['etcd-keyfile']);
  if (!!etcdCert !== !!etcdKey) throw new FlagError('--etcd-certfile and --etcd-keyfile must be given together');
  const tlsCert = String(v['tls-cert-file']);
  const tlsKey = String(v['tls-private-key-file']);
  if (!!tlsCert !== !!tlsKey) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  const issuers = v['service-account-issuer'] as string[];
  if (issuers.length === 0 || issuers.some((i) => !i)) throw new FlagError('service-account-issuer is a required flag');
  if (v['audit-policy-file'] && !v['audit-log-path']) throw new FlagError('--audit-policy-file needs --audit-log-path');
  const features = parseFeatureGatesFlag(v);
  return {
    apiNaming: naming.name,
    ephemeral,
    etcdServers: servers,
    etcdCAFile: String(v['etcd-cafile']),
    etcdCertFile: etcdCert,
    etcdKeyFile: etcdKey,
    etcdPrefix: String(v['etcd-prefix']),
    storageBackend: backend,
    etcdCompactionIntervalMs: Number(v['etcd-compaction-interval']),
    bindAddress: String(v['bind-address']),
    securePort: port,
    certDir: String(v['cert-dir']),
    clientCAFile: String(v['client-ca-file']),
    tlsCertFile: tlsCert,
    tlsPrivateKeyFile: tlsKey,
    writeKubeconfig: String(v['write-kubeconfig']),
    anonymousAuth: Boolean(v['anonymous-auth']),
    features,
    runtimeConfig: runtimeConfigOption(String(v['runtime-config']), registered),
    maxRequestBytes: Number(v['max-request-bytes']),
    maxWatchUnsentBytes: positiveInt(v, 'max-watch-unsent-bytes'),
    http2MaxStreamsPerConnection: nonNegativeWith(v, 'http2-max-streams-per-connection', '--http2-max-streams-per-connection can not be negative'),
    watchCache: Boolean(v['watch-cache']),
    verbosity: Number(v.v),
    requestTimeoutMs: positiveDuration(v, 'request-timeout'),
    livezGracePeriodMs: notNegativeDuration(v, 'livez-grace-period', '--livez-grace-period can not be a negative value'),
    shutdown: {
      delayMs: notNegativeDuration(v, 'shutdown-delay-duration', '--shutdown-delay-duration can not be negative value'),
      sendRetryAfter: Boolean(v['shutdown-send-retry-after']),
      watchTerminationGraceMs: notNegativeDuration(v, 'shutdown-watch-termination-grace-period', 'shutdown-watch-termination-grace-period, if provided, can not be a negative value'),
    },
    authorizationModes: parseAuthorizationModes(v['authorization-mode'] as string[]),
    tokenAuthFile: String(v['token-auth-file']),
    serviceAccountSigningKeyFile: String(v['service-account-signing-key-file']),
    serviceAccountKeyFiles: v['service-account-key-file'] as string[],
    serviceAccountIssuers: issuers,
    apiAudiences: (v['api-audiences'] as string[]).length ? (v['api-audiences'] as string[]) : [issuers[0]],
    serviceAccountMaxTokenExpirationSeconds: Math.floor(Number(v['service-account-max-token-expiration']) / 1000),
    audit: {
      logPath: String(v['audit-log-path']),
      policyFile: String(v['audit-policy-file']),
      maxSizeMB: nonNegative(v, 'audit-log-maxsize'),
      maxBackups: nonNegative(v, 'audit-log-maxbackup'),
      maxAgeDays: nonNegative(v, 'audit-log-maxage'),
      bufferEvents: Math.max(1, nonNegative(v, 'audit-log-batch-buffer-size')),
    },
  };
}

function positiveDuration(v: FlagValues, name: string): number {
  const ms = Number(v[name]);
  if (!(ms > 0)) throw new FlagError(`--${name} must be a positive duration`);
  return ms;
}

/** Upstream's ServerRunOptions.Validate messages, word for word (they differ per flag). */
function notNegativeDuration(v: FlagValues, name: string, message: string): number {
  const ms = Number(v[name]);
  if (ms < 0) throw new FlagError(message);
  return ms;
}

function positiveInt(v: FlagValues, name: string): number {
  const n = Number(v[name]);
  if (!(n > 0)) throw new FlagError(`--${name} must be a positive number of bytes`);
  return n;
}

function nonNegativeWith(v: FlagValues, name: string, message: string): number {
  const n = Number(v[name]);
  if (n < 0) throw new FlagError(message);
  return n;
}

function nonNegative(v: FlagValues, name: string): number {
  const n = Number(v[name]);
  if (n < 0) throw new FlagError(`--${name} must not be negative`);
  return n;
}
