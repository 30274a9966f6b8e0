// The status conditions the namespace controller keeps on a Terminating namespace, with
// upstream's types, reasons and messages (pkg/controller/namespace/deletion/status_condition_utils.go):
// each of the five types is always present — True with the failure, or False with its "ok" text.
import type { Namespace } from '../../api';

export type NamespaceCondition = NonNullable<NonNullable<Namespace['status']>['conditions']>[number];

export const namespaceConditionTypes = {
  discoveryFailure: 'NamespaceDeletionDiscoveryFailure',
  groupVersionParsingFailure: 'NamespaceDeletionGroupVersionParsingFailure',
  contentFailure: 'NamespaceDeletionContentFailure',
  contentRemaining: 'NamespaceContentRemaining',
  finalizersRemaining: 'NamespaceFinalizersRemaining',
} as const;

const T = namespaceConditionTypes;
/** Each condition in upstream's output order, with the reason and message it has when all is well. */
const conditionsWhenOk: ReadonlyArray<{ type: string; reason: string; message: string }> = [
  { type: T.discoveryFailure, reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  { type: T.groupVersionParsingFailure, reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  { type: T.contentFailure, reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  { type: T.contentRemaining, reason: 'ContentRemoved', message: 'All content successfully removed' },
  { type: T.finalizersRemaining, reason: 'ContentRemoved', message: 'All content successfully removed' },
];
const orderedTypes: readonly string[] = conditionsWhenOk.map((c) => c.type);
const whenOk = new Map(conditionsWhenOk.map((c) => [c.type, c]));

/** What is left after a deletion pass: instances per resource and per finalizer. */
export interface RemainingContent {
  /** Keyed by "<resource>.<group>" (core resources end in a dot, as upstream prints them). */
  byResource: Map<string, number>;
  byFinalizer: Map<string, number>;
}

/** metav1.Now() on the wire: RFC 3339 in whole seconds. */
export function conditionTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Collects the failures of one deletion pass, then writes them into a namespace's conditions. */
export class NamespaceConditionUpdater {
  private readonly newConditions: NamespaceCondition[] = [];
  private readonly deleteContentErrors: Error[] = [];

  constructor(private readonly now: () => number) {}

  processDiscoverResourcesErr(err: Error, failedGroups?: number): void {
    const message = failedGroups === undefined ? err.message : `Discovery failed for some groups, ${failedGroups} failing: ${err.message}`;
    this.newConditions.push(this.failed(T.discoveryFailure, 'DiscoveryFailed', message));
  }

  processGroupVersionErr(err: Error): void {
    this.newConditions.push(this.failed(T.groupVersionParsingFailure, 'GroupVersionParsingFailed', err.message));
  }

  processDeleteContentErr(err: Error): void {
    this.deleteContentErrors.push(err);
  }

  processContentTotals(remaining: RemainingContent): void {
    const byResource = [...remaining.byResource].filter(([, n]) => n > 0).map(([r, n]) => `${r} has ${n} resource instances`).sort();
    if (remaining.byResource.size) {
      this.newConditions.push(this.failed(T.contentRemaining, 'SomeResourcesRemain', `Some resources are remaining: ${byResource.join(', ')}`));
    }
    const byFinalizer = [...remaining.byFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
    if (remaining.byFinalizer.size) {
      this.newConditions.push(this.failed(T.finalizersRemaining, 'SomeFinalizerRemain', `Some finalizers are remaining: ${byFinalizer.join(', ')}`));
    }
  }

  /** Writes the conditions into `ns.status`; true when anything changed (then the status needs a PUT). */
  update(ns: Namespace): boolean {
    if (!this.newConditions.some((c) => c.type === T.contentFailure) && this.deleteContentErrors.length) {
      const msgs = this.deleteContentErrors.map((e) => e.message).sort();
      this.newConditions.push(
        this.failed(T.contentFailure, 'ContentDeletionFailed', `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`),
      );
    }
    const status = (ns.status ??= {});
    const conditions = (status.conditions ??= []);
    let changed = false;
    for (const type of orderedTypes) {
      const next = this.newConditions.find((c) => c.type === type) ?? this.succeeded(type);
      const old = conditions.find((c) => c.type === type);
      if (!old) {
        conditions.push(next);
        changed = true;
      } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
        // The transition time moves only when the status flips.
        if (old.status !== next.status) old.lastTransitionTime = conditionTime(this.now());
        old.status = next.status;
        old.reason = next.reason;
        old.message = next.message;
        changed = true;
      }
    }
    return changed;
  }

  private failed(type: string, reason: string, message: string): NamespaceCondition {
    return { type, status: 'True', lastTransitionTime: conditionTime(this.now()), reason, message };
  }

  private succeeded(type: string): NamespaceCondition {
    return { type, status: 'False', lastTransitionTime: conditionTime(this.now()), reason: whenOk.get(type)?.reason, message: whenOk.get(type)?.message };
  }
}
