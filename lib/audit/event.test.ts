import type { JsonValue } from '../machinery/jsonValue';
import { auditAnnotationKeys, authorizationDecisions } from './annotations';
import type { PolicyDecision, RequestAttributes } from './checker';
import { AuditContext, AuditEvent, AuditRequest } from './event';
import { Level, loadPolicy, Stage } from './policy';
import { encodeEventLine } from './writer';

const received = new Date('2026-11-21T09:26:00.123Z');
const later = 1795253160456789n; // 2026-11-21T09:26:00.456789Z in microseconds

function resourceAttrs(over: Partial<RequestAttributes> = {}): RequestAttributes {
  return {
    user: { name: 'alice', uid: 'u-1', groups: ['dev'], extra: { 'b.svc.io/x': ['2'], 'a.svc.io/y': ['1', '0'] } },
    verb: 'create',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods',
    namespace: 'default',
    group: '',
    resource: 'pods',
    subresource: '',
    name: '',
    apiVersion: 'v1',
    ...over,
  };
}

function request(over: Partial<AuditRequest> = {}): AuditRequest {
  return {
    attributes: resourceAttrs(),
    requestURI: '/api/v1/namespaces/default/pods?fieldManager=kubectl',
    sourceIPs: ['10.0.0.1', '127.0.0.1'],
    userAgent: 'kubectl/v1.32.0',
    auditID: 'audit-1',
    receivedAt: received,
    ...over,
  };
}

const decision = (level: Level, omitStages: Stage[] = [], omitManagedFields = false): PolicyDecision => ({ level, omitStages, omitManagedFields });

const pod = (): JsonValue => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', uid: 'p-1', resourceVersion: '7', managedFields: [{ manager: 'kubectl' }] },
  spec: { containers: [{ name: 'c', image: 'i' }] },
});

describe('AuditContext at level None', () => {
  const ctx = new AuditContext(decision('None'), request({ auditID: undefined }), () => 'generated-id');

  test('emits nothing at any stage and ignores what it is given', () => {
    expect(ctx.enabled).toBe(false);
    expect(ctx.addAnnotation('k', 'v')).toBe(false);
    ctx.setRequestObject(pod());
    ctx.setResponse(200, undefined, pod());
    for (const stage of ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const) {
      expect(ctx.event(stage, later)).toBeUndefined();
    }
  });

  test('still has an audit ID for the response header', () => {
    expect(ctx.auditID).toBe('generated-id');
  });
});

