import type { ObjectSchema, ResourceInfo } from '../../lib/api';
import { servedSummary } from './servedSummary';

function resource(kind: string, group: string, version: string, more: Partial<ResourceInfo> = {}): ResourceInfo {
  const plural = `${kind.toLowerCase()}s`;
  return {
    group,
    version,
    kind,
    listKind: `${kind}List`,
    resource: plural,
    singular: kind.toLowerCase(),
    shortNames: [],
    namespaced: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    schema: { type: 'object', properties: {} } as unknown as ObjectSchema,
    subresources: [],
    ...more,
  };
}

const widget = resource('Widget', 'things.example.io', 'v1', { subresources: [{ name: 'status', verbs: ['get', 'update', 'patch'] }, { name: 'scale', verbs: ['get'] }] });
const gadget = resource('Gadget', '', 'v1');
const review = resource('WidgetReview', 'things.example.io', 'v1', { verbs: ['create'] });
// A beta introduced after 1.22 is off by default; one introduced at 1.10 is past its removal.
const betaWidget = resource('Widget', 'things.example.io', 'v1beta1', { lifecycle: { introduced: { major: 1, minor: 30 } } });
const newBeta = resource('Sprocket', 'parts.example.io', 'v1beta1', { lifecycle: { introduced: { major: 1, minor: 31 } } });
const removedBeta = resource('Relic', 'old.example.io', 'v1beta1', { lifecycle: { introduced: { major: 1, minor: 10 } } });

describe('servedSummary', () => {
  const [first, second, ...rest] = servedSummary('svc-apiserver', [gadget, widget, review, betaWidget, newBeta, removedBeta]).split('\n');

  test('the first line lists the stored kinds served by default, with subresources, then the create-only ones', () => {
    expect(first).toBe('svc-apiserver serves Gadget, Widget (+status, scale), and the create-only WidgetReview (core v1 and the *.svc.io groups) from etcd.');
  });

  test('the second names the versions --runtime-config can turn on; a removed version is not among them', () => {
    expect(second).toBe('Registered but off unless --runtime-config enables them: things.example.io/v1beta1, parts.example.io/v1beta1.');
    expect(rest).toEqual([]);
  });

  test('a kind served only in a version that is off is not listed as served', () => {
    expect(first).not.toContain('Sprocket');
  });

  test('no second line when everything registered is on', () => {
    expect(servedSummary('svc-apiserver', [gadget, widget])).toBe('svc-apiserver serves Gadget, Widget (+status, scale) (core v1 and the *.svc.io groups) from etcd.');
  });
});
