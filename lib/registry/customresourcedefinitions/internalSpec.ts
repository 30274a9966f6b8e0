// The CRD spec as upstream validates it: v1 is converted to the internal version first, which
// lifts per-version schema, subresources, printer columns and selectable fields to the spec when
// every version has the same value (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_…).
// The lift decides the error paths: one version's schema errors read
// spec.validation.openAPIV3Schema…, two different schemas spec.versions[i].schema.openAPIV3Schema….
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
} from '../../api';
import { deepEqual } from '../../machinery/deepEqual';

export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns: CustomResourceColumnDefinition[];
  selectableFields: { jsonPath?: string }[];
}

export interface InternalSpec {
  versions: InternalVersion[];
  validation?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns: CustomResourceColumnDefinition[];
  selectableFields: { jsonPath?: string }[];
}

// Go's semantic equality treats nil and empty lists alike.
const orNone = <T>(list: T[] | undefined): T[] | undefined => (list && list.length ? list : undefined);

function sameForAll<T>(versions: readonly CustomResourceDefinitionVersion[], get: (v: CustomResourceDefinitionVersion) => T): boolean {
  const first = get(versions[0]);
  return versions.every((v) => deepEqual(get(v), first));
}

export function internalSpec(spec: CustomResourceDefinitionSpec): InternalSpec {
  const v1 = spec.versions ?? [];
  const versions: InternalVersion[] = v1.map((v) => ({
    name: v.name ?? '',
    served: v.served === true,
    storage: v.storage === true,
    deprecated: v.deprecated === true,
    ...(v.deprecationWarning !== undefined && v.deprecationWarning !== null ? { deprecationWarning: v.deprecationWarning } : {}),
    ...(v.schema ? { schema: v.schema } : {}),
    ...(v.subresources ? { subresources: v.subresources } : {}),
    additionalPrinterColumns: v.additionalPrinterColumns ?? [],
    selectableFields: v.selectableFields ?? [],
  }));
  const out: InternalSpec = { versions, additionalPrinterColumns: [], selectableFields: [] };
  if (v1.length === 0) return out;
  if (sameForAll(v1, (v) => v.subresources ?? undefined)) {
    if (versions[0].subresources) out.subresources = versions[0].subresources;
    for (const v of versions) delete v.subresources;
  }
  if (sameForAll(v1, (v) => v.schema ?? undefined)) {
    if (versions[0].schema) out.validation = versions[0].schema;
    for (const v of versions) delete v.schema;
  }
  if (sameForAll(v1, (v) => orNone(v.additionalPrinterColumns))) {
    out.additionalPrinterColumns = versions[0].additionalPrinterColumns;
    for (const v of versions) v.additionalPrinterColumns = [];
  }
  if (sameForAll(v1, (v) => orNone(v.selectableFields))) {
    out.selectableFields = versions[0].selectableFields;
    for (const v of versions) v.selectableFields = [];
  }
  return out;
}

/** Upstream's getSubresourcesForVersion: the spec's when no version has its own. */
export function subresourcesForVersion(spec: InternalSpec, version: InternalVersion): CustomResourceSubresources | undefined {
  return spec.versions.some((v) => v.subresources) ? version.subresources : spec.subresources;
}

export const hasStatusEnabled = (s: CustomResourceSubresources | undefined): boolean => s?.status !== undefined && s?.status !== null;

export function hasAnyStatusEnabled(spec: InternalSpec): boolean {
  return hasStatusEnabled(spec.subresources) || spec.versions.some((v) => hasStatusEnabled(v.subresources));
}

/** Every schema of the spec (top-level and per version). */
export function specSchemas(spec: InternalSpec): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}
