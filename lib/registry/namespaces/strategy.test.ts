import type { Namespace } from '../../api';
import { ApiError } from '../../machinery/errors';
import { fieldErrorBody } from '../../machinery/fieldErrors';
import type { RequestContext, UpdateStrategy } from '../strategy';
import { namespaceStrategy as strategy } from './strategy';

const now = new Date('2026-01-10T08:05:00.500Z');
const ctx = (subresource = ''): RequestContext => ({ user: { name: 'admin', groups: [] }, namespace: '', subresource, dryRun: false, now: () => now });

function stored(extra: Partial<Namespace> = {}): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'team-a', uid: 'u1' },
    spec: { finalizers: ['svc'] },
    status: { phase: 'Active' },
    ...extra,
  };
}

const rendered = (errs: ReturnType<typeof strategy.validate>): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

function update(name: '' | 'status' | 'finalize', old: Namespace, mutate: (n: Namespace) => void): { obj: Namespace; errs: string[] } {
  const obj = structuredClone(old);
  mutate(obj);
  const ep: UpdateStrategy<Namespace> = name ? strategy.subresourceStrategies[name] : strategy;
  strategy.applyDefaults?.(obj);
  ep.prepareForUpdate(ctx(name), obj, old);
  return { obj, errs: rendered(ep.validateUpdate(ctx(name), obj, old)) };
}

const qualifiedMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('Namespace strategy: create', () => {
  const cases: [string, Namespace['spec'], Namespace['status'], Namespace['spec'], Namespace['status']][] = [
    ['no spec', undefined, undefined, { finalizers: ['svc'] }, { phase: 'Active' }],
    ['other finalizers keep their order', { finalizers: ['example.com/x'] }, undefined, { finalizers: ['example.com/x', 'svc'] }, { phase: 'Active' }],
    ['svc finalizer already present', { finalizers: ['svc', 'example.com/x'] }, undefined, { finalizers: ['svc', 'example.com/x'] }, { phase: 'Active' }],
    ['client status is dropped', undefined, { phase: 'Terminating', conditions: [{ type: 'X', status: 'True' }] }, { finalizers: ['svc'] }, { phase: 'Active' }],
  ];
  it.each(cases)('%s', (_name, spec, status, wantSpec, wantStatus) => {
    const obj: Namespace = { metadata: { name: 'n' }, spec, status };
    strategy.applyDefaults?.(obj);
    strategy.prepareForCreate(ctx(), obj);
    expect(obj.spec).toEqual(wantSpec);
    expect(obj.status).toEqual(wantStatus);
    expect(strategy.validate(ctx(), obj)).toEqual([]);
  });

  const finalizers: [string, string[], string[]][] = [
    ['standard names', ['svc', 'orphan', 'foregroundDeletion'], []],
    ['qualified name', ['example.com/cleanup'], []],
    ['unqualified unknown name', ['cleanup'], ['spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified']],
    [
      'invalid qualified name (reported at the unindexed path)',
      ['ok.io/x', 'example.com/-bad'],
      [`spec.finalizers: Invalid value: "example.com/-bad": ${qualifiedMsg}`],
    ],
  ];
  it.each(finalizers)('finalizers: %s', (_name, list, expected) => {
    expect(rendered(strategy.validate(ctx(), { metadata: { name: 'n' }, spec: { finalizers: list } }))).toEqual(expected);
  });

  const names: [string, string[]][] = [
    ['team-a', []],
    ['Team', ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['a.b', ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ];
  it.each(names)('validateName(%p) is a DNS label', (name, expected) => {
    expect(strategy.validateName(name, false)).toEqual(expected);
  });
});

describe('Namespace strategy: update endpoints', () => {
  it('main: spec.finalizers and status are kept from the stored object', () => {
    const { obj, errs } = update('', stored(), (n) => {
      n.spec = { finalizers: [] };
      n.status = { phase: 'Terminating' };
      n.metadata!.labels = { a: 'b' };
    });
    expect(errs).toEqual([]);
    expect(obj.spec).toEqual({ finalizers: ['svc'] });
    expect(obj.status).toEqual({ phase: 'Active' });
    expect(obj.metadata?.labels).toEqual({ a: 'b', 'svc.io/metadata.name': 'team-a' });
  });

  it('status: spec is kept, conditions are editable', () => {
    const { obj, errs } = update('status', stored(), (n) => {
      n.spec = { finalizers: [] };
      n.status!.conditions = [{ type: 'NamespaceContentRemaining', status: 'False' }];
    });
    expect(errs).toEqual([]);
    expect(obj.spec).toEqual({ finalizers: ['svc'] });
    expect(obj.status?.conditions).toHaveLength(1);
  });

  const phases: [string, string | undefined, string | undefined, string[]][] = [
    ['Active without deletionTimestamp', undefined, 'Active', []],
    ['missing phase defaults to Active', undefined, undefined, []],
    ['Terminating without deletionTimestamp', undefined, 'Terminating', ['status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty']],
    ['Terminating while deleting', '2026-01-10T08:00:00Z', 'Terminating', []],
    ['Active while deleting', '2026-01-10T08:00:00Z', 'Active', ['status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty']],
  ];
  it.each(phases)('status phase: %s', (_name, deletionTimestamp, phase, expected) => {
    const old = stored();
    if (deletionTimestamp) old.metadata!.deletionTimestamp = deletionTimestamp;
    expect(update('status', old, (n) => (n.status = phase ? { phase } : {})).errs).toEqual(expected);
  });

  it('finalize: only spec.finalizers changes', () => {
    const { obj, errs } = update('finalize', stored(), (n) => {
      n.spec = { finalizers: [] };
      n.status = { phase: 'Terminating' };
    });
    expect(errs).toEqual([]);
    expect(obj.spec).toEqual({ finalizers: [] });
    expect(obj.status).toEqual({ phase: 'Active' });
  });

  it('finalize: finalizer names are validated at indexed paths', () => {
    expect(update('finalize', stored(), (n) => (n.spec = { finalizers: ['svc', 'cleanup'] })).errs).toEqual([
      'spec.finalizers[1]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });
});

describe('Namespace strategy: delete', () => {
  const call = (ns: Namespace): Namespace | null | ApiError => {
    try {
      return strategy.beforeDelete!(ctx(), ns);
    } catch (e) {
      return e as ApiError;
    }
  };

  it('first DELETE marks the namespace Terminating', () => {
    const ns = stored();
    const marked = call(ns) as Namespace;
    expect(marked.metadata?.deletionTimestamp).toBe('2026-01-10T08:05:00Z');
    expect(marked.status?.phase).toBe('Terminating');
    expect(marked.spec).toEqual({ finalizers: ['svc'] });
    expect(ns).toEqual(stored());
  });

  it('first DELETE marks even a namespace without spec finalizers (the controller removes it)', () => {
    const marked = call(stored({ spec: {} })) as Namespace;
    expect(marked.status?.phase).toBe('Terminating');
  });

  it('a later DELETE while finalizers remain is a conflict', () => {
    const err = call(stored({ metadata: { name: 'team-a', deletionTimestamp: '2026-01-10T08:00:00Z' }, status: { phase: 'Terminating' } }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Operation cannot be fulfilled on namespaces "team-a": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
      reason: 'Conflict',
      details: { name: 'team-a', kind: 'namespaces' },
      code: 409,
    });
  });

  it('a later DELETE after finalization goes the generic way', () => {
    expect(call(stored({ metadata: { name: 'team-a', deletionTimestamp: '2026-01-10T08:00:00Z' }, spec: { finalizers: [] } }))).toBeNull();
  });

  it.each(['default', 'svc-system', 'svc-public'])('refuses to delete %s', (name) => {
    const err = call(stored({ metadata: { name } })) as ApiError;
    expect(err.code).toBe(403);
    expect(err.status.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
  });

  const pending: [string, Namespace, boolean][] = [
    ['with spec finalizers', stored(), true],
    ['with an empty list', stored({ spec: { finalizers: [] } }), false],
    ['without spec', stored({ spec: undefined }), false],
  ];
  it.each(pending)('hasPendingFinalizers %s', (_name, ns, expected) => {
    expect(strategy.hasPendingFinalizers?.(ns)).toBe(expected);
  });
});

describe('Namespace strategy: fixed properties', () => {
  it('selects on metadata.name and status.phase', () => {
    expect(strategy.selectableFields(stored())).toEqual({ 'metadata.name': 'team-a', 'status.phase': 'Active' });
  });
  it('is cluster-scoped and returns the object on DELETE', () => {
    expect(strategy.resource.namespaced).toBe(false);
    expect(strategy.deleteReturnsObject).toBe(true);
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(Object.keys(strategy.subresourceStrategies).sort()).toEqual(['finalize', 'status']);
  });
});

describe('Namespace strategy: the svc.io/metadata.name label (upstream kubernetes.io/metadata.name)', () => {
  test('set on create beside the client labels', () => {
    const obj: Namespace = { metadata: { name: 'n', labels: { team: 'blue' } } };
    strategy.prepareForCreate(ctx(), obj);
    expect(obj.metadata?.labels).toEqual({ team: 'blue', 'svc.io/metadata.name': 'n' });
  });
  test.each<['' | 'status' | 'finalize', Record<string, string> | undefined]>([
    ['', undefined],
    ['', { 'svc.io/metadata.name': 'other' }],
    ['status', {}],
    ['finalize', { 'svc.io/metadata.name': '' }],
  ])('restored on update through %p when the body has %p', (endpoint, bodyLabels) => {
    const old = stored({ metadata: { name: 'team-a', uid: 'u1', labels: { 'svc.io/metadata.name': 'team-a' } } });
    const { obj } = update(endpoint, old, (n) => {
      n.metadata!.labels = bodyLabels;
    });
    expect(obj.metadata?.labels?.['svc.io/metadata.name']).toBe('team-a');
  });
});
