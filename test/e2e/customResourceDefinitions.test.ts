// The CustomResourceDefinition object through kubectl 1.32 and the k8s naming profile: apply,
// api-resources, get (the default Table), server-side validation, the reset status. Serving the
// custom resources a CRD defines is not part of this file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, startCluster, TestCluster } from './support/apiserver';

let c: TestCluster;
beforeAll(async () => {
  c = await startCluster(['--api-naming=k8s']);
});
afterAll(async () => {
  await c?.stop();
});

async function ok(args: string[]): Promise<string> {
  const r = await c.apiserver.kubectl(args);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

const crd = (plural: string, typeOfSize: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: ${plural}
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              replicas: {type: ${typeOfSize}}
`;

describe('kubectl and CustomResourceDefinitions (k8s naming)', () => {
  test('api-resources lists them with both short names', async () => {
    expect(await ok(['api-resources'])).toMatch(/customresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1\s+false\s+CustomResourceDefinition/);
  });

  test('apply, get as a Table and as JSON with the status the server set', async () => {
    const file = join(c.dir, 'crontabs.yaml');
    writeFileSync(file, crd('crontabs', 'integer'));
    expect(await ok(['apply', '-f', file])).toContain('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
    expect(await ok(['get', 'crd'])).toMatch(/^NAME\s+CREATED AT\ncrontabs\.stable\.example\.com\s+\d{4}-\d\d-\d\dT/);
    type Crd = { spec: { names: Record<string, unknown>; conversion: unknown }; status: { acceptedNames: unknown; storedVersions: string[]; conditions?: { type: string; status: string }[] } };
    // The CRD controller accepts the names and establishes it at once.
    const obj = await eventually(async () => {
      const o = JSON.parse(await ok(['get', 'crds', 'crontabs.stable.example.com', '-o', 'json'])) as Crd;
      return o.status.conditions?.some((x) => x.type === 'Established' && x.status === 'True') && o;
    }, 10_000, 'Established');
    expect(obj.spec.names).toEqual({ plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] });
    expect(obj.spec.conversion).toEqual({ strategy: 'None' });
    expect(obj.status.acceptedNames).toEqual(obj.spec.names);
    expect(obj.status.storedVersions).toEqual(['v1']);
    // A second apply of the same file changes nothing.
    expect(await ok(['apply', '-f', file])).toContain('unchanged');
  });

  test('server-side apply creates and updates one, owning the schema fields', async () => {
    const file = join(c.dir, 'ssatabs.yaml');
    writeFileSync(file, crd('ssatabs', 'integer'));
    expect(await ok(['apply', '--server-side', '-f', file])).toContain('customresourcedefinition.apiextensions.k8s.io/ssatabs.stable.example.com serverside-applied');
    writeFileSync(file, crd('ssatabs', 'integer').replace('cronSpec: {type: string}', 'cronSpec: {type: string, maxLength: 20}'));
    expect(await ok(['apply', '--server-side', '-f', file])).toContain('serverside-applied');
    const obj = JSON.parse(await ok(['get', 'crd', 'ssatabs.stable.example.com', '-o', 'json', '--show-managed-fields'])) as {
      metadata: { generation: number; managedFields: { manager: string; fieldsV1: unknown }[] };
      spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }[] };
    };
    expect(obj.metadata.generation).toBe(2);
    expect(obj.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.cronSpec).toEqual({ type: 'string', maxLength: 20 });
    expect(JSON.stringify(obj.metadata.managedFields.find((m) => m.manager === 'kubectl')?.fieldsV1)).toContain('"f:versions":{}');
  });

  test('an invalid schema is refused with the upstream error', async () => {
    const file = join(c.dir, 'bad.yaml');
    writeFileSync(file, crd('badtabs', 'int'));
    const r = await c.apiserver.kubectl(['apply', '-f', file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'The CustomResourceDefinition "badtabs.stable.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[replicas].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"',
    );
  });
});
