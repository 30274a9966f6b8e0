import { UnavailableError } from '../etcd/storage';
import { translateStorageError } from './storageErrors';

test('an unreachable store: upstream’s ServerTimeout Status, with the storage error behind it for the log line', () => {
  const storageErr = new UnavailableError('etcd unavailable: Connection dropped: read ECONNRESET', '/registry/namespaces/default');
  const e = translateStorageError(storageErr, { group: '', resource: 'namespaces' }, 'default', 'get');
  expect(e.status).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'The get operation against namespaces could not be completed at this time, please try again.',
    reason: 'ServerTimeout',
    details: { name: 'get', kind: 'namespaces', retryAfterSeconds: 2 },
    code: 500,
  });
  expect(e.cause).toBe(storageErr);
});
