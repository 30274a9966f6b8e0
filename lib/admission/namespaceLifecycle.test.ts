import type { Namespace } from '../api';
import { isApiError } from '../machinery/errors';
import { namespaceLifecycle } from './namespaceLifecycle';

const namespaces: Record<string, Namespace> = {
  demo: { metadata: { name: 'demo' }, status: { phase: 'Active' } },
  going: { metadata: { name: 'going', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } },
};
const admit = namespaceLifecycle(async (n) => namespaces[n] ?? null);
const sa = (ns: string): { metadata: { name: string; namespace: string } } => ({ metadata: { name: 'bot', namespace: ns } });
const resource = { group: '', resource: 'serviceaccounts' };

async function outcome(p: Promise<void>): Promise<unknown> {
  try {
    await p;
    return 'allowed';
  } catch (e) {
    return isApiError(e) ? { code: e.code, message: e.status.message, causes: e.status.details?.causes } : e;
  }
}

describe('namespaceLifecycle', () => {
  test.each([
    ['create in an active namespace', 'CREATE', 'demo', 'allowed'],
    ['update in a terminating namespace', 'UPDATE', 'going', 'allowed'],
    ['delete in a terminating namespace', 'DELETE', 'going', 'allowed'],
    ['create in a missing namespace', 'CREATE', 'nope', { code: 404, message: 'namespaces "nope" not found', causes: undefined }],
    [
      'create in a terminating namespace',
      'CREATE',
      'going',
      {
        code: 403,
        message: 'serviceaccounts "bot" is forbidden: unable to create new content in namespace going because it is being terminated',
        causes: [{ reason: 'NamespaceTerminating', message: 'namespace going is being terminated', field: 'metadata.namespace' }],
      },
    ],
  ] as const)('%s', async (_name, operation, ns, want) => {
    expect(await outcome(admit({ operation, namespaced: true, resource, obj: sa(ns) }))).toEqual(want);
  });

  test('cluster-scoped objects are not checked', async () => {
    expect(await outcome(admit({ operation: 'CREATE', namespaced: false, resource, obj: { metadata: { name: 'x' } } }))).toBe('allowed');
  });
});
