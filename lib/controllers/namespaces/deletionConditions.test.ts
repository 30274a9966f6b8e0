import type { Namespace } from '../../api';
import { conditionTime, NamespaceConditionUpdater, namespaceConditionTypes as T } from './deletionConditions';
import { GroupDiscoveryFailedError } from './discovery';

const t0 = Date.UTC(2025, 0, 1, 10, 0, 0, 789);
const terminating = (): Namespace => ({ metadata: { name: 'ns1', deletionTimestamp: '2025-01-01T09:00:00Z' }, status: { phase: 'Terminating' } });

describe('NamespaceConditionUpdater', () => {
  test('a clean pass writes all five conditions False with upstream reasons and messages', () => {
    const ns = terminating();
    expect(new NamespaceConditionUpdater(() => t0).update(ns)).toBe(true);
    expect(ns.status?.conditions).toEqual([
      { type: T.discoveryFailure, status: 'False', lastTransitionTime: '2025-01-01T10:00:00Z', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
      { type: T.groupVersionParsingFailure, status: 'False', lastTransitionTime: '2025-01-01T10:00:00Z', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
      {
        type: T.contentFailure,
        status: 'False',
        lastTransitionTime: '2025-01-01T10:00:00Z',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted, may be waiting on finalization',
      },
      { type: T.contentRemaining, status: 'False', lastTransitionTime: '2025-01-01T10:00:00Z', reason: 'ContentRemoved', message: 'All content successfully removed' },
      { type: T.finalizersRemaining, status: 'False', lastTransitionTime: '2025-01-01T10:00:00Z', reason: 'ContentRemoved', message: 'All content successfully removed' },
    ]);
    // Same outcome again: nothing to write.
    expect(new NamespaceConditionUpdater(() => t0 + 60_000).update(ns)).toBe(false);
  });

  test.each<[string, (u: NamespaceConditionUpdater) => void, string, string, string]>([
    [
      'partial discovery',
      (u) => {
        const e = new GroupDiscoveryFailedError(new Map([['example.svc.io/v1', new Error('503')]]));
        u.processDiscoverResourcesErr(e, e.groups.size);
      },
      T.discoveryFailure,
      'DiscoveryFailed',
      'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: example.svc.io/v1: 503',
    ],
    ['discovery down', (u) => u.processDiscoverResourcesErr(new Error('connection refused')), T.discoveryFailure, 'DiscoveryFailed', 'connection refused'],
    [
      'group-version parsing',
      (u) => u.processGroupVersionErr(new Error('unexpected GroupVersion string: a/b/c')),
      T.groupVersionParsingFailure,
      'GroupVersionParsingFailed',
      'unexpected GroupVersion string: a/b/c',
    ],
    [
      'content deletion errors, sorted',
      (u) => {
        u.processDeleteContentErr(new Error('zeta failed'));
        u.processDeleteContentErr(new Error('alpha failed'));
      },
      T.contentFailure,
      'ContentDeletionFailed',
      'Failed to delete all resource types, 2 remaining: alpha failed, zeta failed',
    ],
    [
      'content remaining, sorted',
      (u) =>
        u.processContentTotals({
          byResource: new Map([
            ['widgets.example.svc.io', 2],
            ['serviceaccounts.', 1],
          ]),
          byFinalizer: new Map(),
        }),
      T.contentRemaining,
      'SomeResourcesRemain',
      'Some resources are remaining: serviceaccounts. has 1 resource instances, widgets.example.svc.io has 2 resource instances',
    ],
    [
      'finalizers remaining',
      (u) => u.processContentTotals({ byResource: new Map([['widgets.example.svc.io', 3]]), byFinalizer: new Map([['example.svc.io/hold', 3]]) }),
      T.finalizersRemaining,
      'SomeFinalizerRemain',
      'Some finalizers are remaining: example.svc.io/hold in 3 resource instances',
    ],
  ])('%s', (_n, feed, type, reason, message) => {
    const ns = terminating();
    const u = new NamespaceConditionUpdater(() => t0);
    feed(u);
    expect(u.update(ns)).toBe(true);
    expect(ns.status?.conditions?.find((c) => c.type === type)).toEqual({ type, status: 'True', lastTransitionTime: '2025-01-01T10:00:00Z', reason, message });
    expect(ns.status?.conditions?.filter((c) => c.status === 'True').map((c) => c.type)).toEqual(
      type === T.finalizersRemaining ? [T.contentRemaining, T.finalizersRemaining] : [type],
    );
  });

  test('the transition time moves only when the status flips', () => {
    const ns = terminating();
    const first = new NamespaceConditionUpdater(() => t0);
    first.processDeleteContentErr(new Error('a'));
    first.update(ns);
    const second = new NamespaceConditionUpdater(() => t0 + 60_000);
    second.processDeleteContentErr(new Error('b'));
    expect(second.update(ns)).toBe(true);
    const failure = (): unknown => ns.status?.conditions?.find((c) => c.type === T.contentFailure);
    expect(failure()).toMatchObject({ status: 'True', lastTransitionTime: conditionTime(t0), message: 'Failed to delete all resource types, 1 remaining: b' });
    expect(new NamespaceConditionUpdater(() => t0 + 120_000).update(ns)).toBe(true);
    expect(failure()).toMatchObject({ status: 'False', lastTransitionTime: conditionTime(t0 + 120_000), reason: 'ContentDeleted' });
  });
});
