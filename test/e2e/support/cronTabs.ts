// A test-only kind, installed on a running server as a custom resource will be: upstream's CRD
// example (crontabs.stable.example.com/v1, CronTab) with a schema, a strategy and Table columns.
import { defineObject, ObjectMetaSchema, s, type ApiObject, type ResourceInfo } from '../../../lib/api';
import { DefaultStrategy } from '../../../lib/registry/defaultStrategy';
import { ageColumn, column, nameColumn, type TableColumn } from '../../../lib/registry/tableColumns';

const CronTabSpecSchema = defineObject({
  name: 'com.example.stable.v1.CronTabSpec',
  description: 'The schedule and image of a CronTab.',
  fields: {
    cronSpec: s.string({ protobuf: 1, description: 'The cron schedule.' }),
    image: s.string({ protobuf: 2, description: 'The image to run.' }),
    replicas: s.int32({ protobuf: 3, description: 'How many copies run.' }),
  },
});

export const CronTabSchema = defineObject({
  name: 'com.example.stable.v1.CronTab',
  description: 'CronTab is a test-only kind installed at run time.',
  fields: {
    apiVersion: s.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
    kind: s.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
    metadata: s.object(() => ObjectMetaSchema, { protobuf: 1, alwaysEmit: true, description: "Standard object's metadata." }),
    spec: s.object(() => CronTabSpecSchema, { protobuf: 2, description: 'The schedule.' }),
  },
});

export const crontabs: ResourceInfo = {
  group: 'stable.example.com',
  version: 'v1',
  kind: 'CronTab',
  listKind: 'CronTabList',
  resource: 'crontabs',
  singular: 'crontab',
  shortNames: ['ct'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  schema: CronTabSchema,
  subresources: [],
};

interface CronTab extends ApiObject {
  spec?: { cronSpec?: string; image?: string; replicas?: number };
}

const cronTabColumns: readonly TableColumn<CronTab>[] = [
  nameColumn,
  column<CronTab>('Spec', 'The cron schedule.', (o) => o.spec?.cronSpec ?? ''),
  column<CronTab>('Replicas', 'How many copies run.', (o) => o.spec?.replicas ?? 0, { type: 'integer' }),
  ageColumn,
];

class CronTabStrategy extends DefaultStrategy<CronTab> {
  readonly resource = crontabs;
  override readonly tableColumns = cronTabColumns;
}

export const cronTabStrategy = new CronTabStrategy();
