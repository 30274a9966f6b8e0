// An in-memory stand-in for the API server, for the namespace and serviceaccount controller
// tests: the RestClient calls they make (get, list, create, update incl. /status and /finalize,
// delete, deletecollection, discovery) with the server's rules that matter to them —
// resourceVersion conflicts, finalizers, refusing content in a terminating namespace — and
// informers fed by every change. Every call is logged; `intercept` can fail any of them.
import type { ApiList, ApiObject, Status } from '../../../api/meta';
import { namespaces, serviceaccounts } from '../../../api';
import type { InformerHandlers, ResourceDescriptor } from '../../../client';
import { ClientApiError, groupVersionPath, resourcePath } from '../../../client';
import type { InformerView } from '../../controller';

export interface FakeResource extends ResourceDescriptor {
  kind: string;
  verbs: readonly string[];
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const fakeResources = {
  namespaces: { ...namespaces, verbs: namespaces.verbs } as FakeResource,
  serviceaccounts: { ...serviceaccounts, verbs: serviceaccounts.verbs } as FakeResource,
  /** A namespaced kind in a non-core group, with every verb. */
  widgets: { group: 'example.svc.io', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, verbs: allVerbs } as FakeResource,
  /** Deletable one by one only (no deletecollection in discovery). */
  gadgets: { group: 'example.svc.io', version: 'v1', resource: 'gadgets', kind: 'Gadget', namespaced: true, verbs: ['delete', 'get', 'list'] } as FakeResource,
};

export function apiError(code: number, reason: Status['reason'], message: string, causes?: Array<{ reason: string; message: string }>): ClientApiError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (causes) status.details = { causes };
  return new ClientApiError(status);
}

/** An informer the fake API keeps current, synchronously. */
export class FakeInformer<T extends ApiObject> implements InformerView<T> {
  private readonly handlers: InformerHandlers<T>[] = [];
  private readonly store = new Map<string, T>();
  private synced: boolean;
  private readonly syncWaiters: Array<(ok: boolean) => void> = [];

  constructor(initial: readonly T[], synced = true) {
    for (const o of initial) this.store.set(keyOf(o), o);
    this.synced = synced;
  }

  addEventHandler(h: InformerHandlers<T>): void {
    this.handlers.push(h);
    if (this.synced) for (const o of this.store.values()) h.onAdd?.(o, true);
  }

  getByName(name: string, namespace?: string): T | undefined {
    return this.store.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.store.values()];
  }

  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.syncWaiters.push(resolve);
      signal?.addEventListener('abort', () => resolve(false), { once: true });
    });
  }

  /** Completes the first "list": handlers hear of every object, waiters resolve. */
  markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    for (const h of this.handlers) for (const o of this.store.values()) h.onAdd?.(o, true);
    for (const w of this.syncWaiters.splice(0)) w(true);
  }

  upsert(obj: T): void {
    const old = this.store.get(keyOf(obj));
    this.store.set(keyOf(obj), obj);
    if (!this.synced) return;
    for (const h of this.handlers) old ? h.onUpdate?.(old, obj) : h.onAdd?.(obj, false);
  }

  remove(obj: T): void {
    this.store.delete(keyOf(obj));
    if (!this.synced) return;
    for (const h of this.handlers) h.onDelete?.(obj, false);
  }
}

function keyOf(o: ApiObject): string {
  const ns = o.metadata?.namespace;
  return ns ? `${ns}/${o.metadata?.name}` : (o.metadata?.name ?? '');
}

const clone = <T>(o: T): T => structuredClone(o);

export class FakeApi {
  /** "METHOD path" of every call, in order. */
  readonly calls: string[] = [];
  /** Return an error to make a call fail (after it is logged, before it has any effect). */
  intercept?: (method: string, path: string, body: unknown) => Error | undefined;
  private readonly objects = new Map<string, { r: FakeResource; obj: ApiObject }>();
  private readonly informers = new Map<string, FakeInformer<ApiObject>[]>();
  private rv = 100;
  private uid = 0;

  constructor(readonly resources: FakeResource[] = Object.values(fakeResources)) {}

  /** Stores an object as the server would have it, without logging a call. */
  seed<T extends ApiObject>(r: FakeResource, obj: T): T {
    const stored = this.stamp(clone(obj));
    this.objects.set(this.pathOf(r, stored), { r, obj: stored });
    this.emit(r, 'upsert', stored);
    return clone(stored) as T;
  }

  /** The stored object, or undefined. */
  object<T extends ApiObject = ApiObject>(r: FakeResource, name: string, namespace?: string): T | undefined {
    const e = this.objects.get(resourcePath(r, { namespace: r.namespaced ? namespace : undefined, name }));
    return e ? (clone(e.obj) as T) : undefined;
  }

