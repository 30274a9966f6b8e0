// One storage version for a kind served in two versions: a write through v1beta1 is stored as
// v1, and each store serves the object in its own version.
import { MemoryStorage } from '../../etcd/memory';
import { GenericStore } from '../store';
import type { RequestContext } from '../strategy';
import { validatingAdmissionPolicyStrategy, validatingAdmissionPolicyV1beta1Strategy } from './index';

const ctx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, namespace: '', subresource: '', dryRun: false, now: () => new Date() };

it('stores v1 whatever version the write came through, and each store types it in its own version (as the handlers do)', async () => {
  const storage = new MemoryStorage();
  const beta = new GenericStore({ storage, strategy: validatingAdmissionPolicyV1beta1Strategy, prefix: '/registry' });
  const v1 = new GenericStore({ storage, strategy: validatingAdmissionPolicyStrategy, prefix: '/registry' });
  const spec = { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }, validations: [{ expression: 'true' }] };
  const created = await beta.create(ctx, { apiVersion: 'admissionregistration.svc.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec });
  expect(created.apiVersion).toBe('admissionregistration.svc.io/v1beta1');
  const raw = await storage.get('/registry/validatingadmissionpolicies/p');
  expect(JSON.parse(Buffer.from(raw.kv!.value).toString()).apiVersion).toBe('admissionregistration.svc.io/v1');
  expect(v1.withTypeMeta(await v1.get(ctx, 'p')).apiVersion).toBe('admissionregistration.svc.io/v1');
  expect(beta.withTypeMeta(await beta.get(ctx, 'p')).apiVersion).toBe('admissionregistration.svc.io/v1beta1');
});
