// RBAC at the server: the policy index fed from the four RBAC stores' watch caches (so that no
// request reads etcd to authorize), the bootstrap policy reconciled at start, and ClusterRole
// aggregation kept current (upstream runs the latter in the controller manager; here the
// apiserver does it so aggregated roles work without one).
import type { Logger } from 'pino';
import type { ApiObject, ClusterRole, ClusterRoleBinding } from '../../lib/api';
import { groups } from '../../lib/api';
import {
  aggregatedRules,
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  needsUpdate,
  PolicyIndex,
  reconcileClusterRole,
  reconcileClusterRoleBinding,
  type PolicyResource,
} from '../../lib/auth/rbac';
import { isApiError } from '../../lib/machinery/errors';
import { followStore, type Follower } from '../../lib/registry/follow';
import type { AdmissionOptions, GenericStore } from '../../lib/registry/store';
import { systemContext } from '../../lib/registry/stores';

const policyResources: readonly PolicyResource[] = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'];

export interface RbacPolicy {
  index: PolicyIndex;
  /** Resolves once all four resources were loaded. */
  synced: Promise<void>;
  /** Creates or updates the bootstrap roles and bindings (a post-start hook). */
  reconcileBootstrap(): Promise<void>;
  stop(): void;
}

function storeFor(stores: readonly GenericStore[], resource: string): GenericStore {
  const s = stores.find((x) => x.resource.group === groups.rbac && x.resource.resource === resource);
  if (!s) throw new Error(`${resource}.${groups.rbac} is not served`);
  return s;
}

/**
 * Feeds `index` (which the authorizer already reads) from the stores. Its writes (aggregation,
 * bootstrap) are admitted with `writes`, as upstream's go through the loopback client.
 */
export function startRbacPolicy(stores: readonly GenericStore[], index: PolicyIndex, writes: AdmissionOptions, log: Logger): RbacPolicy {
  const clusterRoles = storeFor(stores, 'clusterroles');
  const clusterRoleBindings = storeFor(stores, 'clusterrolebindings');
  let aggregationTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  // Aggregated roles are recomputed shortly after any ClusterRole changes (one pass for a burst).
  const scheduleAggregation = (): void => {
    if (stopped || aggregationTimer || !index.ready.clusterroles) return;
    aggregationTimer = setTimeout(() => {
      aggregationTimer = undefined;
      void aggregate().catch((err: Error) => log.warn({ err: err.message }, 'clusterrole aggregation failed'));
    }, 50);
  };
  const aggregate = async (): Promise<void> => {
    for (const role of [...index.clusterRoles()]) {
      if (!role.aggregationRule) continue;
      const rules = aggregatedRules(role, index.clusterRoles());
      if (!needsUpdate(role, rules)) continue;
      const name = role.metadata?.name ?? '';
      await clusterRoles.update(systemContext(), name, (cur) => ({ ...(cur as ClusterRole), rules }), writes).catch((err: unknown) => {
        if (!(isApiError(err) && (err.code === 404 || err.code === 409))) throw err;
      });
    }
  };

  const followers: Follower[] = policyResources.map((resource) =>
    followStore(storeFor(stores, resource), {
      replace: (objects: ApiObject[]) => {
        index.replace(resource, objects as never[]);
        if (resource === 'clusterroles') scheduleAggregation();
      },
      upsert: (obj: ApiObject) => {
        index.upsert(resource, obj as never);
        if (resource === 'clusterroles') scheduleAggregation();
      },
      remove: (obj: ApiObject) => {
        index.remove(resource, obj as never);
        if (resource === 'clusterroles') scheduleAggregation();
      },
      onError: (err) => log.warn({ resource, err: err.message }, 'rbac policy watch failed; retrying'),
    }),
  );

  return {
    index,
    synced: Promise.all(followers.map((f) => f.synced)).then(() => undefined),
    async reconcileBootstrap() {
      const ctx = systemContext();
      // Several replicas may reconcile at once: a conflict re-reads and tries again.
      for (const desired of bootstrapClusterRoles()) {
        const name = desired.metadata?.name ?? '';
        await withConflictRetry(async () => {
          const existing = (await clusterRoles.get(ctx, name).catch(notFoundAsUndefined)) as ClusterRole | undefined;
          const r = reconcileClusterRole(existing, desired);
          if (r.action === 'create') await clusterRoles.create(ctx, r.object, writes);
          else if (r.action === 'update') await clusterRoles.update(ctx, name, () => r.object, writes);
        });
      }
      for (const desired of bootstrapClusterRoleBindings()) {
        const name = desired.metadata?.name ?? '';
        await withConflictRetry(async () => {
          const existing = (await clusterRoleBindings.get(ctx, name).catch(notFoundAsUndefined)) as ClusterRoleBinding | undefined;
          const r = reconcileClusterRoleBinding(existing, desired);
          if (r.action === 'create') await clusterRoleBindings.create(ctx, r.object, writes);
          else if (r.action === 'update') await clusterRoleBindings.update(ctx, name, () => r.object, writes);
          else if (r.action === 'recreate') {
            await clusterRoleBindings.delete(ctx, name, { preconditions: { uid: existing?.metadata?.uid } }, writes);
            await clusterRoleBindings.create(ctx, r.object, writes);
          }
        });
      }
      log.info({ clusterRoles: bootstrapClusterRoles().length, clusterRoleBindings: bootstrapClusterRoleBindings().length }, 'reconciled the bootstrap RBAC policy');
    },
    stop() {
      stopped = true;
      if (aggregationTimer) clearTimeout(aggregationTimer);
      for (const f of followers) f.stop();
    },
  };
}

function notFoundAsUndefined(err: unknown): undefined {
  if (isApiError(err) && err.code === 404) return undefined;
  throw err;
}

/** 409 (AlreadyExists or Conflict: another replica wrote first) re-runs the step on fresh state. */
async function withConflictRetry(step: () => Promise<void>, attempts = 5): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await step();
      return;
    } catch (err) {
      if (!(isApiError(err) && err.code === 409) || i >= attempts) throw err;
    }
  }
}
