// The one registry of feature gates: name, stage and default (DESIGN.md §2.12).
// Parsing follows --feature-gates=A=true,B=false; unknown gates and non-booleans are errors,
// and disabling a GA gate that is locked to its default is refused, as upstream.

export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  default: boolean;
  stage: FeatureStage;
  /** GA gates locked to their default can no longer be changed. */
  lockToDefault?: boolean;
}

export const knownFeatures = {
  APIResponseCompression: { default: true, stage: 'BETA' },
  WatchList: { default: true, stage: 'BETA' },
  ConsistentListFromCache: { default: true, stage: 'BETA' },
  CBORServingAndStorage: { default: false, stage: 'ALPHA' },
  AllowUnsafeMalformedObjectDeletion: { default: false, stage: 'ALPHA' },
  APIListChunking: { default: true, stage: 'GA', lockToDefault: true },
  ServerSideApply: { default: true, stage: 'GA', lockToDefault: true },
  ServerSideFieldValidation: { default: true, stage: 'GA', lockToDefault: true },
  AggregatedDiscoveryEndpoint: { default: true, stage: 'BETA' },
} as const satisfies Record<string, FeatureSpec>;

export type FeatureName = keyof typeof knownFeatures;

export class FeatureGates {
  private readonly enabled = new Map<FeatureName, boolean>();

  /** Throws an Error with a flag-style message on bad input. */
  static parse(spec: string): FeatureGates {
    const g = new FeatureGates();
    for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
      const eq = part.indexOf('=');
      if (eq < 0) throw new Error(`missing bool value for ${part}`);
      const name = part.slice(0, eq).trim();
      const raw = part.slice(eq + 1).trim();
      if (!(name in knownFeatures)) throw new Error(`unrecognized feature gate: ${name}`);
      const value = parseBool(raw);
      if (value === undefined) throw new Error(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing "${raw}": invalid syntax`);
      const feature = name as FeatureName;
      const spec: FeatureSpec = knownFeatures[feature];
      if (spec.lockToDefault && value !== spec.default) {
        throw new Error(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
      }
      g.enabled.set(feature, value);
    }
    return g;
  }

  isEnabled(name: FeatureName): boolean {
    return this.enabled.get(name) ?? knownFeatures[name].default;
  }
}

export function parseBool(raw: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(raw)) return false;
  return undefined;
}
