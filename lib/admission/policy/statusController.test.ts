import type { ValidatingAdmissionPolicy } from '../../api';
import { defineObject, s } from '../../api/schema';
import { PolicyStatusController } from './statusController';
import type { KindResolver } from './typeChecking';

const Deployment = defineObject({ name: 'Deployment', fields: { foo: s.string() } });
const resolver: KindResolver = {
  kindFor: (g, v, r) => (g === 'apps' && v === 'v1' && r === 'deployments' ? { group: 'apps', version: 'v1', kind: 'Deployment' } : undefined),
  schemaFor: (gvk) => (gvk.kind === 'Deployment' ? Deployment : undefined),
};

function policy(generation: number, expression: string, observedGeneration?: number): ValidatingAdmissionPolicy {
  return {
    metadata: { name: 'p', generation },
    spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] }, validations: [{ expression }] },
    status: observedGeneration === undefined ? {} : { observedGeneration },
  } as ValidatingAdmissionPolicy;
}

describe('PolicyStatusController', () => {
  it('writes warnings and observedGeneration for a newer generation, nothing for an observed one', async () => {
    const writes: unknown[] = [];
    const c = new PolicyStatusController({ resolver, writeStatus: async (name, generation, status) => void writes.push({ name, generation, status }) });
    c.observe(policy(1, 'object.bar == 1'));
    await c.idle();
    c.observe(policy(1, 'object.bar == 1', 1));
    c.observe(policy(2, "object.foo == 'x'", 1));
    await c.idle();
    expect(writes).toEqual([
      {
        name: 'p',
        generation: 1,
        status: {
          observedGeneration: 1,
          typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'bar'\n | object.bar == 1\n | ......^\n" }] },
        },
      },
      { name: 'p', generation: 2, status: { observedGeneration: 2, typeChecking: {} } },
    ]);
    c.stop();
  });

  it('retries a failed write', async () => {
    let attempts = 0;
    const errors: string[] = [];
    const c = new PolicyStatusController({
      resolver,
      retryDelayMs: 1,
      onError: (_n, e) => errors.push(e.message),
      writeStatus: async () => {
        if (++attempts === 1) throw new Error('conflict');
      },
    });
    c.observe(policy(1, 'true'));
    await c.idle();
    await new Promise((r) => setTimeout(r, 20));
    await c.idle();
    expect(attempts).toBe(2);
    expect(errors).toEqual(['conflict']);
    c.stop();
  });
});
