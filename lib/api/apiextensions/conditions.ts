// CRD status conditions as upstream's apihelpers (SetCRDCondition, FindCRDCondition,
// IsCRDConditionTrue…), for the registry and the controllers that write them.
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from './customResourceDefinition';

export const crdConditionTypes = { established: 'Established', namesAccepted: 'NamesAccepted', terminating: 'Terminating', nonStructuralSchema: 'NonStructuralSchema', apiApproval: 'KubernetesAPIApprovalPolicyConformant' } as const;

export function findCrdCondition(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return (crd.status?.conditions ?? []).find((c) => c.type === type);
}

/** Present and exactly this status (upstream's IsCRDConditionPresentAndEqual). */
export function crdConditionIs(crd: CustomResourceDefinition, type: string, status: 'True' | 'False' | 'Unknown'): boolean {
  return findCrdCondition(crd, type)?.status === status;
}

export const crdConditionTrue = (crd: CustomResourceDefinition, type: string): boolean => crdConditionIs(crd, type, 'True');

/**
 * Upstream's SetCRDCondition: adds the condition or overwrites status, reason and message of the
 * existing one; lastTransitionTime (`now`, RFC 3339) changes only with the status or when unset.
 * Returns whether anything changed (a controller skips a write that changes nothing).
 */
export function setCrdCondition(crd: CustomResourceDefinition, condition: CustomResourceDefinitionCondition, now: string): boolean {
  const conditions = ((crd.status ??= {}).conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ ...condition, lastTransitionTime: now });
    return true;
  }
  const changed = existing.status !== condition.status || existing.reason !== condition.reason || existing.message !== condition.message || !existing.lastTransitionTime;
  if (existing.status !== condition.status || !existing.lastTransitionTime) existing.lastTransitionTime = now;
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
  return changed;
}

export function removeCrdCondition(crd: CustomResourceDefinition, type: string): void {
  if (crd.status?.conditions) crd.status.conditions = crd.status.conditions.filter((c) => c.type !== type);
}
