import { certificatesigningrequests, leases, namespaces, serviceaccounts } from '../../lib/api';
import { ClientApiError } from '../../lib/client';
import { availableResources } from './availableResources';

const notFound = (): ClientApiError =>
  new ClientApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });

describe('availableResources', () => {
  test('a 404 group/version has none; listed names are available; each group/version is asked once', async () => {
    const asked: string[] = [];
    const docs: Record<string, unknown> = {
      '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'namespaces' }, { name: 'namespaces/status' }] },
      '/apis/coordination.svc.io/v1': { kind: 'APIResourceList', resources: [{ name: 'leases' }] },
    };
    const got = await availableResources(async (p) => {
      asked.push(p);
      if (!(p in docs)) throw notFound();
      return docs[p];
    }, [namespaces, serviceaccounts, certificatesigningrequests, leases]);
    expect([...got].sort()).toEqual(['/v1/namespaces', '/v1/namespaces/status', 'coordination.svc.io/v1/leases']);
    expect(asked).toEqual(['/api/v1', '/apis/certificates.svc.io/v1', '/apis/coordination.svc.io/v1']);
  });

  test('other failures are not taken for "not served"', async () => {
    await expect(availableResources(async () => Promise.reject(new Error('connection refused')), [namespaces])).rejects.toThrow('connection refused');
  });
});
