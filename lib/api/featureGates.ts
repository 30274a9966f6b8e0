// The one registry of feature gates (DESIGN.md §2.12): upstream's names, with the stage, default
// and lock each had at 1.32 (the last versioned spec ≤ 1.32). Parsing, the --feature-gates help
// lines and the metric follow k8s.io/component-base/featuregate (feature_gate.go) at 1.32.

/** Upstream's prerelease values; GA renders as "" wherever upstream prints the stage (metric label). */
export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  default: boolean;
  stage: FeatureStage;
  /** Locked to the default: setting the other value fails start-up. */
  lockToDefault?: boolean;
}

const alpha = (): FeatureSpec => ({ default: false, stage: 'ALPHA' });
const beta = (on: boolean): FeatureSpec => ({ default: on, stage: 'BETA' });
const gaLocked = (): FeatureSpec => ({ default: true, stage: 'GA', lockToDefault: true });
const deprecated = (on: boolean): FeatureSpec => ({ default: on, stage: 'DEPRECATED' });

/**
 * kube-apiserver 1.32's gates that bear on what this server does. Sources: component-base
 * featuregate (AllAlpha, AllBeta), k8s.io/apiserver pkg/features (the generic server: all of them),
 * k/k pkg/features (CSR, service-account token, storage and apiserver-proxy gates), component-base
 * logs/metrics/zpages and client-go features. Node, scheduler, volume and workload gates are left out.
 */
export const knownFeatures = {
  // component-base: global toggles of every alpha / beta gate not named explicitly.
  AllAlpha: alpha(),
  AllBeta: beta(false),
  // k8s.io/apiserver pkg/features
  AdmissionWebhookMatchConditions: gaLocked(),
  AggregatedDiscoveryEndpoint: gaLocked(),
  AllowUnsafeMalformedObjectDeletion: alpha(),
  AnonymousAuthConfigurableEndpoints: beta(true),
  APIListChunking: gaLocked(),
  APIResponseCompression: beta(true),
  APIServerIdentity: beta(true),
  APIServerTracing: beta(true),
  APIServingWithRoutine: alpha(),
  AuthorizeWithSelectors: beta(true),
  BtreeWatchCache: beta(true),
  CBORServingAndStorage: alpha(),
  ConcurrentWatchObjectDecode: beta(false),
  ConsistentListFromCache: beta(true),
  CoordinatedLeaderElection: alpha(),
  EfficientWatchResumption: gaLocked(),
  KMSv1: deprecated(false),
  MutatingAdmissionPolicy: alpha(),
  OpenAPIEnums: beta(true),
  RemainingItemCount: gaLocked(),
  RemoteRequestHeaderUID: alpha(),
  ResilientWatchCacheInitialization: beta(true),
  RetryGenerateName: gaLocked(),
  SeparateCacheWatchRPC: beta(true),
  StorageVersionAPI: alpha(),
  StorageVersionHash: beta(true),
  StrictCostEnforcementForVAP: gaLocked(),
  StrictCostEnforcementForWebhooks: gaLocked(),
  StructuredAuthenticationConfiguration: beta(true),
  StructuredAuthorizationConfiguration: gaLocked(),
  UnauthenticatedHTTP2DOSMitigation: beta(true),
  WatchBookmark: gaLocked(),
  WatchCacheInitializationPostStartHook: beta(false),
  WatchFromStorageWithoutResourceVersion: beta(false),
  WatchList: beta(true),
  // k/k pkg/features: certificates, service-account tokens, storage, apiserver peers
  AllowDNSOnlyNodeCSR: deprecated(false),
  AllowInsecureKubeletCertificateSigningRequests: deprecated(false),
  ClusterTrustBundle: alpha(),
  ExternalServiceAccountTokenSigner: alpha(),
  ServiceAccountNodeAudienceRestriction: beta(true),
  ServiceAccountTokenJTI: gaLocked(),
  ServiceAccountTokenNodeBinding: beta(true),
  ServiceAccountTokenNodeBindingValidation: gaLocked(),
  ServiceAccountTokenPodNodeInfo: gaLocked(),
  StorageNamespaceIndex: beta(true),
  StorageVersionMigrator: alpha(),
  UnknownVersionInteroperabilityProxy: alpha(),
  // component-base logs, metrics and zpages
  ComponentFlagz: alpha(),
  ComponentSLIs: gaLocked(),
  ComponentStatusz: alpha(),
  ContextualLogging: beta(true),
  LoggingAlphaOptions: alpha(),
  LoggingBetaOptions: beta(true),
  // client-go (registered into the server's gate, as upstream does)
  ClientsAllowCBOR: alpha(),
  ClientsPreferCBOR: alpha(),
  InformerResourceVersion: alpha(),
  WatchListClient: beta(false),
} as const satisfies Record<string, FeatureSpec>;

