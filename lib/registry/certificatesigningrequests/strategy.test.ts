import type { CertificateSigningRequest } from '../../api';
import { withSchemaMarkers } from '../schemaMarkers';
import type { RequestContext, UpdateStrategy, UserInfo } from '../strategy';
import { certificateSigningRequestStrategy as strategy } from './strategy';
import { b64, makeCertificatePem, makeRequestPem } from './testing/fixtures';

type Csr = CertificateSigningRequest;
/** The strategy as the store runs it: the requester fields are the schema's serverSet markers. */
const enforced = withSchemaMarkers(strategy);

const now = new Date('2026-01-10T08:05:00.789Z');
const nowText = '2026-01-10T08:05:00Z';

function ctx(subresource = '', user: UserInfo = { name: 'alice', groups: ['ops', 'system:authenticated'] }): RequestContext {
  return { user, namespace: '', subresource, dryRun: false, now: () => now };
}

function stored(): Csr {
  return {
    apiVersion: 'certificates.svc.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr-1', uid: 'u1', resourceVersion: '5' },
    spec: {
      request: b64(makeRequestPem('ec256')),
      signerName: 'svc.io/svc-apiserver-client',
      usages: ['digital signature', 'client auth'],
      username: 'alice',
      groups: ['ops', 'system:authenticated'],
    },
    status: {
      conditions: [
        { type: 'Approved', status: 'True', reason: 'Ok', lastUpdateTime: '2026-01-10T08:01:00Z', lastTransitionTime: '2026-01-10T08:01:00Z' },
      ],
    },
  };
}

function endpoint(name: '' | 'status' | 'approval'): UpdateStrategy<Csr> {
  return name ? strategy.subresourceStrategies[name] : strategy;
}

/** Runs an endpoint's prepare + validate on a modified copy of `old`. */
function update(name: '' | 'status' | 'approval', old: Csr, mutate: (c: Csr) => void): { obj: Csr; errs: string[] } {
  const obj = structuredClone(old);
  mutate(obj);
  const ep = endpoint(name);
  ep.prepareForUpdate(ctx(name), obj, old);
  return { obj, errs: ep.validateUpdate(ctx(name), obj, old).map((e) => `${e.field}: ${e.detail}`) };
}

describe('CSR strategy: create', () => {
  const users: [string, UserInfo, Partial<NonNullable<Csr['spec']>>][] = [
    ['name and groups', { name: 'alice', groups: ['ops', 'system:authenticated'] }, { username: 'alice', groups: ['ops', 'system:authenticated'] }],
    [
      'uid and extra',
      { name: 'bob', uid: 'u-1', groups: ['system:authenticated'], extra: { scopes: ['a', 'b'] } },
      { username: 'bob', uid: 'u-1', groups: ['system:authenticated'], extra: { scopes: ['a', 'b'] } },
    ],
    ['empty uid and extra omitted', { name: 'carol', uid: '', groups: [], extra: {} }, { username: 'carol' }],
  ];
  it.each(users)('sets the requester from the caller: %s', (_name, user, expected) => {
    const obj: Csr = {
      spec: {
        request: 'cmVx',
        signerName: 's.io/x',
        usages: ['client auth'],
        username: 'mallory',
        uid: 'forged',
        groups: ['system:masters'],
        extra: { forged: ['x'] },
      },
      status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'Y2VydA==' },
    };
    enforced.prepareForCreate(ctx('', user), obj);
    expect(obj.spec).toEqual({ request: 'cmVx', signerName: 's.io/x', usages: ['client auth'], ...expected });
    expect(obj.status).toEqual({});
  });

  it('copies user slices instead of sharing them', () => {
    const user: UserInfo = { name: 'a', groups: ['g'], extra: { k: ['v'] } };
    const obj: Csr = {};
    strategy.prepareForCreate(ctx('', user), obj);
    user.groups.push('later');
    user.extra!.k.push('later');
    expect(obj.spec).toEqual({ username: 'a', groups: ['g'], extra: { k: ['v'] } });
  });

  it('accepts a valid request after prepareForCreate', () => {
    const obj = stored();
    strategy.prepareForCreate(ctx(), obj);
    expect(strategy.validate(ctx(), obj)).toEqual([]);
  });
});

