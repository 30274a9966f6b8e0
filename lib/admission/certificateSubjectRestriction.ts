// CertificateSubjectRestriction: nobody may ask the API-client signer for a system:masters
// certificate (certificates.md §2). Unparsable requests are left to validation.
import { type CertificateSigningRequest, signerNames } from '../api';
import { groupNames } from '../auth/user';
import { errors } from '../machinery/errors';
import { parseCertificateRequest } from '../signing/signer';
import type { ValidatingPlugin } from './attributes';
import { isCertificateSigningRequests } from './csrResource';

export function certificateSubjectRestriction(): ValidatingPlugin {
  return (a) => {
    if (a.operation !== 'CREATE' || a.subresource !== '' || !isCertificateSigningRequests(a.resource)) return;
    const csr = a.obj as CertificateSigningRequest;
    if (csr.spec?.signerName !== signerNames.apiserverClient) return;
    let organizations: readonly string[];
    try {
      organizations = parseCertificateRequest(Buffer.from(csr.spec.request ?? '', 'base64')).organizations;
    } catch {
      return;
    }
    if (organizations.includes(groupNames.masters)) {
      throw errors.forbidden(a.resource, a.name, `use of ${signerNames.apiserverClient} signer with ${groupNames.masters} group is not allowed`);
    }
  };
}
