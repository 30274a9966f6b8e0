// Test identities as a real user would hold them: client certificates signed by the cluster CA
// (CN = user, O = groups), and bearer tokens sent without any certificate.
import { join } from 'node:path';
import type { ApiServerProcess, RequestOptions } from './apiserver';
import { makeCsr, signWithCa } from './openssl';

export interface ClientCert {
  cert: string;
  key: string;
}

/** A client certificate for `name` in `groups`, signed by the server's generated cluster CA. */
export function makeUserCert(server: ApiServerProcess, name: string, groups: readonly string[] = []): ClientCert {
  const subject = `/CN=${name}${groups.map((g) => `/O=${g}`).join('')}`;
  const made = makeCsr('ecdsa', subject);
  const cert = signWithCa(made.csrPem, join(server.dir, 'pki', 'ca.crt'), server.caKeyPath);
  return { cert, key: made.keyPem };
}

/** Request options that present only a bearer token (no client certificate). */
export function asBearer(token: string): RequestOptions {
  return { anonymous: true, headers: { Authorization: `Bearer ${token}` } };
}

/** Who sends a request in a test table: a certificate, a token, the admin, or nobody. */
export type Caller = { cert: ClientCert } | { token: string } | 'admin' | 'anonymous';

export function callerOptions(who: Caller): RequestOptions {
  if (who === 'admin') return {};
  if (who === 'anonymous') return { anonymous: true };
  if ('token' in who) return asBearer(who.token);
  return { cert: who.cert };
}
