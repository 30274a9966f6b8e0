// Whether a user may act for a signer: verb `approve` or `sign` on resource `signers` in the
// certificates group, named by the signer or, failing that, by its domain wildcard `<domain>/*`
// (upstream certificates.IsAuthorizedForSignerName).
import { groups } from '../api';
import type { Authorizer } from '../auth/authorizer';
import type { UserInfo } from '../auth/user';

function allowed(authorizer: Authorizer, user: UserInfo, verb: string, name: string): boolean {
  return (
    authorizer.authorize({
      user,
      verb,
      isResourceRequest: true,
      path: '',
      namespace: '',
      apiGroup: groups.certificates,
      apiVersion: '*',
      resource: 'signers',
      subresource: '',
      name,
    }).decision === 'allow'
  );
}

export function isAuthorizedForSignerName(authorizer: Authorizer, user: UserInfo, verb: 'approve' | 'sign', signerName: string): boolean {
  if (allowed(authorizer, user, verb, signerName)) return true;
  const domain = signerName.split('/')[0];
  return allowed(authorizer, user, verb, `${domain}/*`);
}
