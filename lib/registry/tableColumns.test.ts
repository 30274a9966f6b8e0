// Cells of every kind's columns, with upstream's printers_test.go examples where it has them.
import type { ApiObject } from '../api';
import { csrTableColumns } from './certificatesigningrequests/tableColumns';
import { configMapTableColumns } from './configmaps/tableColumns';
import { leaseTableColumns } from './leases/tableColumns';
import { namespaceTableColumns } from './namespaces/tableColumns';
import { clusterRoleBindingTableColumns, roleBindingTableColumns, roleTableColumns } from './rbac/tableColumns';
import { serviceAccountTableColumns } from './serviceaccounts/tableColumns';
import { defaultTableColumns, tableRows, type TableColumn } from './tableColumns';

const now = new Date('2026-01-10T10:00:00Z');
const created = (ago: string): { name: string; creationTimestamp: string } => ({ name: 'x', creationTimestamp: ago });
const cells = (cols: readonly TableColumn[], obj: ApiObject): unknown[] => tableRows(cols, [obj], now)[0].cells;
const names = (cols: readonly TableColumn[]): string[] => cols.map((c) => c.definition.name);

describe('column definitions', () => {
  test.each<[string, readonly TableColumn[], string[]]>([
    ['csr', csrTableColumns as readonly TableColumn[], ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']],
    ['sa', serviceAccountTableColumns as readonly TableColumn[], ['Name', 'Secrets', 'Age']],
    ['configmap', configMapTableColumns as readonly TableColumn[], ['Name', 'Data', 'Age']],
    ['ns', namespaceTableColumns as readonly TableColumn[], ['Name', 'Status', 'Age']],
    ['lease', leaseTableColumns as readonly TableColumn[], ['Name', 'Holder', 'Age']],
    ['role', roleTableColumns, ['Name', 'Created At']],
    ['rolebinding', roleBindingTableColumns as readonly TableColumn[], ['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']],
    ['clusterrolebinding', clusterRoleBindingTableColumns as readonly TableColumn[], ['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']],
    ['default', defaultTableColumns, ['Name', 'Created At']],
  ])('%s', (_kind, cols, want) => {
    expect(names(cols)).toEqual(want);
    // Every definition has all five keys; only the name column has format "name".
    for (const c of cols) {
      expect(Object.keys(c.definition).sort()).toEqual(['description', 'format', 'name', 'priority', 'type']);
      expect(c.definition.format).toBe(c.definition.name === 'Name' ? 'name' : '');
      expect(c.definition.description).not.toBe('');
    }
  });

  test('wide columns of bindings have priority 1, Created At is a date', () => {
    expect(roleBindingTableColumns.map((c) => c.definition.priority)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(roleTableColumns[1].definition.type).toBe('date');
    expect(clusterRoleBindingTableColumns[3].definition.description).toBe('Users in the clusterRoleBinding');
  });
});

describe('cells', () => {
  test.each<[string, readonly TableColumn[], ApiObject, unknown[]]>([
    ['configmap counts data and binaryData keys', configMapTableColumns as readonly TableColumn[], { metadata: created('2026-01-10T09:59:00Z'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }, ['x', 3, '60s']],
    ['configmap with no data', configMapTableColumns as readonly TableColumn[], { metadata: created('2026-01-10T09:59:00Z') }, ['x', 0, '60s']],
    [
      'csr pending, no duration',
      csrTableColumns as readonly TableColumn[],
      { metadata: created('2026-01-10T09:54:48Z'), spec: { signerName: 'svc.io/svc-apiserver-client', username: 'alice' } },
      ['x', '5m12s', 'svc.io/svc-apiserver-client', 'alice', '<none>', 'Pending'],
    ],
    [
      'csr approved and issued, 600 s',
      csrTableColumns as readonly TableColumn[],
      { metadata: created('2026-01-09T10:00:00Z'), spec: { signerName: 's/x', username: 'bob', expirationSeconds: 600 }, status: { conditions: [{ type: 'Approved' }], certificate: 'Y2VydA==' } },
      ['x', '24h', 's/x', 'bob', '10m', 'Approved,Issued'],
    ],
    [
      'csr denied beats approved; failed; 86400 s; no signer',
      csrTableColumns as readonly TableColumn[],
      { metadata: created('2026-01-10T10:00:00Z'), spec: { expirationSeconds: 86400 }, status: { conditions: [{ type: 'Approved' }, { type: 'Denied' }, { type: 'Failed' }] } },
      ['x', '0s', '<none>', '', '24h', 'Denied,Failed'],
    ],
    ['csr approved, failed', csrTableColumns as readonly TableColumn[], { metadata: { name: 'y' }, status: { conditions: [{ type: 'Failed' }, { type: 'Approved' }] } }, ['y', '<unknown>', '<none>', '', '<none>', 'Approved,Failed']],
    ['sa with two secrets', serviceAccountTableColumns as readonly TableColumn[], { metadata: created('2026-01-07T06:00:00Z'), secrets: [{ name: 'a' }, { name: 'b' }] }, ['x', 2, '3d4h']],
    ['sa without secrets', serviceAccountTableColumns as readonly TableColumn[], { metadata: created('2026-01-10T09:58:25Z') }, ['x', 0, '95s']],
    ['ns terminating', namespaceTableColumns as readonly TableColumn[], { metadata: created('2026-01-10T02:55:00Z'), status: { phase: 'Terminating' } }, ['x', 'Terminating', '7h5m']],
    ['lease held (740 days, 2024 a leap year)', leaseTableColumns as readonly TableColumn[], { metadata: created('2024-01-01T10:00:00Z'), spec: { holderIdentity: 'cm-1' } }, ['x', 'cm-1', '2y10d']],
    ['lease free', leaseTableColumns as readonly TableColumn[], { metadata: created('2026-01-10T09:00:00Z'), spec: {} }, ['x', '', '60m']],
    ['role', roleTableColumns, { metadata: created('2026-01-10T08:00:00.000Z') }, ['x', '2026-01-10T08:00:00Z']],
    ['default table', defaultTableColumns, { metadata: created('2025-12-31T23:59:59Z') }, ['x', '2025-12-31T23:59:59Z']],
    [
      'rolebinding with every subject kind',
      roleBindingTableColumns as readonly TableColumn[],
      {
        metadata: created('2026-01-10T09:00:00Z'),
        roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'User', name: 'alice' },
          { kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', namespace: 'ns1', name: 'bot' },
          { kind: 'User', name: 'bob' },
          { kind: 'ServiceAccount', namespace: 'ns2', name: 'b2' },
        ],
      },
      ['x', 'ClusterRole/view', '60m', 'alice, bob', 'devs', 'ns1/bot, ns2/b2'],
    ],
    ['clusterrolebinding without subjects', clusterRoleBindingTableColumns as readonly TableColumn[], { metadata: created('2026-01-10T09:00:00Z'), roleRef: { kind: 'ClusterRole', name: 'admin' } }, ['x', 'ClusterRole/admin', '60m', '', '', '']],
  ])('%s', (_name, cols, obj, want) => {
    expect(cells(cols, obj)).toEqual(want);
  });
});
