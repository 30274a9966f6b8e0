// CertificateSigning: an update through certificatesigningrequests/status that changes
// status.certificate or status.conditions needs `sign` on the stored object's signer.
import type { CertificateSigningRequest } from '../api';
import { errors } from '../machinery/errors';
import { deepEqual } from '../machinery/deepEqual';
import type { Authorizer } from '../auth/authorizer';
import type { ValidatingPlugin } from './attributes';
import { isCertificateSigningRequests } from './csrResource';
import { isAuthorizedForSignerName } from './signerAuthorization';

export function certificateSigning(authorizer: Authorizer): ValidatingPlugin {
  return (a) => {
    if (a.operation !== 'UPDATE' || a.subresource !== 'status' || !isCertificateSigningRequests(a.resource)) return;
    const csr = a.obj as CertificateSigningRequest;
    const old = a.old as CertificateSigningRequest | null;
    const unchanged =
      (old?.status?.certificate ?? '') === (csr.status?.certificate ?? '') && deepEqual(old?.status?.conditions ?? [], csr.status?.conditions ?? []);
    if (unchanged) return;
    const signerName = old?.spec?.signerName ?? '';
    if (isAuthorizedForSignerName(authorizer, a.user, 'sign', signerName)) return;
    throw errors.forbidden(a.resource, a.name, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
  };
}
