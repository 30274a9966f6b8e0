// Lease columns (upstream printers.go: printLease).
import { LeaseSchema, type Lease } from '../../api';
import { ageColumn, column, describe, nameColumn, type TableColumn } from '../tableColumns';

export const leaseTableColumns: readonly TableColumn<Lease>[] = [
  nameColumn,
  column<Lease>('Holder', describe(LeaseSchema, ['spec', 'holderIdentity']), (o) => o.spec?.holderIdentity ?? ''),
  ageColumn,
];
