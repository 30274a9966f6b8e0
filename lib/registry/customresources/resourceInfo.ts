// A served version of a CRD as a ResourceInfo: the names it was accepted under
// (status.acceptedNames, as upstream serves), its scope, verbs and subresources, stored under
// <group>/<plural> in the CRD's storage version.
import type { ObjectSchema, ResourceInfo, SubresourceInfo } from '../../api';
import { ScaleSchema, scaleKind } from '../../api/autoscaling/scale';
import { type CustomResourceDefinition, storageVersionOf } from '../../api/apiextensions';
import { compareVersionPriority } from '../../machinery/versionPriority';

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

export function customResourceInfo(crd: CustomResourceDefinition, version: string, schema: ObjectSchema): ResourceInfo {
  const names = crd.status?.acceptedNames ?? {};
  const group = crd.spec?.group ?? '';
  const plural = names.plural ?? '';
  const v = crd.spec?.versions?.find((x) => x.name === version);
  const subresources: SubresourceInfo[] = [];
  if (v?.subresources?.status) subresources.push({ name: 'status', verbs: ['get', 'patch', 'update'] });
  if (v?.subresources?.scale) subresources.push({ name: 'scale', verbs: ['get', 'patch', 'update'], kind: scaleKind, schema: ScaleSchema });
  const storage = storageVersionOf(crd);
  const warning = v?.deprecated ? (v.deprecationWarning ?? defaultDeprecationWarning(crd, version, names.kind ?? '')) : undefined;
  return {
    group,
    version,
    kind: names.kind ?? '',
    listKind: names.listKind ?? `${names.kind ?? ''}List`,
    resource: plural,
    singular: names.singular ?? '',
    shortNames: names.shortNames ?? [],
    ...(names.categories?.length ? { categories: names.categories } : {}),
    namespaced: crd.spec?.scope === 'Namespaced',
    verbs: crd.metadata?.deletionTimestamp ? verbs.filter((x) => x !== 'create' && x !== 'patch' && x !== 'update') : verbs,
    schema,
    subresources,
    ...(warning ? { deprecationWarning: warning } : {}),
    storagePath: `${group}/${plural}`,
    unstructured: true,
    ...(storage && storage !== version ? { storageVersion: storage } : {}),
  };
}

/**
 * `<group>/<version> <Kind> is deprecated`, naming the highest served version that is not
 * deprecated and sorts above this one (GA > beta > alpha) as the one to use.
 */
function defaultDeprecationWarning(crd: CustomResourceDefinition, version: string, kind: string): string {
  const group = crd.spec?.group ?? '';
  const text = `${group}/${version} ${kind} is deprecated`;
  const better = (crd.spec?.versions ?? [])
    .filter((x) => x.served && !x.deprecated && x.name && compareVersionPriority(x.name, version) < 0)
    .map((x) => x.name!)
    .sort(compareVersionPriority)[0];
  return better ? `${text}; use ${group}/${better} ${kind}` : text;
}
