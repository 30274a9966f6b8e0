// Empties a Terminating namespace and then releases it (upstream's namespacedResourcesDeleter,
// pkg/controller/namespace/deletion/namespaced_resources_deleter.go): make sure the phase says
// Terminating, delete every namespaced resource found through discovery (deletecollection where
// served, else list + delete each), record the outcome in status conditions, and remove our
// finalizer through /finalize only once nothing is left.
import type { Namespace } from '../../api';
import { namespaceFinalizer, namespaces } from '../../api';
import type { ApiObject } from '../../api/meta';
import type { ResourceDescriptor, RestClient } from '../../client';
import { ClientApiError, isConflict, isNotFound, resourcePath } from '../../client';
import type { ControllerLog } from '../controller';
import { errorMessage, silentLog } from '../controller';
import { NamespaceConditionUpdater, RemainingContent } from './deletionConditions';
import {
  discoverNamespacedResources,
  DiscoveredResourceList,
  formatGroupVersionResource,
  GroupDiscoveryFailedError,
  GroupVersionResource,
  NamespacedResourcesDiscovery,
  parseGroupVersion,
} from './discovery';

/** The API calls the deleter makes; RestClient has them, tests use a fake. */
export type NamespaceDeleterClient = Pick<RestClient, 'get' | 'list' | 'update' | 'delete' | 'request'>;

/** Content is going away but is not gone yet; try again in about `estimateSeconds`. */
export class ResourcesRemainingError extends Error {
  constructor(readonly estimateSeconds: number) {
    super(`some content remains in the namespace, estimate ${estimateSeconds} seconds before it is removed`);
    this.name = 'ResourcesRemainingError';
  }
}

/** utilerrors.NewAggregate's text: one message alone, several (deduplicated) in brackets. */
export class AggregateSyncError extends Error {
  constructor(readonly errors: readonly Error[]) {
    const msgs = [...new Set(errors.map((e) => e.message))];
    super(msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);
    this.name = 'AggregateSyncError';
  }
}

/** Upstream's default wait for items held by finalizers (finalizerEstimateSeconds). */
export const finalizerEstimateSeconds = 15;

export interface NamespacedResourcesDeleterOptions {
  client: NamespaceDeleterClient;
  /** The spec.finalizers token this controller owns; default the product's. */
  finalizerToken?: string;
  now?: () => number;
  log?: ControllerLog;
  /** Default: discovery through `client.request('GET', path)`. */
  discover?: () => Promise<NamespacedResourcesDiscovery>;
}

type Operation = 'list' | 'deletecollection';

interface GvrTarget extends GroupVersionResource {
  verbs: ReadonlySet<string>;
}

interface GvrOutcome {
  estimate: number;
  remaining: number;
  finalizers: Map<string, number>;
  error?: Error;
}

const background = 'Background' as const;

