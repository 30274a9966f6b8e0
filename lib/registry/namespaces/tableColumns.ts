// Namespace columns (upstream printers.go: printNamespace).
import type { Namespace } from '../../api';
import { ageColumn, column, nameColumn, type TableColumn } from '../tableColumns';

export const namespaceTableColumns: readonly TableColumn<Namespace>[] = [
  nameColumn,
  column<Namespace>('Status', 'The status of the namespace', (o) => o.status?.phase ?? ''),
  ageColumn,
];
