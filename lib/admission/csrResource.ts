import { groups } from '../api';

export function isCertificateSigningRequests(r: { group: string; resource: string }): boolean {
  return r.group === groups.certificates && r.resource === 'certificatesigningrequests';
}