  names(r: FakeResource, namespace?: string): string[] {
    return this.all(r, namespace).map((o) => o.metadata?.name ?? '');
  }

  informer<T extends ApiObject>(r: FakeResource, synced = true): FakeInformer<T> {
    const inf = new FakeInformer<T>(this.all(r) as T[], synced);
    const k = `${r.group}/${r.resource}`;
    this.informers.set(k, [...(this.informers.get(k) ?? []), inf as unknown as FakeInformer<ApiObject>]);
    return inf;
  }

  // --- the RestClient surface -------------------------------------------------------------

  async get<T extends ApiObject = ApiObject>(r: ResourceDescriptor, name: string, o: { namespace?: string; subresource?: string } = {}): Promise<T> {
    const p = resourcePath(r, { namespace: o.namespace, name });
    this.enter('GET', p, undefined);
    const e = this.objects.get(p);
    if (!e) throw this.notFound(r, name);
    return clone(e.obj) as T;
  }

  async list<T extends ApiObject = ApiObject>(r: ResourceDescriptor, o: { namespace?: string } = {}): Promise<ApiList<T>> {
    this.enter('GET', resourcePath(r, { namespace: o.namespace }), undefined);
    const res = this.resource(r);
    if (!res.verbs.includes('list')) throw apiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    return { apiVersion: 'v1', kind: `${res.kind}List`, metadata: { resourceVersion: String(this.rv) }, items: this.all(res, o.namespace).map(clone) as T[] };
  }

