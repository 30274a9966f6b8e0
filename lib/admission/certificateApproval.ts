// CertificateApproval: any update through certificatesigningrequests/approval needs `approve`
// on the stored object's signer (certificates.md §2).
import type { CertificateSigningRequest } from '../api';
import { errors } from '../machinery/errors';
import type { Authorizer } from '../auth/authorizer';
import type { ValidatingPlugin } from './attributes';
import { isCertificateSigningRequests } from './csrResource';
import { isAuthorizedForSignerName } from './signerAuthorization';

export function certificateApproval(authorizer: Authorizer): ValidatingPlugin {
  return (a) => {
    if (a.operation !== 'UPDATE' || a.subresource !== 'approval' || !isCertificateSigningRequests(a.resource)) return;
    const signerName = (a.old as CertificateSigningRequest | null)?.spec?.signerName ?? '';
    if (isAuthorizedForSignerName(authorizer, a.user, 'approve', signerName)) return;
    throw errors.forbidden(a.resource, a.name, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
  };
}
