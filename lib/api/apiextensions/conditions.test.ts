// Upstream's SetCRDCondition semantics: lastTransitionTime moves only with the status.
import type { CustomResourceDefinition } from './customResourceDefinition';
import { crdConditionIs, crdConditionTrue, findCrdCondition, removeCrdCondition, setCrdCondition } from './conditions';

describe('CRD conditions', () => {
  it('adds, then updates in place; the transition time follows the status only', () => {
    const crd: CustomResourceDefinition = {};
    setCrdCondition(crd, { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' }, 't1');
    expect(crd.status?.conditions).toEqual([{ type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted', lastTransitionTime: 't1' }]);
    setCrdCondition(crd, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, 't2');
    expect(findCrdCondition(crd, 'Established')).toMatchObject({ reason: 'NotAccepted', lastTransitionTime: 't1' });
    setCrdCondition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, 't3');
    expect(findCrdCondition(crd, 'Established')).toMatchObject({ status: 'True', lastTransitionTime: 't3' });
    expect(crdConditionTrue(crd, 'Established')).toBe(true);
    expect(crdConditionIs(crd, 'NamesAccepted', 'False')).toBe(false);
  });

  it('an unset transition time is filled even without a status change', () => {
    const crd: CustomResourceDefinition = { status: { conditions: [{ type: 'NamesAccepted', status: 'True' }] } };
    setCrdCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, 't9');
    expect(crd.status?.conditions?.[0]).toEqual({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: 't9' });
  });

  it('removes by type', () => {
    const crd: CustomResourceDefinition = { status: { conditions: [{ type: 'A', status: 'True' }, { type: 'B', status: 'False' }] } };
    removeCrdCondition(crd, 'A');
    expect(crd.status?.conditions).toEqual([{ type: 'B', status: 'False' }]);
  });
});
