// The kinds the write-body fuzz writes to: a valid object of each, rich enough that every list
// strategy (merge keys, list-map keys, sets, atomic lists) and map appears in it, and the
// endpoints (the object and its writable subresources) with their URLs.
import type { ResourceInfo } from '../../../api';
import { apiVersionOf, groups, signerNames } from '../../../api';
import { deepCopy } from '../../../machinery/deepCopy';
import type { JsonObject } from '../../../machinery/jsonValue';
import { builtinStrategies } from '../../../registry/builtin';
import { makeRequestPem } from '../../../registry/certificatesigningrequests/testing/fixtures';

export interface PatchTarget {
  info: ResourceInfo;
  /** '' for the object itself, else the subresource's name. */
  subresource: string;
  /** The endpoint's verbs (the resource's, or the subresource's). */
  verbs: readonly string[];
  /** Objects created before fuzzing; apply may create more under `spareNames`. */
  names: readonly string[];
  spareNames: readonly string[];
  collection: string;
  url(name: string): string;
  /** A valid whole object of the kind named `name` (a fresh copy each call). */
  object(name: string): JsonObject;
}

export const fuzzNamespace = 'fz';

/** Metadata every fixture carries: each kind of list and map ObjectMeta has. */
function metadata(name: string, namespaced: boolean): JsonObject {
  return {
    name,
    ...(namespaced ? { namespace: fuzzNamespace } : {}),
    labels: { app: 'fuzz', tier: name },
    annotations: { 'fuzz.example/note': 'x' },
    finalizers: ['fuzz.example/keep'],
    ownerReferences: [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-a', uid: '0b0e0e0e-0000-4000-8000-00000000000a' },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-b', uid: '0b0e0e0e-0000-4000-8000-00000000000b', controller: true },
    ],
  };
}

function bodies(csrPem: string): Record<string, (name: string) => JsonObject> {
  const rules: JsonObject[] = [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'], resourceNames: ['a'] },
    { apiGroups: [groups.coordination], resources: ['leases'], verbs: ['*'] },
  ];
  const matchResources = {
    namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['a', 'b'] }] },
    resourceRules: [{ apiGroups: ['fuzz.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nothings'] }],
  };
  return {
    Namespace: () => ({ spec: { finalizers: ['fuzz.example/ns'] } }),
    ServiceAccount: () => ({ secrets: [{ name: 's1' }, { name: 's2' }], imagePullSecrets: [{ name: 'p1' }], automountServiceAccountToken: true }),
    ConfigMap: () => ({ data: { a: '1', b: '2' }, binaryData: { c: 'AAE=' } }),
    CertificateSigningRequest: () => ({
      spec: {
        request: Buffer.from(csrPem).toString('base64'),
        signerName: signerNames.apiserverClient,
        usages: ['digital signature', 'key encipherment', 'client auth'],
        expirationSeconds: 3600,
      },
    }),
    Lease: () => ({
      spec: { holderIdentity: 'h1', leaseDurationSeconds: 15, acquireTime: '2026-01-10T08:00:00.000000Z', renewTime: '2026-01-10T08:00:01.000000Z', leaseTransitions: 1 },
    }),
    Role: () => ({ rules }),
    ClusterRole: () => ({ rules }),
    RoleBinding: () => ({
      subjects: [{ kind: 'User', apiGroup: groups.rbac, name: 'u1' }, { kind: 'ServiceAccount', name: 'sa1', namespace: fuzzNamespace }] as JsonObject[],
      roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'fuzz-role' },
    }),
    ClusterRoleBinding: () => ({
      subjects: [{ kind: 'Group', apiGroup: groups.rbac, name: 'g1' }],
      roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: 'fuzz-role' },
    }),
    // Matches nothing the fuzz sends (no resource is called this).
    ValidatingAdmissionPolicy: () => ({
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: matchResources,
        matchConditions: [{ name: 'm1', expression: 'true' }],
        variables: [{ name: 'v1', expression: '1' }],
        validations: [{ expression: 'true', message: 'ok' }],
        auditAnnotations: [{ key: 'k1', valueExpression: "'x'" }],
      },
    }),
    ValidatingAdmissionPolicyBinding: () => ({ spec: { policyName: 'fuzz-policy', validationActions: ['Deny', 'Audit'], matchResources } }),
  };
}

export function patchTargets(): PatchTarget[] {
  const extras = bodies(makeRequestPem('ec256'));
  const out: PatchTarget[] = [];
  // The served versions only (v1beta1 copies of a kind are off by default).
  for (const { resource: info } of builtinStrategies) {
    const extra = extras[info.kind];
    if (!extra || info.lifecycle) continue;
    const base = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
    const collection = info.namespaced ? `${base}/namespaces/${fuzzNamespace}/${info.resource}` : `${base}/${info.resource}`;
    const prefix = `fz-${info.singular}`;
    // A copy: mutations change bodies in place, and the fixtures share their lists.
    const object = (name: string): JsonObject => deepCopy({ apiVersion: apiVersionOf(info), kind: info.kind, metadata: metadata(name, info.namespaced), ...extra(name) });
    const endpoints = [{ name: '', verbs: info.verbs }, ...info.subresources.filter((s) => s.verbs.includes('patch') || s.verbs.includes('update'))];
    for (const { name: subresource, verbs } of endpoints) {
      out.push({
        info,
        subresource,
        verbs,
        names: [`${prefix}-0`, `${prefix}-1`, `${prefix}-2`],
        spareNames: subresource ? [] : [`${prefix}-new-0`, `${prefix}-new-1`],
        collection,
        url: (name) => `${collection}/${name}${subresource ? `/${subresource}` : ''}`,
        object,
      });
    }
  }
  return out;
}