describe('audit ID', () => {
  test.each<[string | undefined, string]>([
    ['from-header', 'from-header'],
    ['', 'new'],
    [undefined, 'new'],
  ])('header %j → %s', (header, want) => {
    const ctx = new AuditContext(decision('Metadata'), request({ auditID: header }), () => 'new');
    expect(ctx.auditID).toBe(want);
    expect(ctx.event('RequestReceived', later)?.auditID).toBe(want);
  });

  test('a random UUID by default', () => {
    const ctx = new AuditContext(decision('Metadata'), request({ auditID: undefined }));
    expect(ctx.auditID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('events per level', () => {
  function run(level: Level, attrs: RequestAttributes = resourceAttrs()): { received: AuditEvent; complete: AuditEvent } {
    const ctx = new AuditContext(decision(level), request({ attributes: attrs }));
    const receivedEvent = ctx.event('RequestReceived', later)!;
    ctx.setRequestObject(pod());
    ctx.setResponse(201, undefined, pod());
    return { received: receivedEvent, complete: ctx.event('ResponseComplete', later)! };
  }

  test('Metadata: the full RequestReceived line, in upstream’s field order', () => {
    expect(encodeEventLine(run('Metadata').received)).toBe(
      '{"kind":"Event","apiVersion":"audit.svc.io/v1","level":"Metadata","auditID":"audit-1","stage":"RequestReceived",' +
        '"requestURI":"/api/v1/namespaces/default/pods?fieldManager=kubectl","verb":"create",' +
        '"user":{"username":"alice","uid":"u-1","groups":["dev"],"extra":{"a.svc.io/y":["1","0"],"b.svc.io/x":["2"]}},' +
        '"sourceIPs":["10.0.0.1","127.0.0.1"],"userAgent":"kubectl/v1.32.0",' +
        '"objectRef":{"resource":"pods","namespace":"default","apiVersion":"v1"},' +
        '"requestReceivedTimestamp":"2026-11-21T09:26:00.123000Z","stageTimestamp":"2026-11-21T09:26:00.123000Z"}\n',
    );
  });

  test('Metadata: no bodies, but the body’s metadata completes objectRef; the response code is recorded', () => {
    const { complete } = run('Metadata');
    expect(complete.requestObject).toBeUndefined();
    expect(complete.responseObject).toBeUndefined();
    expect(complete.objectRef).toEqual({ resource: 'pods', namespace: 'default', name: 'web', uid: 'p-1', apiVersion: 'v1', resourceVersion: '7' });
    expect(Object.keys(complete.objectRef!)).toEqual(['resource', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion']);
    expect(complete.responseStatus).toEqual({ metadata: {}, code: 201 });
    expect(complete.stageTimestamp).toBe('2026-11-21T09:26:00.456789Z');
    expect(complete.requestReceivedTimestamp).toBe('2026-11-21T09:26:00.123000Z');
  });

  test('Request: the request body, not the response body', () => {
    const { complete } = run('Request');
    expect(complete.requestObject).toEqual(pod());
    expect(complete.responseObject).toBeUndefined();
  });

  test('RequestResponse: both bodies', () => {
    const { complete } = run('RequestResponse');
    expect(complete.requestObject).toEqual(pod());
    expect(complete.responseObject).toEqual(pod());
    expect(Object.keys(complete)).toEqual([
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestObject',
      'responseObject',
      'requestReceivedTimestamp',
      'stageTimestamp',
    ]);
  });

  test('non-resource requests: no objectRef and no bodies even at RequestResponse', () => {
    const attrs = resourceAttrs({ isResourceRequest: false, verb: 'get', path: '/metrics', namespace: '', resource: '', apiVersion: '' });
    const { complete } = run('RequestResponse', attrs);
    expect(complete.objectRef).toBeUndefined();
    expect(complete.requestObject).toBeUndefined();
    expect(complete.responseObject).toBeUndefined();
    expect(complete.responseStatus).toEqual({ metadata: {}, code: 201 });
  });

  test('subresource and group in objectRef; empty optional fields omitted', () => {
    const ctx = new AuditContext(
      decision('Metadata'),
      request({
        attributes: resourceAttrs({ group: 'certificates.svc.io', resource: 'certificatesigningrequests', subresource: 'approval', name: 'csr-1', namespace: '' }),
        sourceIPs: [],
        userAgent: '',
      }),
    );
    const ev = ctx.event('RequestReceived', later)!;
    expect(ev.objectRef).toEqual({ resource: 'certificatesigningrequests', name: 'csr-1', apiGroup: 'certificates.svc.io', apiVersion: 'v1', subresource: 'approval' });
    expect(ev).not.toHaveProperty('sourceIPs');
    expect(ev).not.toHaveProperty('userAgent');
    expect(ev).not.toHaveProperty('annotations');
    expect(ev).not.toHaveProperty('responseStatus');
  });

  test('a user with only a name', () => {
    const ctx = new AuditContext(decision('Metadata'), request({ attributes: resourceAttrs({ user: { name: 'system:anonymous', groups: [] } }) }));
    expect(ctx.event('RequestReceived', later)!.user).toEqual({ username: 'system:anonymous' });
  });

  test('a patch is recorded as sent, from level Request', () => {
    const patch = { metadata: { managedFields: null, labels: { a: 'b' } } };
    const meta = new AuditContext(decision('Metadata'), request());
    meta.setRequestPatch(patch);
    expect(meta.event('ResponseComplete', later)!.requestObject).toBeUndefined();
    const req = new AuditContext(decision('Request', [], true), request());
    req.setRequestPatch(patch);
    expect(req.event('ResponseComplete', later)!.requestObject).toEqual(patch);
  });
});

describe('response status', () => {
  test('a failure copies status, message, reason and details; the written code wins', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    const details = { name: 'web', kind: 'pods' };
    ctx.setResponse(404, { status: 'Failure', message: 'pods "web" not found', reason: 'NotFound', details, code: 500 });
    details.name = 'changed';
    const ev = ctx.event('ResponseComplete', later)!;
    expect(ev.responseStatus).toEqual({ metadata: {}, status: 'Failure', message: 'pods "web" not found', reason: 'NotFound', details: { name: 'web', kind: 'pods' }, code: 404 });
    expect(encodeEventLine(ev)).toContain(
      '"responseStatus":{"metadata":{},"status":"Failure","message":"pods \\"web\\" not found","reason":"NotFound","details":{"name":"web","kind":"pods"},"code":404}',
    );
  });

  test('RequestResponse logs the Status body as the response object', () => {
    const ctx = new AuditContext(decision('RequestResponse'), request());
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'm', reason: 'Conflict', code: 409 } as const;
    ctx.setResponse(409, status, status);
    expect(ctx.event('ResponseComplete', later)!.responseObject).toEqual(status);
  });

  test('no response recorded: upstream’s “Connection closed early” success', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    expect(ctx.event('ResponseComplete', later)!.responseStatus).toEqual({ metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 });
  });

  test('long-running: ResponseStarted then ResponseComplete with their own timestamps', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    ctx.setResponse(200);
    const started = ctx.event('ResponseStarted', new Date('2026-11-21T09:26:01Z'))!;
    const done = ctx.event('ResponseComplete', new Date('2026-11-21T09:31:01Z'))!;
    expect([started.stage, started.stageTimestamp, started.responseStatus]).toEqual(['ResponseStarted', '2026-11-21T09:26:01.000000Z', { metadata: {}, code: 200 }]);
    expect([done.stage, done.stageTimestamp]).toEqual(['ResponseComplete', '2026-11-21T09:31:01.000000Z']);
  });

  test('panic', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    ctx.setResponse(200);
    ctx.setPanic(new Error('nil map'));
    expect(ctx.event('Panic', later)!.responseStatus).toEqual({
      metadata: {},
      status: 'Failure',
      message: "APIServer panic'd: nil map",
      reason: 'InternalError',
      code: 500,
    });
  });
});

describe('stages', () => {
  test('omitted stages yield no event', () => {
    const ctx = new AuditContext(decision('Metadata', ['RequestReceived', 'ResponseStarted']), request());
    expect(ctx.emits('RequestReceived')).toBe(false);
    expect(ctx.event('RequestReceived', later)).toBeUndefined();
    expect(ctx.event('ResponseStarted', later)).toBeUndefined();
    expect(ctx.event('ResponseComplete', later)?.stage).toBe('ResponseComplete');
  });

  test('forRequest evaluates the policy', () => {
    const policy = loadPolicy('apiVersion: audit.svc.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules: [{level: Request, verbs: [create]}]');
    const ctx = AuditContext.forRequest(policy, request());
    expect([ctx.level, ctx.omitStages]).toEqual(['Request', ['RequestReceived']]);
    expect(AuditContext.forRequest(policy, request({ attributes: resourceAttrs({ verb: 'get' }) })).enabled).toBe(false);
    expect(AuditContext.forRequest(undefined, request()).enabled).toBe(false);
  });
});

describe('annotations', () => {
  test('first value wins; same value again is fine; keys written sorted', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    expect(ctx.addAnnotation(auditAnnotationKeys.authorizationReason, 'RBAC: allowed by ClusterRoleBinding "admin"')).toBe(true);
    expect(ctx.addAnnotation(auditAnnotationKeys.authorizationDecision, authorizationDecisions.allow)).toBe(true);
    expect(ctx.addAnnotation(auditAnnotationKeys.authorizationDecision, authorizationDecisions.forbid)).toBe(false);
    expect(ctx.addAnnotation(auditAnnotationKeys.authorizationDecision, authorizationDecisions.allow)).toBe(true);
    expect(ctx.addAnnotation(auditAnnotationKeys.deprecated, 'true')).toBe(true);
    const ev = ctx.event('ResponseComplete', later)!;
    expect(ev.annotations).toEqual({
      'authorization.svc.io/decision': 'allow',
      'authorization.svc.io/reason': 'RBAC: allowed by ClusterRoleBinding "admin"',
      'svc.io/deprecated': 'true',
    });
    expect(Object.keys(ev.annotations!)).toEqual(['authorization.svc.io/decision', 'authorization.svc.io/reason', 'svc.io/deprecated']);
    expect(ctx.annotation(auditAnnotationKeys.authorizationDecision)).toBe('allow');
  });

  test('a "__proto__" key is an ordinary annotation', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    ctx.addAnnotation('__proto__', 'x');
    expect(encodeEventLine(ctx.event('ResponseComplete', later)!)).toContain('"annotations":{"__proto__":"x"}');
  });
});

