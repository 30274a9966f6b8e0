// The crd phase's objects: one realistic operator CRD (a namespaced Database, as database
// operators define them: nested spec objects, list-maps keyed by name, printer columns, enum,
// pattern, minimum/maximum, maxLength and required, a status subresource) and its custom
// resources, about 1.5 KB of JSON each as the apiserver serves them.
import { groups } from '../lib/api/product';
import type { BenchKind } from './objects';

export const crdVersion = 'v1';
export const crdPlural = 'databases';
export const crdKind = 'Database';
/** The group of the CRD the phase's custom resources belong to. */
export const benchCrdGroup = 'bench.example.com';
/** Every CRD the phase installs carries it (the install timings select theirs by value). */
export const crdSetLabel = 'bench-crd-set';

export const crdName = (group: string): string => `${crdPlural}.${group}`;
export const crdsPath = `/apis/${groups.apiextensions}/v1/customresourcedefinitions`;

const str = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'string', ...extra });
const int = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'integer', ...extra });
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'object', properties, ...extra });
const quantities = obj({ cpu: str({ pattern: '^[0-9]+(\\.[0-9]+)?m?$' }), memory: str({ pattern: '^[0-9]+(Ki|Mi|Gi)?$' }) });

/** The operator CRD, in group `group`; `set` is its crdSetLabel value. */
export function databaseCrd(group: string, set: string): Record<string, unknown> {
  const spec = obj(
    {
      engine: str({ enum: ['postgres', 'mysql', 'mariadb'], description: 'Database engine.' }),
      version: str({ pattern: '^[0-9]+\\.[0-9]+(\\.[0-9]+)?$', maxLength: 16 }),
      replicas: int({ minimum: 1, maximum: 9 }),
      image: str({ maxLength: 256 }),
      storage: obj(
        { size: str({ pattern: '^[0-9]+(Mi|Gi|Ti)$' }), storageClassName: str({ maxLength: 63 }), volumeMode: str({ enum: ['Filesystem', 'Block'] }) },
        { required: ['size'] },
      ),
      resources: obj({ requests: quantities, limits: quantities }),
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        maxItems: 16,
        items: obj({ name: str({ maxLength: 15 }), port: int({ minimum: 1, maximum: 65535 }), protocol: str({ enum: ['TCP', 'UDP'] }) }, { required: ['name', 'port'] }),
      },
      users: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: obj(
          {
            name: str({ maxLength: 63 }),
            roles: { type: 'array', 'x-kubernetes-list-type': 'set', items: str({ enum: ['admin', 'readwrite', 'readonly', 'replication'] }) },
            passwordSecret: obj({ name: str({ maxLength: 253 }), key: str({ maxLength: 253 }) }, { required: ['name'] }),
          },
          { required: ['name'] },
        ),
      },
      parameters: { type: 'object', additionalProperties: str({ maxLength: 256 }) },
      backup: obj({
        schedule: str({ pattern: '^[0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+$' }),
        retentionDays: int({ minimum: 1, maximum: 365 }),
        destination: obj({ bucket: str({ maxLength: 63 }), path: str({ maxLength: 1024 }), endpoint: str({ maxLength: 253 }) }, { required: ['bucket'] }),
      }),
    },
    { required: ['engine', 'version', 'replicas', 'storage'] },
  );
  const status = obj({
    phase: str({ enum: ['Pending', 'Creating', 'Running', 'Failed'] }),
    readyReplicas: int({ minimum: 0 }),
    observedGeneration: int(),
    conditions: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      items: obj({ type: str(), status: str({ enum: ['True', 'False', 'Unknown'] }), reason: str(), message: str({ maxLength: 32768 }), lastTransitionTime: str({ format: 'date-time' }) }, { required: ['type', 'status'] }),
    },
  });
  return {
    apiVersion: `${groups.apiextensions}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(group), labels: { [crdSetLabel]: set } },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: crdPlural, singular: 'database', kind: crdKind, listKind: `${crdKind}List`, shortNames: ['db'], categories: ['bench'] },
      versions: [
        {
          name: crdVersion,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Engine', type: 'string', jsonPath: '.spec.engine' },
            { name: 'Version', type: 'string', jsonPath: '.spec.version' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: obj({ spec, status }, { required: ['spec'] }) },
        },
      ],
    },
  };
}

/**
 * A Database as an operator's user writes one (the apiserver adds metadata and managedFields:
 * about 1.5 KB served). pad > 0 adds a parameter of that many characters.
 */
export function database(name: string, pad: number): Record<string, unknown> {
  return {
    apiVersion: `${benchCrdGroup}/${crdVersion}`,
    kind: crdKind,
    metadata: { name, labels: { app: 'bench', tier: 'data', 'svc.io/owner': 'bench' } },
    spec: {
      engine: 'postgres',
      version: '16.4',
      replicas: 3,
      image: 'registry.example.com/db/postgres:16.4',
      storage: { size: '20Gi', storageClassName: 'fast-ssd' },
      resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '4Gi' } },
      ports: [
        { name: 'sql', port: 5432, protocol: 'TCP' },
        { name: 'metrics', port: 9187 },
      ],
      parameters: { max_connections: '200', shared_buffers: '256MB', ...(pad > 0 ? { comment: 'x'.repeat(pad) } : {}) },
      backup: { schedule: '0 3 * * *', retentionDays: 14 },
    },
  };
}

/** The bench CRD's custom resources as a kind the load functions drive. */
export const databases: BenchKind = {
  name: crdKind,
  collection: (ns) => `/apis/${benchCrdGroup}/${crdVersion}/namespaces/${ns}/${crdPlural}`,
  object: database,
};
