// CertificateSigningRequest columns (upstream printers.go: printCertificateSigningRequest).
import { CertificateSigningRequestSchema, conditionTypes, type CertificateSigningRequest } from '../../api';
import { humanDuration } from '../../machinery/humanDuration';
import { ageColumn, column, describe, nameColumn, type TableColumn } from '../tableColumns';

/** extractCSRStatus: Denied over Approved over Pending, then ",Failed" and ",Issued". */
export function csrConditionSummary(csr: CertificateSigningRequest): string {
  // Upstream looks only at the types present, not at each condition's status.
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let out = types.has(conditionTypes.denied) ? 'Denied' : types.has(conditionTypes.approved) ? 'Approved' : 'Pending';
  if (types.has(conditionTypes.failed)) out += ',Failed';
  if (csr.status?.certificate) out += ',Issued';
  return out;
}

const spec = (field: string): string => describe(CertificateSigningRequestSchema, ['spec', field]);

export const csrTableColumns: readonly TableColumn<CertificateSigningRequest>[] = [
  nameColumn,
  ageColumn,
  column<CertificateSigningRequest>('SignerName', spec('signerName'), (o) => o.spec?.signerName || '<none>'),
  // Upstream describes Requestor with spec.request's documentation; kept as is.
  column<CertificateSigningRequest>('Requestor', spec('request'), (o) => o.spec?.username ?? ''),
  column<CertificateSigningRequest>('RequestedDuration', spec('expirationSeconds'), (o) =>
    typeof o.spec?.expirationSeconds === 'number' ? humanDuration(o.spec.expirationSeconds * 1000) : '<none>',
  ),
  column<CertificateSigningRequest>('Condition', describe(CertificateSigningRequestSchema, ['status', 'conditions']), csrConditionSummary),
];