describe('CSR strategy: update endpoints', () => {
  const cert = b64(makeCertificatePem());

  it('main: spec and status are silently restored', () => {
    const old = stored();
    const { obj, errs } = update('', old, (c) => {
      c.spec!.signerName = 'other.io/x';
      c.spec!.usages = ['server auth'];
      c.status = { certificate: cert, conditions: [] };
      c.metadata!.labels = { a: 'b' };
    });
    expect(errs).toEqual([]);
    expect(obj.spec).toEqual(old.spec);
    expect(obj.status).toEqual(old.status);
    expect(obj.metadata?.labels).toEqual({ a: 'b' });
  });

  it('main: a missing stored status stays missing', () => {
    const old = stored();
    delete old.status;
    const { obj } = update('', old, (c) => {
      c.status = { certificate: cert };
    });
    expect(obj).not.toHaveProperty('status');
  });

  it('status: sets the certificate and adds Failed with server timestamps', () => {
    const old = stored();
    const { obj, errs } = update('status', old, (c) => {
      c.spec!.usages = ['server auth'];
      c.status!.certificate = cert;
      c.status!.conditions!.push({ type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'm' });
    });
    expect(errs).toEqual([]);
    expect(obj.spec).toEqual(old.spec);
    expect(obj.status?.certificate).toBe(cert);
    expect(obj.status?.conditions?.[1]).toEqual({
      type: 'Failed',
      status: 'True',
      reason: 'SignerValidationFailure',
      message: 'm',
      lastUpdateTime: nowText,
      lastTransitionTime: nowText,
    });
  });

  it('status: Approved/Denied edits are silently undone when their count is unchanged', () => {
    const old = stored();
    const { obj, errs } = update('status', old, (c) => {
      c.status!.conditions![0] = { type: 'Approved', status: 'True', reason: 'Changed' };
    });
    expect(errs).toEqual([]);
    expect(obj.status?.conditions).toEqual(old.status?.conditions);
  });

  it('status: adding or removing approval conditions is refused', () => {
    const old = stored();
    expect(update('status', old, (c) => c.status!.conditions!.push({ type: 'Denied', status: 'True' })).errs).toEqual([
      'status.conditions: Approved and Denied conditions are mutually exclusive',
      'status.conditions: updates may not add a condition of type "Denied"',
    ]);
    expect(update('status', old, (c) => (c.status!.conditions = [])).errs).toEqual([
      'status.conditions: updates may not remove a condition of type "Approved"',
    ]);
  });

  it('status: carries lastTransitionTime over from a stored condition with the same type and status', () => {
    const old = stored();
    old.status!.conditions!.push({ type: 'Failed', status: 'True', lastUpdateTime: '2026-01-10T08:02:00Z', lastTransitionTime: '2026-01-10T08:02:00Z' });
    const { obj, errs } = update('status', old, (c) => {
      c.status!.conditions![1] = { type: 'Failed', status: 'True', message: 'again' };
    });
    expect(errs).toEqual([]);
    expect(obj.status?.conditions?.[1]).toEqual({
      type: 'Failed',
      status: 'True',
      message: 'again',
      lastUpdateTime: nowText,
      lastTransitionTime: '2026-01-10T08:02:00Z',
    });
  });

  it('status: replacing an issued certificate is refused', () => {
    const old = stored();
    old.status!.certificate = cert;
    expect(update('status', old, (c) => (c.status!.certificate = b64(`x\n${makeCertificatePem()}`))).errs).toEqual([
      'status.certificate: updates may not modify existing certificate content',
    ]);
  });

  it('approval: conditions are editable, spec and certificate are restored', () => {
    const old = stored();
    old.status = {};
    const { obj, errs } = update('approval', old, (c) => {
      c.spec!.signerName = 'other.io/x';
      c.status = { certificate: cert, conditions: [{ type: 'Approved', status: 'True', reason: 'SvcctlApprove' }] };
    });
    expect(errs).toEqual([]);
    expect(obj.spec).toEqual(old.spec);
    expect(obj.status).toEqual({
      conditions: [{ type: 'Approved', status: 'True', reason: 'SvcctlApprove', lastUpdateTime: nowText, lastTransitionTime: nowText }],
    });
  });

  it('approval: an issued certificate survives a conditions-only body', () => {
    const old = stored();
    old.status!.certificate = cert;
    const { obj, errs } = update('approval', old, (c) => {
      delete c.status!.certificate;
      c.status!.conditions![0].message = 'edited';
    });
    expect(errs).toEqual([]);
    expect(obj.status?.certificate).toBe(cert);
    expect(obj.status?.conditions?.[0].message).toBe('edited');
  });

  it('approval: Approved and Denied together and removal are refused', () => {
    const old = stored();
    expect(update('approval', old, (c) => c.status!.conditions!.push({ type: 'Denied', status: 'True' })).errs).toEqual([
      'status.conditions: Approved and Denied conditions are mutually exclusive',
    ]);
    expect(update('approval', old, (c) => delete c.status!.conditions).errs).toEqual([
      'status.conditions: updates may not remove a condition of type "Approved"',
    ]);
  });

  it('leaves the stored object untouched', () => {
    const old = stored();
    const snapshot = structuredClone(old);
    for (const ep of ['', 'status', 'approval'] as const) {
      const { obj } = update(ep, old, (c) => (c.status!.conditions![0].reason = 'x'));
      obj.spec!.usages!.push('mutated');
      obj.status!.conditions![0].message = 'mutated';
    }
    expect(old).toEqual(snapshot);
  });
});

describe('CSR strategy: fixed properties', () => {
  const names: [string, boolean, string[]][] = [
    ['Any_Name.With:Chars', false, []],
    ['.', false, ["may not be '.'"]],
    ['..', false, ["may not be '..'"]],
    ['a/b', false, ["may not contain '/'"]],
    ['a%b', false, ["may not contain '%'"]],
    ['.', true, []],
  ];
  it.each(names)('validateName(%p, prefix=%p)', (name, prefix, expected) => {
    expect(strategy.validateName(name, prefix)).toEqual(expected);
  });

  it('selects on metadata.name and spec.signerName', () => {
    expect(strategy.selectableFields(stored())).toEqual({ 'metadata.name': 'csr-1', 'spec.signerName': 'svc.io/svc-apiserver-client' });
    expect(strategy.selectableFields({})).toEqual({ 'metadata.name': '', 'spec.signerName': '' });
  });

  it('is cluster-scoped, updatable without resourceVersion, and deletes with a Status', () => {
    expect(strategy.resource.namespaced).toBe(false);
    expect(strategy.resource.resource).toBe('certificatesigningrequests');
    expect(strategy.allowUnconditionalUpdate).toBe(true);
    expect(strategy.deleteReturnsObject).toBe(false);
    expect(Object.keys(strategy.subresourceStrategies).sort()).toEqual(['approval', 'status']);
  });
});