describe('impersonated user', () => {
  test('written after the requestor, in UserInfo’s field order; absent from events emitted before it was set', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    const before = ctx.event('RequestReceived', later)!;
    ctx.setImpersonatedUser({ name: 'bob', uid: 'u-2', groups: ['system:authenticated'], extra: { 'z.svc.io/k': ['v'], 'scopes': ['a', 'b'] } });
    ctx.setResponse(200);
    const line = encodeEventLine(ctx.event('ResponseComplete', later)!);
    expect(before).not.toHaveProperty('impersonatedUser');
    expect(line).toContain(
      '"user":{"username":"alice","uid":"u-1","groups":["dev"],"extra":{"a.svc.io/y":["1","0"],"b.svc.io/x":["2"]}},' +
        '"impersonatedUser":{"username":"bob","uid":"u-2","groups":["system:authenticated"],"extra":{"scopes":["a","b"],"z.svc.io/k":["v"]}},"sourceIPs":',
    );
  });

  test('empty parts omitted; nothing recorded at level None', () => {
    const ctx = new AuditContext(decision('Metadata'), request());
    ctx.setImpersonatedUser({ name: 'system:anonymous', groups: ['system:unauthenticated'], extra: {} });
    expect(ctx.event('ResponseComplete', later)!.impersonatedUser).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    const none = new AuditContext(decision('None'), request());
    none.setImpersonatedUser({ name: 'bob', groups: [] });
    expect(none.event('ResponseComplete', later)).toBeUndefined();
  });
});

