// ServiceAccount columns (upstream printers.go: printServiceAccount). The Secrets column is
// declared string but its cells are integers, as upstream.
import { ServiceAccountSchema, type ServiceAccount } from '../../api';
import { ageColumn, column, describe, nameColumn, type TableColumn } from '../tableColumns';

export const serviceAccountTableColumns: readonly TableColumn<ServiceAccount>[] = [
  nameColumn,
  column<ServiceAccount>('Secrets', describe(ServiceAccountSchema, ['secrets']), (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0)),
  ageColumn,
];