  async create<T extends ApiObject = ApiObject>(r: ResourceDescriptor, body: T, o: { namespace?: string } = {}): Promise<T> {
    const res = this.resource(r);
    const namespace = o.namespace ?? body.metadata?.namespace;
    const name = body.metadata?.name ?? '';
    const p = resourcePath(res, { namespace, name });
    this.enter('POST', resourcePath(res, { namespace }), body);
    if (this.objects.has(p)) throw apiError(409, 'AlreadyExists', `${res.resource} "${name}" already exists`);
    const ns = namespace ? this.objects.get(resourcePath(fakeResources.namespaces, { name: namespace }))?.obj : undefined;
    if (res.namespaced && ns?.metadata?.deletionTimestamp) {
      throw apiError(403, 'Forbidden', `${res.resource} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, [
        { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated` },
      ]);
    }
    const stored = this.stamp(clone(body));
    if (namespace) stored.metadata = { ...stored.metadata, namespace };
    this.objects.set(p, { r: res, obj: stored });
    this.emit(res, 'upsert', stored);
    return clone(stored) as T;
  }

  async update<T extends ApiObject = ApiObject>(r: ResourceDescriptor, body: T, o: { namespace?: string; subresource?: string } = {}): Promise<T> {
    const res = this.resource(r);
    const name = body.metadata?.name ?? '';
    const p = resourcePath(res, { namespace: o.namespace ?? body.metadata?.namespace, name });
    this.enter('PUT', o.subresource ? `${p}/${o.subresource}` : p, body);
    const e = this.objects.get(p);
    if (!e) throw this.notFound(res, name);
    const rv = body.metadata?.resourceVersion;
    if (rv && rv !== e.obj.metadata?.resourceVersion) {
      throw apiError(409, 'Conflict', `Operation cannot be fulfilled on ${res.resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    const next = clone(e.obj);
    if (o.subresource === 'status') next.status = clone(body.status);
    else if (o.subresource === 'finalize') next.spec = { ...(next.spec as object), finalizers: clone((body.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) };
    else Object.assign(next, clone(body), { status: next.status, metadata: { ...next.metadata, ...clone(body.metadata) } });
    next.metadata = { ...next.metadata, resourceVersion: String(++this.rv) };
    if (this.shouldGo(res, next)) {
      this.objects.delete(p);
      this.emit(res, 'remove', next);
    } else {
      this.objects.set(p, { r: res, obj: next });
      this.emit(res, 'upsert', next);
    }
    return clone(next) as T;
  }

  async delete<T>(r: ResourceDescriptor, name: string, o: { namespace?: string } = {}): Promise<T> {
    const res = this.resource(r);
    const p = resourcePath(res, { namespace: o.namespace, name });
    this.enter('DELETE', p, undefined);
    return this.deleteAt(res, p, name) as T;
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    this.enter(method, path, body);
    if (method === 'GET') return this.discovery(path) as T;
    if (method === 'DELETE') {
      const res = this.resources.find((r) => r.namespaced && path.startsWith(`${groupVersionPath(r)}/namespaces/`) && path.endsWith(`/${r.resource}`));
      const m = /\/namespaces\/([^/]+)\//.exec(path);
      if (!res || !m) throw apiError(404, 'NotFound', 'the server could not find the requested resource');
      if (!res.verbs.includes('deletecollection')) throw apiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
      const deleted = this.all(res, m[1]).map((o) => this.deleteAt(res, resourcePath(res, { namespace: m[1], name: o.metadata?.name }), o.metadata?.name ?? ''));
      return { apiVersion: 'v1', kind: `${res.kind}List`, metadata: {}, items: deleted } as T;
    }
    throw new Error(`fake API: no route for ${method} ${path}`);
  }

  // --- internals ---------------------------------------------------------------------------

  private enter(method: string, path: string, body: unknown): void {
    this.calls.push(`${method} ${path}`);
    const err = this.intercept?.(method, path, body);
    if (err) throw err;
  }

  private discovery(path: string): unknown {
    const groups = [...new Set(this.resources.map((r) => r.group))];
    if (path === '/api') return { kind: 'APIVersions', versions: ['v1'] };
    if (path === '/apis') {
      return {
        kind: 'APIGroupList',
        groups: groups.filter((g) => g !== '').map((g) => {
          const gv = { groupVersion: `${g}/v1`, version: 'v1' };
          return { name: g, versions: [gv], preferredVersion: gv };
        }),
      };
    }
    const mine = this.resources.filter((r) => groupVersionPath(r) === path);
    if (!mine.length) throw apiError(404, 'NotFound', 'the server could not find the requested resource');
    const resources = mine.flatMap((r) => [
      { name: r.resource, namespaced: r.namespaced, kind: r.kind, verbs: [...r.verbs] },
      { name: `${r.resource}/status`, namespaced: r.namespaced, kind: r.kind, verbs: ['get', 'update'] },
    ]);
    return { kind: 'APIResourceList', groupVersion: path.replace(/^\/apis?\//, ''), resources };
  }

  private deleteAt(res: FakeResource, p: string, name: string): ApiObject {
    const e = this.objects.get(p);
    if (!e) throw this.notFound(res, name);
    if ((e.obj.metadata?.finalizers?.length ?? 0) > 0) {
      const marked = clone(e.obj);
      marked.metadata = { ...marked.metadata, deletionTimestamp: marked.metadata?.deletionTimestamp ?? '2025-01-01T00:00:00Z', resourceVersion: String(++this.rv) };
      this.objects.set(p, { r: res, obj: marked });
      this.emit(res, 'upsert', marked);
      return clone(marked);
    }
    this.objects.delete(p);
    this.emit(res, 'remove', e.obj);
    return clone(e.obj);
  }

  /** An update that leaves a deleted object without finalizers removes it (namespaces: spec.finalizers too). */
  private shouldGo(res: FakeResource, obj: ApiObject): boolean {
    if (!obj.metadata?.deletionTimestamp || (obj.metadata.finalizers?.length ?? 0) > 0) return false;
    if (res.resource === 'namespaces' && res.group === '') return ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers?.length ?? 0) === 0;
    return true;
  }

  private stamp(obj: ApiObject): ApiObject {
    obj.metadata = { uid: `uid-${++this.uid}`, creationTimestamp: '2025-01-01T00:00:00Z', ...obj.metadata, resourceVersion: String(++this.rv) };
    return obj;
  }

  private all(r: ResourceDescriptor, namespace?: string): ApiObject[] {
    return [...this.objects.values()]
      .filter((e) => e.r.group === r.group && e.r.resource === r.resource && (!namespace || e.obj.metadata?.namespace === namespace))
      .map((e) => e.obj);
  }

  private resource(r: ResourceDescriptor): FakeResource {
    const found = this.resources.find((x) => x.group === r.group && x.resource === r.resource);
    if (!found) throw apiError(404, 'NotFound', 'the server could not find the requested resource');
    return found;
  }

  private pathOf(r: FakeResource, obj: ApiObject): string {
    return resourcePath(r, { namespace: r.namespaced ? obj.metadata?.namespace : undefined, name: obj.metadata?.name });
  }

  private notFound(r: ResourceDescriptor, name: string): ClientApiError {
    return apiError(404, 'NotFound', `${r.resource} "${name}" not found`);
  }

  private emit(r: FakeResource, op: 'upsert' | 'remove', obj: ApiObject): void {
    for (const inf of this.informers.get(`${r.group}/${r.resource}`) ?? []) inf[op](clone(obj));
  }
}
