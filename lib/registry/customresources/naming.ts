// The names a CRD may be served under (upstream's NamingConditionController): each requested
// name is accepted when it is already this CRD's or no other CRD of the group has accepted it;
// otherwise the old accepted value stays and NamesAccepted is False with the last conflict's
// reason. Established starts False and becomes True only through the establishing step.
import { type CustomResourceDefinition, type CustomResourceDefinitionCondition, type CustomResourceDefinitionNames, findCrdCondition } from '../../api/apiextensions';

export interface NamingResult {
  acceptedNames: CustomResourceDefinitionNames;
  namesAccepted: CustomResourceDefinitionCondition;
  established: CustomResourceDefinitionCondition;
}

/** The names other CRDs of the same group have accepted (their status, not their spec). */
function claimedNames(crd: CustomResourceDefinition, all: readonly CustomResourceDefinition[]): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.metadata?.name === crd.metadata?.name || other.spec?.group !== crd.spec?.group) continue;
    const n = other.status?.acceptedNames ?? {};
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) kinds.add(k);
  }
  return { resources, kinds };
}

/** upstream's equalToAcceptedOrFresh: the error text, or undefined when the name may be taken. */
function conflict(requested: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  const r = requested ?? '';
  if (r === (accepted ?? '') || !used.has(r)) return undefined;
  return `${JSON.stringify(r)} is already in use`;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === (b ?? [])[i]);

export function calculateNames(crd: CustomResourceDefinition, all: readonly CustomResourceDefinition[]): NamingResult {
  const { resources, kinds } = claimedNames(crd, all);
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const next: CustomResourceDefinitionNames = { ...accepted };
  let failure: { reason: string; message: string } | undefined;
  const check = (reason: string, field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>): void => {
    const err = conflict(requested[field], accepted[field], used);
    if (err) failure = { reason, message: err };
    else next[field] = requested[field];
  };
  check('PluralConflict', 'plural', resources);
  check('SingularConflict', 'singular', resources);
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const own = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? []).filter((n) => !own.has(n)).map((n) => conflict(n, '', resources)).filter((e): e is string => !!e);
    if (errs.length) failure = { reason: 'ShortNamesConflict', message: aggregate(errs) };
    else next.shortNames = requested.shortNames;
  }
  check('KindConflict', 'kind', kinds);
  check('ListKindConflict', 'listKind', kinds);
  next.categories = requested.categories;
  const namesAccepted: CustomResourceDefinitionCondition = failure
    ? { type: 'NamesAccepted', status: 'False', ...failure }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  let established: CustomResourceDefinitionCondition = findCrdCondition(crd, 'Established') ?? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: dropEmpty(next), namesAccepted, established: { ...established } };
}

/** utilerrors.NewAggregate's text: one error as itself, several as "[a, b]". */
function aggregate(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/** omitempty: absent names stay absent in the stored status. */
function dropEmpty(n: CustomResourceDefinitionNames): CustomResourceDefinitionNames {
  const out: CustomResourceDefinitionNames = {};
  for (const [k, v] of Object.entries(n) as [keyof CustomResourceDefinitionNames, CustomResourceDefinitionNames[keyof CustomResourceDefinitionNames]][]) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function namesEqual(a: CustomResourceDefinitionNames | undefined, b: CustomResourceDefinitionNames | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  return (
    (x.plural ?? '') === (y.plural ?? '') &&
    (x.singular ?? '') === (y.singular ?? '') &&
    (x.kind ?? '') === (y.kind ?? '') &&
    (x.listKind ?? '') === (y.listKind ?? '') &&
    sameList(x.shortNames, y.shortNames) &&
    sameList(x.categories, y.categories)
  );
}