function isMethodNotSupported(e: unknown): boolean {
  return e instanceof ClientApiError && (e.status.reason === 'MethodNotAllowed' || e.status.code === 405);
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function finalizersOf(ns: Namespace): string[] {
  return Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : [];
}

export class NamespacedResourcesDeleter {
  private readonly client: NamespaceDeleterClient;
  private readonly token: string;
  private readonly now: () => number;
  private readonly log: ControllerLog;
  private readonly discover: () => Promise<NamespacedResourcesDiscovery>;
  /** Operations the server refused (405/404) although discovery listed them; never retried. */
  private readonly notSupported = new Set<string>();

  constructor(opts: NamespacedResourcesDeleterOptions) {
    this.client = opts.client;
    this.token = opts.finalizerToken ?? namespaceFinalizer;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? silentLog;
    this.discover = opts.discover ?? (() => discoverNamespacedResources((p) => this.client.request('GET', p)));
  }

  /**
   * One pass over namespace `name`. Resolves when there is nothing (more) to do; throws
   * ResourcesRemainingError when content is still going away, any other error to be retried.
   */
  async delete(name: string, signal?: AbortSignal): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.client.get<Namespace>(namespaces, name, { signal });
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!ns.metadata?.deletionTimestamp) return;
    this.log.debug('namespace controller - syncNamespace', { namespace: name, finalizerToken: this.token });

    try {
      ns = await this.retryOnConflict(ns, (cur) => this.ensureTerminating(cur, signal), signal);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!ns.metadata?.deletionTimestamp) return;
    if (finalizersOf(ns).length === 0) return;

    const { estimate, latest } = await this.deleteAllContent(ns, signal);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);

    try {
      await this.retryOnConflict(latest, (cur) => this.finalize(cur, signal), signal);
    } catch (e) {
      // Another controller sharing the token finished first.
      if (isNotFound(e)) return;
      throw e;
    }
  }

  /** retryOnConflictError: on a Conflict re-read and retry, unless the namespace was recreated meanwhile. */
  private async retryOnConflict(ns: Namespace, fn: (ns: Namespace) => Promise<Namespace>, signal?: AbortSignal): Promise<Namespace> {
    let latest = ns;
    for (;;) {
      try {
        return await fn(latest);
      } catch (e) {
        if (!isConflict(e)) throw e;
      }
      const prevUid = latest.metadata?.uid;
      latest = await this.client.get<Namespace>(namespaces, ns.metadata?.name ?? '', { signal });
      if (prevUid !== latest.metadata?.uid) throw new Error('namespace uid has changed across retries');
    }
  }

  private async ensureTerminating(ns: Namespace, signal?: AbortSignal): Promise<Namespace> {
    if (!ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating') return ns;
    const next = structuredClone(ns);
    next.status = { ...next.status, phase: 'Terminating' };
    return this.client.update<Namespace>(namespaces, next, { subresource: 'status', signal });
  }

  /** Removes our token from spec.finalizers (the rest sorted and deduplicated, as upstream's set). */
  private async finalize(ns: Namespace, signal?: AbortSignal): Promise<Namespace> {
    const rest = [...new Set(finalizersOf(ns).filter((f) => f !== this.token))].sort();
    const body: Namespace = { ...ns, spec: { ...ns.spec, finalizers: rest } };
    return this.client.update<Namespace>(namespaces, body, { subresource: 'finalize', signal });
  }

  /** Deletes everything it can find; returns the largest wait estimate, throws the collected errors. */
  private async deleteAllContent(ns: Namespace, signal?: AbortSignal): Promise<{ estimate: number; latest: Namespace }> {
    const name = ns.metadata?.name ?? '';
    const errs: Error[] = [];
    const conditions = new NamespaceConditionUpdater(this.now);

    let lists: DiscoveredResourceList[] = [];
    try {
      const found = await this.discover();
      lists = found.lists;
      if (found.failure) {
        // Discovery errors are not fatal: delete what was discovered, but do not finalize.
        errs.push(found.failure);
        conditions.processDiscoverResourcesErr(found.failure, found.failure.groups.size);
      }
    } catch (e) {
      const err = asError(e);
      errs.push(err);
      conditions.processDiscoverResourcesErr(err, err instanceof GroupDiscoveryFailedError ? err.groups.size : undefined);
    }

    const targets: GvrTarget[] = [];
    for (const list of lists) {
      let gv: { group: string; version: string };
      try {
        gv = parseGroupVersion(list.groupVersion);
      } catch (e) {
        const err = asError(e);
        errs.push(err);
        conditions.processGroupVersionErr(err);
        continue;
      }
      for (const r of list.resources) {
        if (!r.verbs.includes('delete')) continue;
        targets.push({ ...gv, resource: r.name, verbs: new Set(r.verbs) });
      }
    }

    let estimate = 0;
    const remaining: RemainingContent = { byResource: new Map(), byFinalizer: new Map() };
    for (const gvr of targets) {
      const out = await this.deleteAllOf(gvr, name, signal);
      if (out.error) {
        errs.push(out.error);
        conditions.processDeleteContentErr(out.error);
      }
      estimate = Math.max(estimate, out.estimate);
      if (out.remaining > 0) {
        remaining.byResource.set(`${gvr.resource}.${gvr.group}`, out.remaining);
        for (const [f, n] of out.finalizers) if (n > 0) remaining.byFinalizer.set(f, (remaining.byFinalizer.get(f) ?? 0) + n);
      }
    }
    conditions.processContentTotals(remaining);

    // Always written when changed: a condition that went from failing to ok must say so.
    let latest = ns;
    if (conditions.update(ns)) {
      try {
        latest = await this.client.update<Namespace>(namespaces, ns, { subresource: 'status', signal });
      } catch (e) {
        this.log.error(`couldn't update status condition for namespace ${JSON.stringify(name)}: ${errorMessage(e)}`, { namespace: name });
      }
    }
    this.log.debug('namespace controller - deleteAllContent', { namespace: name, estimate, errors: errs.length });
    if (errs.length) throw new AggregateSyncError(errs);
    return { estimate, latest };
  }

  /** deleteAllContentForGroupVersionResource: delete, then list what is left and why. */
  private async deleteAllOf(gvr: GvrTarget, namespace: string, signal?: AbortSignal): Promise<GvrOutcome> {
    // Only pods have a graceful-termination estimate upstream; no served kind has one here.
    const estimate = 0;
    const empty = (): Map<string, number> => new Map();
    try {
      if (!(await this.deleteCollection(gvr, namespace, signal))) await this.deleteEachItem(gvr, namespace, signal);
    } catch (e) {
      return { estimate, remaining: 0, finalizers: empty(), error: asError(e) };
    }
    let left: ApiObject[] | undefined;
    try {
      left = await this.listCollection(gvr, namespace, signal);
    } catch (e) {
      return { estimate, remaining: 0, finalizers: empty(), error: asError(e) };
    }
    if (!left || left.length === 0) return { estimate, remaining: 0, finalizers: empty() };
    const finalizers = new Map<string, number>();
    for (const item of left) for (const f of item.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    if (estimate !== 0) return { estimate, remaining: left.length, finalizers };
    // Items waiting on finalizers are normal: give whoever owns them time to finish.
    if (finalizers.size) return { estimate: finalizerEstimateSeconds, remaining: left.length, finalizers };
    return {
      estimate,
      remaining: left.length,
      finalizers,
      error: new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${formatGroupVersionResource(gvr)}`),
    };
  }

  private supports(gvr: GvrTarget, op: Operation): boolean {
    return gvr.verbs.has(op) && !this.notSupported.has(`${op} ${formatGroupVersionResource(gvr)}`);
  }

  private markNotSupported(gvr: GvrTarget, op: Operation): void {
    this.notSupported.add(`${op} ${formatGroupVersionResource(gvr)}`);
  }

  private descriptor(gvr: GvrTarget): ResourceDescriptor {
    return { group: gvr.group, version: gvr.version, resource: gvr.resource, namespaced: true };
  }

  /** True when the server took the deletecollection; false when it does not serve it. */
  private async deleteCollection(gvr: GvrTarget, namespace: string, signal?: AbortSignal): Promise<boolean> {
    if (!this.supports(gvr, 'deletecollection')) return false;
    // Background propagation: the namespace controller must not wait on orphaning finalizers it adds itself.
    const body = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: background };
    try {
      await this.client.request('DELETE', resourcePath(this.descriptor(gvr), { namespace }), body, { signal });
      return true;
    } catch (e) {
      // A 404 here means the resource serves no collection verbs (kubernetes#22413).
      if (isMethodNotSupported(e) || isNotFound(e)) {
        this.markNotSupported(gvr, 'deletecollection');
        return false;
      }
      throw e;
    }
  }

  /** The items left, or undefined when the resource cannot be listed. */
  private async listCollection(gvr: GvrTarget, namespace: string, signal?: AbortSignal): Promise<ApiObject[] | undefined> {
    if (!this.supports(gvr, 'list')) return undefined;
    try {
      return (await this.client.list(this.descriptor(gvr), { namespace, signal })).items ?? [];
    } catch (e) {
      if (isMethodNotSupported(e) || isNotFound(e)) {
        this.markNotSupported(gvr, 'list');
        return undefined;
      }
      throw e;
    }
  }

  private async deleteEachItem(gvr: GvrTarget, namespace: string, signal?: AbortSignal): Promise<void> {
    const items = await this.listCollection(gvr, namespace, signal);
    for (const item of items ?? []) {
      const itemName = item.metadata?.name;
      if (!itemName) continue;
      try {
        await this.client.delete(this.descriptor(gvr), itemName, { namespace, propagationPolicy: background, signal });
      } catch (e) {
        if (!isNotFound(e) && !isMethodNotSupported(e)) throw e;
      }
    }
  }
}
