import type { ResourceInfo } from '../api';
import { KeyLayout } from './keys';

const info = (namespaced: boolean): ResourceInfo => ({ resource: namespaced ? 'serviceaccounts' : 'certificatesigningrequests', namespaced }) as ResourceInfo;

describe('KeyLayout.identity is the inverse of object()', () => {
  test.each<[string, boolean, string, string]>([
    ['cluster-scoped', false, '', 'alice'],
    ['cluster-scoped name with dots', false, '', 'node.csr-1'],
    ['namespaced', true, 'demo', 'bot'],
    ['namespaced in a long namespace', true, 'svc-node-lease', 'node-1'],
  ])('%s', (_n, namespaced, namespace, name) => {
    const keys = new KeyLayout('/registry', info(namespaced));
    expect(keys.identity(keys.object(namespace, name))).toEqual({ namespace, name });
  });
});
