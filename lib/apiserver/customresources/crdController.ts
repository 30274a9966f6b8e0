// Serves CustomResourceDefinitions: every replica follows the CRDs (from the watch cache), and for
// each one accepts its names (NamesAccepted), establishes it (Established), installs a store and
// watch cache per served version into the resource registry — from then on routing, discovery,
// OpenAPI and metrics include it — and reinstalls it when the CRD changes. A deleted CRD is
// Terminating: its custom resources are deleted, then the cleanup finalizer is removed and the
// resource leaves the registry (its watches end cleanly). Upstream runs these as the naming,
// establishing, finalizer and discovery controllers; every replica runs them here too, and their
// status writes are idempotent (computed from the stored object, retried on conflict).
import type { Logger } from 'pino';
import type { ApiObject } from '../../api';
import { isApiError } from '../../machinery/errors';
import { calculateNames, namesEqual } from '../../registry/customresources/naming';
import { followStore, type Follower } from '../../registry/follow';
import { everything } from '../../registry/predicate';
import { listObjects } from '../../registry/list';
import type { GenericStore } from '../../registry/store';
import { systemContext } from '../../registry/stores';
import type { Strategy } from '../../registry/strategy';
import type { ResourceRegistry } from '../resourceRegistry';
import { type CustomResourceDefinition, type CustomResourceDefinitionCondition, crdConditionTrue, findCrdCondition, setCrdCondition, storageVersionOf } from '../../api/apiextensions';

export interface CustomResourceControllerOptions {
  registry: ResourceRegistry;
  /** The CRDs' own store (customresourcedefinitions). */
  crdStore: GenericStore;
  /** The strategy serving one version of a CRD (its schema, status and scale, columns). */
  strategyFor(crd: CustomResourceDefinition, version: string, opts: { terminating: boolean }): Strategy;
  /** customresourcecleanup.<apiextensions group>. */
  cleanupFinalizer: string;
  log?: Logger;
  now?: () => Date;
  /** How often the finalizer looks again for custom resources left (upstream: 5 s, up to 1 min). */
  cleanupPollMs?: number;
}

interface Served {
  /** What the installed strategies were built from: a change reinstalls. */
  fingerprint: string;
  versions: { group: string; version: string; resource: string }[];
}

