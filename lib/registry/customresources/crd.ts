// What the custom-resource machinery reads of a CustomResourceDefinition: its names, versions and
// conditions (apihelpers.go upstream). The CRD kind's own schema and validation live in
// lib/api/apiextensions and lib/registry/customresourcedefinitions; this is the reading side.
import type { ApiObject } from '../../api';

export interface CrdNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface CrdCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
  subresources?: { status?: Record<string, never>; scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string } };
  additionalPrinterColumns?: { name?: string; type?: string; format?: string; description?: string; priority?: number; jsonPath?: string }[];
  selectableFields?: { jsonPath?: string }[];
}

export interface Crd extends ApiObject {
  spec?: {
    group?: string;
    names?: CrdNames;
    scope?: string;
    versions?: CrdVersion[];
    conversion?: { strategy?: string };
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: CrdCondition[];
    acceptedNames?: CrdNames;
    storedVersions?: string[];
  };
}

/** The finalizer that keeps a deleted CRD until its custom resources are gone. */
export const crdCleanupFinalizer = (apiextensionsGroup: string): string => `customresourcecleanup.${apiextensionsGroup}`;

export function conditionOf(crd: Crd, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: Crd, type: string): boolean {
  return conditionOf(crd, type)?.status === 'True';
}

export function storageVersionOf(crd: Crd): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}

/**
 * Sets a condition as upstream's SetCRDCondition: lastTransitionTime moves only when the status
 * changes. Returns whether anything changed.
 */
export function setCondition(crd: Crd, next: CrdCondition, now: string): boolean {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) {
    conditions.push({ ...next, lastTransitionTime: now });
    return true;
  }
  const cur = conditions[i];
  if (cur.status === next.status && cur.reason === next.reason && cur.message === next.message) return false;
  conditions[i] = { ...next, lastTransitionTime: cur.status === next.status ? cur.lastTransitionTime : now };
  return true;
}
