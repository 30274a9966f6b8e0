// Printer columns as upstream's printers.go (printValidatingAdmissionPolicy and
// printValidatingAdmissionPolicyBinding). A selector paramRef is shown in label-query form
// (upstream prints the Go struct of the LabelSelector).
import type { LabelSelector, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api';
import { ageColumn, column, nameColumn, type TableColumn } from '../tableColumns';

function selectorQuery(s: LabelSelector): string {
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(`${e.key ?? ''}`);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key ?? ''}`);
  }
  return parts.join(',');
}

export const policyTableColumns: readonly TableColumn<ValidatingAdmissionPolicy>[] = [
  nameColumn,
  column<ValidatingAdmissionPolicy>('Validations', 'Validations indicates the number of validation rules defined in this configuration', (o) => (o.spec?.validations ?? []).length, { type: 'integer' }),
  column<ValidatingAdmissionPolicy>('ParamKind', 'ParamKind specifies the kind of resources used to parameterize this policy', (o) =>
    o.spec?.paramKind ? `${o.spec.paramKind.apiVersion ?? ''}/${o.spec.paramKind.kind ?? ''}` : '<unset>',
  ),
  ageColumn,
];

export const bindingTableColumns: readonly TableColumn<ValidatingAdmissionPolicyBinding>[] = [
  nameColumn,
  column<ValidatingAdmissionPolicyBinding>('PolicyName', 'PolicyName indicates the policy definition which the policy binding binded to', (o) => o.spec?.policyName ?? ''),
  column<ValidatingAdmissionPolicyBinding>('ParamRef', 'ParamRef indicates the param resource which sets the configration param', (o) => {
    const pr = o.spec?.paramRef;
    if (!pr) return '<unset>';
    // Upstream cannot tell a cluster-scoped param from here, so a name without namespace gets "*/".
    if (pr.name) return pr.namespace ? `${pr.namespace}/${pr.name}` : `*/${pr.name}`;
    return pr.selector ? selectorQuery(pr.selector) : '<unset>';
  }),
  ageColumn,
];