export type FeatureName = keyof typeof knownFeatures;

const specOf = (name: FeatureName): FeatureSpec => knownFeatures[name];
const allNames = Object.keys(knownFeatures) as FeatureName[];
const globalToggles: Partial<Record<FeatureName, FeatureStage>> = { AllAlpha: 'ALPHA', AllBeta: 'BETA' };

/** The stage as upstream renders a prerelease: GA is the empty string. */
export function stageLabel(stage: FeatureStage): string {
  return stage === 'GA' ? '' : stage;
}

/** A --feature-gates value that cannot be applied; the message is upstream's. */
export class FeatureGateError extends Error {}

export class FeatureGates {
  private readonly enabled = new Map<FeatureName, boolean>();
  /** What upstream logs (klog.Warningf) for each deprecated or GA gate that was set. */
  readonly warnings: string[] = [];

  /** Upstream's Set + SetFromMap: a later value for the same key wins; errors as upstream's aggregate. */
  static parse(spec: string): FeatureGates {
    const m = new Map<string, boolean>();
    for (const s of spec.split(',')) {
      if (s.length === 0) continue;
      const eq = s.indexOf('=');
      const k = (eq < 0 ? s : s.slice(0, eq)).trim();
      if (eq < 0) throw new FeatureGateError(`missing bool value for ${k}`);
      const v = s.slice(eq + 1).trim();
      const b = parseBool(v);
      if (b === undefined) throw new FeatureGateError(`invalid value of ${k}=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
      m.set(k, b);
    }
    const g = new FeatureGates();
    const errs: string[] = [];
    const toggles: Array<[FeatureStage, boolean]> = [];
    for (const [k, v] of m) {
      if (!(k in knownFeatures)) {
        // Upstream returns at the first unknown gate.
        errs.push(`unrecognized feature gate: ${k}`);
        break;
      }
      const name = k as FeatureName;
      const spec = specOf(name);
      if (spec.lockToDefault && spec.default !== v) {
        errs.push(`cannot set feature gate ${k} to ${v}, feature is locked to ${spec.default}`);
        continue;
      }
      g.enabled.set(name, v);
      const toggled = globalToggles[name];
      if (toggled) toggles.push([toggled, v]);
      else if (spec.stage === 'DEPRECATED') g.warnings.push(`Setting deprecated feature gate ${k}=${v}. It will be removed in a future release.`);
      else if (spec.stage === 'GA') g.warnings.push(`Setting GA feature gate ${k}=${v}. It will be removed in a future release.`);
    }
    if (errs.length) throw new FeatureGateError(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
    // AllAlpha / AllBeta set every gate of their stage that was not named explicitly.
    for (const [stage, v] of toggles) {
      for (const name of allNames) {
        if (!globalToggles[name] && specOf(name).stage === stage && !g.enabled.has(name)) g.enabled.set(name, v);
      }
    }
    return g;
  }

  isEnabled(name: FeatureName): boolean {
    return this.enabled.get(name) ?? specOf(name).default;
  }

  /** Every gate with its stage label and state: upstream's feature_enabled metric series. */
  states(): Array<{ name: FeatureName; stage: string; enabled: boolean }> {
    return allNames.map((name) => ({ name, stage: stageLabel(specOf(name).stage), enabled: this.isEnabled(name) }));
  }
}

/**
 * Upstream's KnownFeatures: `Name=true|false (STAGE - default=X)`, sorted; GA and deprecated
 * gates are hidden from the list (they can still be set, GA ones only to their locked value).
 */
export function knownFeatureLines(): string[] {
  return allNames
    .filter((name) => globalToggles[name] || (specOf(name).stage !== 'GA' && specOf(name).stage !== 'DEPRECATED'))
    .map((name) => `${name}=true|false (${specOf(name).stage} - default=${specOf(name).default})`)
    .sort();
}

/** The --feature-gates flag's help, as featuregate's AddFlag words it. */
export function featureGatesFlagHelp(): string {
  return `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${knownFeatureLines().join('\n')}`;
}

export function parseBool(raw: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(raw)) return false;
  return undefined;
}
