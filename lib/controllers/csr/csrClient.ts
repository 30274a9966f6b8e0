// The slice of the API the CSR controllers use, and the CSR informer they share.
import { certificatesigningrequests, type CertificateSigningRequest } from '../../api';
import { Informer, type Clock, type RestClient } from '../../client';

/** Calls the CSR controllers make (RestClient satisfies it; tests pass an in-memory fake). */
export type CsrApiClient = Pick<RestClient, 'get' | 'create' | 'update' | 'delete'>;

/** What building a CSR informer needs. */
export type CsrListWatchClient = Pick<RestClient, 'listWatch'>;

/** `certificatesigningrequests` in certificates.svc.io/v1, cluster-scoped. */
export const csrResource = certificatesigningrequests;

export interface CsrInformerOptions {
  clock?: Clock;
  onError?: (err: unknown) => void;
}

/** An informer over every CSR; one can be shared by all three controllers (as upstream's informer factory does). */
export function newCsrInformer(client: CsrListWatchClient, opts: CsrInformerOptions = {}): Informer<CertificateSigningRequest> {
  return new Informer<CertificateSigningRequest>({
    listWatch: client.listWatch<CertificateSigningRequest>(csrResource),
    clock: opts.clock,
    onError: opts.onError,
  });
}
