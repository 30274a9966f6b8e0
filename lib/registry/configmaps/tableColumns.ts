// ConfigMap columns (upstream printers.go: printConfigMap): Data counts the keys of data and
// binaryData together.
import { ConfigMapSchema, type ConfigMap } from '../../api';
import { ageColumn, column, describe, nameColumn, type TableColumn } from '../tableColumns';

export const configMapTableColumns: readonly TableColumn<ConfigMap>[] = [
  nameColumn,
  column<ConfigMap>('Data', describe(ConfigMapSchema, ['data']), (o) => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length),
  ageColumn,
];
