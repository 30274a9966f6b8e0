import { calculateNames } from './naming';
import type { CustomResourceDefinition } from '../../api/apiextensions';

const crd = (name: string, group: string, names: NonNullable<CustomResourceDefinition['spec']>['names'], accepted?: NonNullable<CustomResourceDefinition['status']>['acceptedNames']): CustomResourceDefinition => ({
  metadata: { name },
  spec: { group, names },
  status: accepted ? { acceptedNames: accepted } : {},
});

const widgets = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] };

describe('calculateNames (NamingConditionController)', () => {
  test('a fresh CRD gets every name, NamesAccepted True, Established False/Installing', () => {
    const r = calculateNames(crd('widgets.example.com', 'example.com', widgets), []);
    expect(r.acceptedNames).toEqual(widgets);
    expect(r.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(r.established).toEqual({ type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' });
  });

  test.each([
    ['plural', { ...widgets, plural: 'gadgets' }, 'PluralConflict', '"gadgets" is already in use'],
    ['singular taken as a plural', { ...widgets, singular: 'gadgets' }, 'SingularConflict', '"gadgets" is already in use'],
    ['kind', { ...widgets, kind: 'Gadget' }, 'KindConflict', '"Gadget" is already in use'],
    ['list kind', { ...widgets, listKind: 'GadgetList' }, 'ListKindConflict', '"GadgetList" is already in use'],
    ['short name', { ...widgets, shortNames: ['gd'] }, 'ShortNamesConflict', '"gd" is already in use'],
    ['two short names', { ...widgets, shortNames: ['gd', 'gadget'] }, 'ShortNamesConflict', '["gd" is already in use, "gadget" is already in use]'],
  ])('a %s conflict with another CRD of the group is refused', (_n, names, reason, message) => {
    const other = crd('gadgets.example.com', 'example.com', {}, { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList', shortNames: ['gd'] });
    const r = calculateNames(crd('widgets.example.com', 'example.com', names), [other]);
    expect(r.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'False', reason, message });
    expect(r.established).toEqual({ type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  });

  test('the last failing check names the reason; the accepted names keep their old values', () => {
    const other = crd('gadgets.example.com', 'example.com', {}, { plural: 'gadgets', kind: 'Gadget' });
    const r = calculateNames(crd('w.example.com', 'example.com', { plural: 'gadgets', singular: 'w', kind: 'Gadget', listKind: 'WList' }, { plural: 'ws' }), [other]);
    expect(r.namesAccepted.reason).toBe('KindConflict');
    expect(r.acceptedNames).toEqual({ plural: 'ws', singular: 'w', listKind: 'WList' });
  });

  test('other groups and the CRD itself do not conflict; an already accepted name stays', () => {
    const elsewhere = crd('widgets.other.io', 'other.io', {}, widgets);
    const self = crd('widgets.example.com', 'example.com', widgets, widgets);
    const r = calculateNames(self, [elsewhere, self]);
    expect(r.namesAccepted.status).toBe('True');
  });

  test('Established once True stays True', () => {
    const c = crd('widgets.example.com', 'example.com', widgets, widgets);
    c.status!.conditions = [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }];
    expect(calculateNames(c, []).established.status).toBe('True');
  });
});