describe('events are snapshots', () => {
  test('later changes to the context or the caller’s body do not reach an emitted event', () => {
    const ctx = new AuditContext(decision('RequestResponse'), request());
    const body = pod() as { metadata: { name: string } };
    ctx.setRequestObject(body);
    body.metadata.name = 'mutated';
    const first = ctx.event('RequestReceived', later)!;
    ctx.addAnnotation('a', 'b');
    ctx.setResponse(500);
    expect(first.annotations).toBeUndefined();
    expect(first.responseStatus).toBeUndefined();
    expect((first.requestObject as { metadata: { name: string } }).metadata.name).toBe('web');
  });
});

describe('omitManagedFields', () => {
  const list = (): JsonValue => ({
    kind: 'PodList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '9' },
    items: [
      { metadata: { name: 'a', managedFields: [{ manager: 'm' }] } },
      { metadata: { name: 'b' } },
    ],
  });
  const table = (): JsonValue => ({
    kind: 'Table',
    apiVersion: 'meta.svc.io/v1',
    rows: [{ cells: ['a'], object: { kind: 'PartialObjectMetadata', metadata: { name: 'a', managedFields: [{ manager: 'm' }] } } }],
  });

  test.each<[string, () => JsonValue, JsonValue]>([
    ['object', pod, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'p-1', resourceVersion: '7' }, spec: { containers: [{ name: 'c', image: 'i' }] } }],
    ['list items', list, { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }] }],
    ['table rows', table, { kind: 'Table', apiVersion: 'meta.svc.io/v1', rows: [{ cells: ['a'], object: { kind: 'PartialObjectMetadata', metadata: { name: 'a' } } }] }],
  ])('%s: dropped from both bodies, the caller’s value untouched', (_name, make, want) => {
    const ctx = new AuditContext(decision('RequestResponse', [], true), request());
    const body = make();
    ctx.setRequestObject(body);
    ctx.setResponse(200, undefined, body);
    const ev = ctx.event('ResponseComplete', later)!;
    expect(ev.requestObject).toEqual(want);
    expect(ev.responseObject).toEqual(want);
    expect(body).toEqual(make());
  });

  test('kept when the decision says so', () => {
    const ctx = new AuditContext(decision('RequestResponse', [], false), request());
    ctx.setResponse(200, undefined, pod());
    expect(ctx.event('ResponseComplete', later)!.responseObject).toEqual(pod());
  });
});

describe('user agent', () => {
  test.each<[string, string]>([
    ['a'.repeat(1024), 'a'.repeat(1024)],
    ['a'.repeat(1025), `${'a'.repeat(1024)}...TRUNCATED`],
  ])('length %#', (ua, want) => {
    const ctx = new AuditContext(decision('Metadata'), request({ userAgent: ua }));
    expect(ctx.event('RequestReceived', later)!.userAgent).toBe(want);
  });
});

describe('encodeEventLine', () => {
  test('Go’s escaping and one newline-terminated line', () => {
    const ctx = new AuditContext(decision('Request'), request({ requestURI: '/api/v1/pods?labelSelector=a%3Cb', userAgent: 'x<y>&z' }));
    ctx.setRequestObject({ metadata: { name: 'a' }, data: { k: 'line1\nline2 <tag>' } });
    const line = encodeEventLine(ctx.event('ResponseComplete', later)!);
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toContain('"userAgent":"x\\u003cy\\u003e\\u0026z"');
    expect(line).toContain('"requestObject":{"metadata":{"name":"a"},"data":{"k":"line1\\nline2 \\u003ctag\\u003e"}}');
    expect(JSON.parse(line)).toEqual(ctx.event('ResponseComplete', later));
  });
});