const timeText = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export class CustomResourceController {
  private readonly crds = new Map<string, CustomResourceDefinition>();
  private readonly served = new Map<string, Served>();
  private follower: Follower | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  private stopped = false;
  private readonly cleanupPollMs: number;

  constructor(private readonly opts: CustomResourceControllerOptions) {
    this.cleanupPollMs = opts.cleanupPollMs ?? 5000;
  }

  /** Follows the CRDs; resolves once every CRD that existed is served (or refused). */
  async start(): Promise<void> {
    this.follower = followStore(this.opts.crdStore, {
      replace: (objects) => {
        this.crds.clear();
        for (const o of objects) this.crds.set(o.metadata?.name ?? '', o as CustomResourceDefinition);
        this.schedule();
      },
      upsert: (o) => {
        this.crds.set(o.metadata?.name ?? '', o as CustomResourceDefinition);
        this.schedule();
      },
      remove: (o) => {
        this.crds.delete(o.metadata?.name ?? '');
        this.schedule();
      },
      onError: (err) => this.opts.log?.warn({ err: err.message }, 'following CustomResourceDefinitions failed; retrying'),
    });
    await this.follower.synced;
    await this.idle();
  }

  /** Resolves when every change seen so far has been acted on. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.follower?.stop();
    await this.idle();
  }

  private schedule(): void {
    this.dirty = true;
    if (this.running || this.stopped) return;
    this.running = (async () => {
      try {
        while (this.dirty && !this.stopped) {
          this.dirty = false;
          await this.syncAll();
        }
      } finally {
        this.running = undefined;
      }
    })();
  }

  private async syncAll(): Promise<void> {
    // Serving first: a CRD whose names are accepted is served before its next status write.
    for (const name of [...this.served.keys()]) if (!this.crds.has(name)) await this.unserve(name);
    for (const crd of [...this.crds.values()]) {
      try {
        await this.sync(crd);
      } catch (err) {
        this.opts.log?.warn({ crd: crd.metadata?.name, err: (err as Error).message }, 'CustomResourceDefinition not synced; retrying on its next change');
      }
    }
  }

  private async sync(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata?.name ?? '';
    if (crd.metadata?.deletionTimestamp) {
      await this.serve(crd);
      if (crd.metadata.finalizers?.includes(this.opts.cleanupFinalizer)) await this.finalize(crd);
      return;
    }
    const naming = calculateNames(crd, [...this.crds.values()]);
    const statusWanted = (c: CustomResourceDefinition): boolean => {
      const now = timeText(this.now());
      let changed = !namesEqual(naming.acceptedNames, c.status?.acceptedNames);
      (c.status ??= {}).acceptedNames = naming.acceptedNames;
      changed = setCrdCondition(c, naming.namesAccepted, now) || changed;
      changed = setCrdCondition(c, naming.established, now) || changed;
      // The establishing step: accepted names make it Established, once and for good.
      if (findCrdCondition(c, 'NamesAccepted')?.status === 'True' && !crdConditionTrue(c, 'Established')) {
        changed = setCrdCondition(c, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now) || changed;
      }
      return changed;
    };
    const probe = structuredClone(crd);
    if (statusWanted(probe)) {
      const written = await this.updateStatus(name, statusWanted);
      if (written) {
        this.crds.set(name, written);
        crd = written;
      }
    }
    await this.serve(crd);
  }

  /** Installs (or reinstalls, or removes) the served versions of a CRD as its spec and status say. */
  private async serve(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata?.name ?? '';
    const servable = crdConditionTrue(crd, 'NamesAccepted') || crdConditionTrue(crd, 'Established');
    const terminating = !!crd.metadata?.deletionTimestamp;
    const versions = servable ? (crd.spec?.versions ?? []).filter((v) => v.served && v.name).map((v) => v.name!) : [];
    const fingerprint = JSON.stringify({ spec: crd.spec, names: crd.status?.acceptedNames, terminating });
    const current = this.served.get(name);
    if (current?.fingerprint === fingerprint) return;
    if (current) await this.unserve(name);
    if (!versions.length) return;
    const group = crd.spec?.group ?? '';
    const plural = crd.status?.acceptedNames?.plural ?? '';
    const installed: Served = { fingerprint, versions: [] };
    this.served.set(name, installed);
    for (const version of versions) {
      if (this.opts.registry.lookup(group, version, plural)) {
        this.opts.log?.warn({ crd: name, group, version, resource: plural }, 'a served resource already has these names: the CRD version is not served');
        continue;
      }
      this.opts.registry.install(this.opts.strategyFor(crd, version, { terminating }), { served: true });
      installed.versions.push({ group, version, resource: plural });
    }
    this.opts.log?.info({ crd: name, versions: installed.versions.map((v) => v.version) }, 'custom resource served');
  }

  private async unserve(name: string): Promise<void> {
    const s = this.served.get(name);
    if (!s) return;
    this.served.delete(name);
    for (const v of s.versions) await this.opts.registry.remove(v);
    this.opts.log?.info({ crd: name }, 'custom resource no longer served');
  }

  /** The finalizer: every custom resource deleted, then the finalizer removed (the store then deletes the CRD). */
  private async finalize(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata?.name ?? '';
    const condition = (c: CustomResourceDefinitionCondition): Promise<CustomResourceDefinition | undefined> => this.updateStatus(name, (cur) => setCrdCondition(cur, c, timeText(this.now())));
    let final: CustomResourceDefinitionCondition;
    if (!crdConditionTrue(crd, 'Established')) {
      final = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    } else {
      await condition({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
      const store = this.storageStore(crd);
      final = store ? await this.deleteInstances(store, condition) : { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
      if (final.status === 'True') {
        await condition(final);
        return;
      }
    }
    await this.updateStatus(name, (cur) => {
      setCrdCondition(cur, final, timeText(this.now()));
      const m = (cur.metadata ??= {});
      m.finalizers = (m.finalizers ?? []).filter((f) => f !== this.opts.cleanupFinalizer);
      return true;
    });
  }

  /** The served store of the CRD's storage version (any served version reads the same keys). */
  private storageStore(crd: CustomResourceDefinition): GenericStore | undefined {
    const served = this.served.get(crd.metadata?.name ?? '');
    const storage = storageVersionOf(crd);
    const pick = served?.versions.find((v) => v.version === storage) ?? served?.versions[0];
    return pick ? this.opts.registry.lookup(pick.group, pick.version, pick.resource)?.store : undefined;
  }

  private async deleteInstances(store: GenericStore, condition: (c: CustomResourceDefinitionCondition) => Promise<unknown>): Promise<CustomResourceDefinitionCondition> {
    const failed = (reason: string, message: string): CustomResourceDefinitionCondition => ({ type: 'Terminating', status: 'True', reason, message });
    let items: ApiObject[];
    try {
      items = (await listObjects(store, { namespace: '', source: { kind: 'latest' }, limit: 0, predicate: everything })).items as ApiObject[];
    } catch (err) {
      return failed('InstanceDeletionFailed', `could not list instances: ${(err as Error).message}`);
    }
    const errors: string[] = [];
    for (const item of items) {
      const ns = item.metadata?.namespace ?? '';
      try {
        await store.delete(systemContext(ns), item.metadata?.name ?? '');
      } catch (err) {
        if (!(isApiError(err) && err.code === 404)) errors.push((err as Error).message);
      }
    }
    if (errors.length) return failed('InstanceDeletionFailed', `could not issue all deletes: ${errors.join(', ')}`);
    // Objects with finalizers of their own go when those are removed: wait up to a minute.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const left = (await listObjects(store, { namespace: '', source: { kind: 'latest' }, limit: 0, predicate: everything })).items.length;
      if (left === 0) return { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
      if (Date.now() > deadline || this.stopped) return failed('InstanceDeletionCheck', `could not confirm zero CustomResources remaining: ${left} remaining`);
      await condition(failed('InstanceDeletionInProgress', 'CustomResource deletion is in progress'));
      await new Promise((r) => setTimeout(r, this.cleanupPollMs));
    }
  }

  /**
   * A status write computed from the stored CRD (mutate returns whether it changed anything):
   * retried on conflict, skipped when nothing changes, undefined when the CRD is gone.
   */
  private async updateStatus(name: string, mutate: (crd: CustomResourceDefinition) => boolean): Promise<CustomResourceDefinition | undefined> {
    try {
      const { obj } = await this.opts.crdStore.update(
        { ...systemContext(), subresource: 'status' },
        name,
        (current) => {
          const next = structuredClone(current ?? {}) as CustomResourceDefinition;
          mutate(next);
          return next;
        },
        { retryOnConflict: true },
      );
      return obj as CustomResourceDefinition;
    } catch (err) {
      if (isApiError(err) && err.code === 404) return undefined;
      throw err;
    }
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }
}

