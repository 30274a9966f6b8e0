import type { Namespace } from '../api';
import { isApiError } from '../machinery/errors';
import { namespaceLifecycle } from './namespaceLifecycle';

const namespaces: Record<string, Namespace> = {
  demo: { metadata: { name: 'demo' }, status: { phase: 'Active' } },
  going: { metadata: { name: 'going', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } },
};
// The lookup answers through a promise (a cache miss confirmed by a read) or at once (a cache hit).
const lookups = {
  'through a promise': namespaceLifecycle(async (n) => namespaces[n] ?? null),
  'at once': namespaceLifecycle((n) => namespaces[n] ?? null),
};
const sa = (ns: string): { metadata: { name: string; namespace: string } } => ({ metadata: { name: 'bot', namespace: ns } });
const resource = { group: '', resource: 'serviceaccounts' };

/** The plugin's answer: a refusal may be thrown at once or come through its promise. */
async function outcome(run: () => Promise<void> | void): Promise<unknown> {
  try {
    await run();
    return 'allowed';
  } catch (e) {
    return isApiError(e) ? { code: e.code, message: e.status.message, causes: e.status.details?.causes } : e;
  }
}

describe.each(Object.entries(lookups))('namespaceLifecycle, the namespace read %s', (_how, admit) => {
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
    expect(await outcome(() => admit({ operation, namespaced: true, resource, obj: sa(ns) }))).toEqual(want);
  });

  test('cluster-scoped objects are not checked', async () => {
    expect(await outcome(() => admit({ operation: 'CREATE', namespaced: false, resource, obj: { metadata: { name: 'x' } } }))).toBe('allowed');
  });
});
