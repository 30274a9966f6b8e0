import type { LabelSelector } from '../../api/meta';
import type { ClusterRole, PolicyRule } from '../../api/rbac';
import { aggregatedRules, labelSelectorFromWire, needsUpdate } from './aggregation';

const R = (verb: string, resource: string): PolicyRule => ({ verbs: [verb], apiGroups: [''], resources: [resource] });
const role = (name: string, labels: Record<string, string>, rules: PolicyRule[], selectors?: LabelSelector[]): ClusterRole => {
  const r: ClusterRole = { metadata: { name, labels }, rules };
  if (selectors) r.aggregationRule = { clusterRoleSelectors: selectors };
  return r;
};

describe('labelSelectorFromWire', () => {
  it.each<[string, LabelSelector, Record<string, string>, boolean]>([
    ['empty selects everything', {}, {}, true],
    ['matchLabels equality', { matchLabels: { a: 'x' } }, { a: 'x', b: 'y' }, true],
    ['matchLabels mismatch', { matchLabels: { a: 'x' } }, { a: 'y' }, false],
    ['In', { matchExpressions: [{ key: 'a', operator: 'In', values: ['y', 'x'] }] }, { a: 'x' }, true],
    ['NotIn', { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, { a: 'x' }, false],
    ['NotIn absent', { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, {}, true],
    ['Exists', { matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { a: '' }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, { a: '' }, false],
    ['both ANDed', { matchLabels: { a: 'x' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }, { a: 'x' }, false],
  ])('%s', (_name, sel, labels, want) => {
    expect(labelSelectorFromWire(sel).matches(labels)).toBe(want);
  });

  it('rejects an unknown operator with upstream text', () => {
    expect(() => labelSelectorFromWire({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toThrow('"Gt" is not a valid label selector operator');
  });
});

describe('aggregatedRules', () => {
  const agg = { 'rbac.authorization.svc.io/aggregate-to-edit': 'true' };
  const all = [
    role('zeta', agg, [R('delete', 'pods'), R('get', 'pods')]),
    role('alpha', agg, [R('get', 'pods'), R('list', 'pods')]),
    role('other', {}, [R('get', 'secrets')]),
    role('beta', { x: '1' }, [R('get', 'leases')]),
  ];

  it('unions matching roles sorted by name, deduplicated, in selector order', () => {
    const target = role('edit', agg, [], [{ matchLabels: agg }, { matchLabels: { x: '1' } }]);
    // the target carries the label itself and is skipped
    expect(aggregatedRules(target, [...all, target])).toEqual([R('get', 'pods'), R('list', 'pods'), R('delete', 'pods'), R('get', 'leases')]);
  });

  it('treats an absent list and an empty one as the same rule', () => {
    const withEmpty: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] };
    const target = role('t', {}, [], [{ matchLabels: agg }]);
    expect(aggregatedRules(target, [role('a', agg, [withEmpty]), role('b', agg, [R('get', 'pods')])])).toEqual([withEmpty]);
  });

  it('an empty selector aggregates every other role; no selectors aggregate nothing', () => {
    expect(aggregatedRules(role('t', {}, [], [{}]), all)).toHaveLength(5);
    expect(aggregatedRules(role('t', {}, [R('x', 'y')], []), all)).toEqual([]);
  });

  it('a role without aggregationRule keeps its rules', () => {
    const plain = role('p', {}, [R('get', 'pods')]);
    expect(aggregatedRules(plain, all)).toEqual([R('get', 'pods')]);
    expect(needsUpdate(plain, aggregatedRules(plain, all))).toBe(false);
  });

  it('needsUpdate compares semantically and in order', () => {
    expect(needsUpdate(role('t', {}, [R('get', 'pods')]), [R('get', 'pods')])).toBe(false);
    expect(needsUpdate({ metadata: { name: 't' } }, [])).toBe(false);
    expect(needsUpdate(role('t', {}, [R('get', 'pods')]), [{ ...R('get', 'pods'), resourceNames: [] }])).toBe(false);
    expect(needsUpdate(role('t', {}, [R('get', 'pods'), R('list', 'pods')]), [R('list', 'pods'), R('get', 'pods')])).toBe(true);
    expect(needsUpdate(role('t', {}, []), [R('get', 'pods')])).toBe(true);
  });
});
