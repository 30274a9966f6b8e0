// The apiserver's HTTP side over the given stores, with an admin caller and allow-all
// authorization, answering requests in-process (injectRequest): for tests that send many
// requests through the whole handler path. The caller builds the stores (a memory store in unit
// tests: lib/apiserver does not import lib/etcd) and closes their storage.
import pino from 'pino';
import { FeatureGates } from '../../api/featureGates';
import { alwaysAllowAuthorizer } from '../../auth/authorizer';
import type { GenericStore } from '../../registry/store';
import { createApiServer } from '../server';
import { injectRequest, type InjectedRequest, type InjectedResponse } from './injectRequest';

export interface InProcessServer {
  request(r: InjectedRequest): Promise<InjectedResponse>;
  close(): Promise<void>;
}

export function startInProcessServer(stores: readonly GenericStore[], opts: { featureGates?: string; maxRequestBodyBytes?: number } = {}): InProcessServer {
  const api = createApiServer({
    resources: stores,
    authenticator: { authenticate: async () => ({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }) },
    authorizer: alwaysAllowAuthorizer(),
    anonymousEnabled: false,
    requestTimeoutMs: 60_000,
    features: FeatureGates.parse(opts.featureGates ?? ''),
    log: pino({ level: 'silent' }),
    maxRequestBodyBytes: opts.maxRequestBodyBytes ?? 3 * 1024 * 1024,
    serverAddress: '127.0.0.1:6443',
    storageHealth: async () => null,
  });
  return {
    request: (r) => injectRequest(api.handler, r),
    close: () => api.close(),
  };
}
