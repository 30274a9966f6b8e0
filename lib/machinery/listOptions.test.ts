import { encodeContinueToken } from './continueToken';
import { ApiError } from './errors';
import { fieldLabelNotSupported, metadataOnlyFieldSelectors } from './fieldSelector';
import { ListDecision, ListOptionsContext, ListRead, QueryParams, WatchDecision, WatchStart, resolveListOptions } from './listOptions';

const csr = { group: 'certificates.svc.io', resource: 'certificatesigningrequests' };
const ctx: ListOptionsContext = {
  resource: csr,
  fieldSelectors: { fields: ['metadata.name', 'spec.signerName'], unsupported: fieldLabelNotSupported },
  watchListFeature: true,
};
const token = encodeContinueToken(42, 'csr-b\u0000');

function list(q: QueryParams, c: ListOptionsContext = ctx): ListDecision {
  const d = resolveListOptions(q, c);
  if (d.kind !== 'list') throw new Error('expected a list decision');
  return d;
}
function watch(q: QueryParams, c: ListOptionsContext = ctx): WatchDecision {
  const d = resolveListOptions(q, c);
  if (d.kind !== 'watch') throw new Error('expected a watch decision');
  return d;
}
function errorOf(q: QueryParams, c: ListOptionsContext = ctx): ApiError {
  try {
    resolveListOptions(q, c);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}

// api-spec.md §4.5 item 4, one row per cell. `rv` is unset / "0" / "5" (other).
//
// | resourceVersionMatch | paging                    | unset               | 0                               | other          |
// |----------------------|---------------------------|---------------------|---------------------------------|----------------|
// | unset                | limit unset               | Most Recent         | Any                             | Not older than |
// | unset                | limit=n, continue unset   | Most Recent         | Any                             | Exact          |
// | unset                | limit=n, continue=token   | Continue Token      | invalid → Continue Token        | invalid, 400   |
// | Exact                | limit unset               | invalid             | invalid                         | Exact          |
// | Exact                | limit=n, continue unset   | invalid             | invalid                         | Exact          |
// | NotOlderThan         | limit unset               | invalid             | Any                             | Not older than |
// | NotOlderThan         | limit=n, continue unset   | invalid             | Any                             | Not older than |
type Outcome = { read: ListRead; limit: number | undefined } | { error: number; message: string };
const rvmForbidden =
  'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided';
const exactZero = 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"';
const table: [string, Record<string, string>, Outcome][] = [
  ['unset, no limit, rv unset', {}, { read: { mode: 'mostRecent' }, limit: undefined }],
  ['unset, no limit, rv 0', { resourceVersion: '0' }, { read: { mode: 'any' }, limit: undefined }],
  ['unset, no limit, rv 5', { resourceVersion: '5' }, { read: { mode: 'notOlderThan', rv: 5 }, limit: undefined }],
  ['unset, limit, rv unset', { limit: '10' }, { read: { mode: 'mostRecent' }, limit: 10 }],
  ['unset, limit, rv 0 (limit ignored)', { limit: '10', resourceVersion: '0' }, { read: { mode: 'any' }, limit: undefined }],
  ['unset, limit, rv 5', { limit: '10', resourceVersion: '5' }, { read: { mode: 'exact', rv: 5 }, limit: 10 }],
  ['unset, limit+continue, rv unset', { limit: '10', continue: token }, { read: { mode: 'continue', rv: 42, start: 'csr-b\u0000' }, limit: 10 }],
  ['unset, limit+continue, rv 0', { limit: '10', continue: token, resourceVersion: '0' }, { read: { mode: 'continue', rv: 42, start: 'csr-b\u0000' }, limit: 10 }],
  ['unset, limit+continue, rv 5', { limit: '10', continue: token, resourceVersion: '5' }, { error: 400, message: 'specifying resource version is not allowed when using continue' }],
  ['Exact, no limit, rv unset', { resourceVersionMatch: 'Exact' }, { error: 422, message: rvmForbidden }],
  ['Exact, no limit, rv 0', { resourceVersionMatch: 'Exact', resourceVersion: '0' }, { error: 422, message: exactZero }],
  ['Exact, no limit, rv 5', { resourceVersionMatch: 'Exact', resourceVersion: '5' }, { read: { mode: 'exact', rv: 5 }, limit: undefined }],
  ['Exact, limit, rv unset', { resourceVersionMatch: 'Exact', limit: '3' }, { error: 422, message: rvmForbidden }],
  ['Exact, limit, rv 0', { resourceVersionMatch: 'Exact', limit: '3', resourceVersion: '0' }, { error: 422, message: exactZero }],
  ['Exact, limit, rv 5', { resourceVersionMatch: 'Exact', limit: '3', resourceVersion: '5' }, { read: { mode: 'exact', rv: 5 }, limit: 3 }],
  ['NotOlderThan, no limit, rv unset', { resourceVersionMatch: 'NotOlderThan' }, { error: 422, message: rvmForbidden }],
  ['NotOlderThan, no limit, rv 0', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, { read: { mode: 'any' }, limit: undefined }],
  ['NotOlderThan, no limit, rv 5', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '5' }, { read: { mode: 'notOlderThan', rv: 5 }, limit: undefined }],
  ['NotOlderThan, limit, rv unset', { resourceVersionMatch: 'NotOlderThan', limit: '3' }, { error: 422, message: rvmForbidden }],
  ['NotOlderThan, limit, rv 0', { resourceVersionMatch: 'NotOlderThan', limit: '3', resourceVersion: '0' }, { read: { mode: 'any' }, limit: undefined }],
  ['NotOlderThan, limit, rv 5', { resourceVersionMatch: 'NotOlderThan', limit: '3', resourceVersion: '5' }, { read: { mode: 'notOlderThan', rv: 5 }, limit: 3 }],
];

describe('list semantics table (api-spec.md §4.5)', () => {
  test.each(table)('%s', (_name, q, outcome) => {
    if ('error' in outcome) {
      const e = errorOf(q);
      expect(e.code).toBe(outcome.error);
      expect(e.status.message).toBe(outcome.message);
    } else {
      const d = list(q);
      expect(d.read).toEqual(outcome.read);
      expect(d.limit).toBe(outcome.limit);
    }
  });
});

describe('list/watch option errors (watch-and-list.md §8 and decoding)', () => {
  const inv = 'ListOptions.meta.svc.io "" is invalid: ';
  test.each<[string, Record<string, string>, number, string, Partial<ListOptionsContext>?]>([
    ['match with continue', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '5', continue: token }, 422,
      `${inv}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided`],
    ['unknown match', { resourceVersionMatch: 'x', resourceVersion: '5' }, 422,
      `${inv}resourceVersionMatch: Unsupported value: "x": supported values: "Exact", "NotOlderThan", ""`],
    ['several errors', { resourceVersionMatch: 'x', continue: token }, 422,
      `${inv}[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, resourceVersionMatch: Unsupported value: "x": supported values: "Exact", "NotOlderThan", ""]`],
    ['sendInitialEvents on a list', { sendInitialEvents: 'false' }, 422,
      `${inv}sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`],
    ['watch: sendInitialEvents without match', { watch: 'true', sendInitialEvents: 'true' }, 422,
      `${inv}resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`],
    ['watch: sendInitialEvents with the feature off', { watch: '1', sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' }, 422,
      `${inv}sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled`, { watchListFeature: false }],
    ['watch: match without sendInitialEvents', { watch: 'true', resourceVersionMatch: 'NotOlderThan', resourceVersion: '5' }, 422,
      `${inv}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided`],
    ['watch: match Exact', { watch: 'true', sendInitialEvents: 'true', resourceVersionMatch: 'Exact' }, 422,
      `${inv}[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]`],
    ['watch: match with continue', { watch: 'true', sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', continue: 'x' }, 422,
      `${inv}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided`],
    ['bad limit', { limit: 'abc' }, 400, 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['empty limit', { limit: '' }, 400, 'strconv.ParseInt: parsing "": invalid syntax'],
    ['huge limit', { limit: '9223372036854775808' }, 400, 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['bad timeoutSeconds (checked before limit)', { timeoutSeconds: '1.5', limit: 'x' }, 400, 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['bad label selector', { labelSelector: 'a in b' }, 400, "unable to parse requirement: found 'b' expected: '('"],
    ['bad field selector', { fieldSelector: 'abc' }, 400, "invalid selector: 'abc'; can't understand 'abc'"],
    ['decoding before validation', { fieldSelector: 'abc', resourceVersionMatch: 'x' }, 400, "invalid selector: 'abc'; can't understand 'abc'"],
    ['validation before field support', { fieldSelector: 'spec.x=1', resourceVersionMatch: 'x', resourceVersion: '1' }, 422,
      `${inv}resourceVersionMatch: Unsupported value: "x": supported values: "Exact", "NotOlderThan", ""`],
    ['unsupported field', { fieldSelector: 'spec.x=1' }, 400, 'field label not supported: spec.x'],
    ['unsupported field (metadata-only resource)', { fieldSelector: 'spec.x=1' }, 400,
      '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"', { fieldSelectors: metadataOnlyFieldSelectors }],
    ['bad continue token', { continue: 'abc=' }, 400, 'invalid continue token: continue key is not valid: illegal base64 data at input byte 3'],
    ['bad token wins over RV with continue', { continue: 'abc=', resourceVersion: '5' }, 400,
      'invalid continue token: continue key is not valid: illegal base64 data at input byte 3'],
    ['unparseable RV (list)', { resourceVersion: 'abc' }, 422,
      'certificatesigningrequests.certificates.svc.io "" is invalid: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax'],
    ['unparseable RV (watch)', { watch: 'true', resourceVersion: '-1' }, 422,
      'certificatesigningrequests.certificates.svc.io "" is invalid: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax'],
    ['RV out of range', { resourceVersion: '18446744073709551616' }, 422,
      'certificatesigningrequests.certificates.svc.io "" is invalid: resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range'],
    ['name mismatch', { watch: 'true', fieldSelector: 'metadata.name=b' }, 400, "fieldSelector metadata.name doesn't match requested name", { name: 'a' }],
    ['name selector without metadata.name', { watch: 'true', fieldSelector: 'spec.signerName=b' }, 400, "fieldSelector metadata.name doesn't match requested name", { name: 'a' }],
  ])('%s', (...row) => {
    // A rest parameter: jest would take a declared 5th parameter for a `done` callback.
    const [, q, code, message, over] = row;
    const e = errorOf(q, { ...ctx, ...over });
    expect(e.code).toBe(code);
    expect(e.status.message).toBe(message);
  });

  test('422 on ListOptions names the meta group and kind', () => {
    const e = errorOf({ sendInitialEvents: 'true' });
    expect(e.status.details).toEqual({
      group: 'meta.svc.io',
      kind: 'ListOptions',
      causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for list', field: 'sendInitialEvents' }],
    });
  });

  test('422 on an unparseable RV names the resource as kind', () => {
    const e = errorOf({ resourceVersion: 'x' });
    expect(e.status.details?.kind).toBe('certificatesigningrequests');
    expect(e.status.details?.group).toBe('certificates.svc.io');
  });
});

describe('watch decisions (api-spec.md §4.6, WatchList defaulting)', () => {
  type Want = { start: WatchStart; sendInitialEvents: boolean; initialEventsEndBookmark: boolean };
  test.each<[string, Record<string, string>, boolean, Want]>([
    ['rv unset', { watch: 'true' }, true, { start: { mode: 'initialState', consistency: 'mostRecent' }, sendInitialEvents: true, initialEventsEndBookmark: false }],
    ['rv unset + bookmarks', { watch: 'true', allowWatchBookmarks: 'true' }, true,
      { start: { mode: 'initialState', consistency: 'mostRecent' }, sendInitialEvents: true, initialEventsEndBookmark: true }],
    ['rv unset, feature off', { watch: 'true', allowWatchBookmarks: 'true' }, false,
      { start: { mode: 'initialState', consistency: 'mostRecent' }, sendInitialEvents: false, initialEventsEndBookmark: false }],
    ['rv 0', { watch: 'true', resourceVersion: '0' }, true, { start: { mode: 'initialState', consistency: 'any' }, sendInitialEvents: true, initialEventsEndBookmark: false }],
    ['rv 0, feature off', { watch: 'true', resourceVersion: '0' }, false, { start: { mode: 'initialState', consistency: 'any' }, sendInitialEvents: false, initialEventsEndBookmark: false }],
    ['rv N', { watch: 'true', resourceVersion: '17' }, true, { start: { mode: 'fromRevision', rv: 17 }, sendInitialEvents: false, initialEventsEndBookmark: false }],
    ['watch-list, rv N', { watch: 'true', resourceVersion: '17', sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' }, true,
      { start: { mode: 'initialState', consistency: 'notOlderThan', rv: 17 }, sendInitialEvents: true, initialEventsEndBookmark: true }],
    ['watch-list, rv unset', { watch: 'true', sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' }, true,
      { start: { mode: 'initialState', consistency: 'mostRecent' }, sendInitialEvents: true, initialEventsEndBookmark: false }],
    ['sendInitialEvents=false, rv unset', { watch: 'true', sendInitialEvents: 'false', resourceVersionMatch: 'NotOlderThan' }, true,
      { start: { mode: 'now', consistency: 'mostRecent' }, sendInitialEvents: false, initialEventsEndBookmark: false }],
    ['sendInitialEvents=false, rv 0', { watch: 'true', sendInitialEvents: 'false', resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, true,
      { start: { mode: 'now', consistency: 'any' }, sendInitialEvents: false, initialEventsEndBookmark: false }],
    ['sendInitialEvents=false, rv N', { watch: 'true', sendInitialEvents: 'false', resourceVersionMatch: 'NotOlderThan', resourceVersion: '9' }, true,
      { start: { mode: 'fromRevision', rv: 9 }, sendInitialEvents: false, initialEventsEndBookmark: false }],
  ])('%s', (_name, q, feature, want) => {
    const d = watch(q, { ...ctx, watchListFeature: feature });
    expect({ start: d.start, sendInitialEvents: d.sendInitialEvents, initialEventsEndBookmark: d.initialEventsEndBookmark }).toEqual(want);
  });
});

describe('query decoding details', () => {
  test.each<[string, QueryParams, boolean]>([
    ['watch=true', { watch: 'true' }, true],
    ['watch=1', { watch: '1' }, true],
    ['watch= (empty is true)', { watch: '' }, true],
    ['watch=FALSE', { watch: 'FALSE' }, false],
    ['watch=0', { watch: '0' }, false],
    ['watch=yes', { watch: 'yes' }, true],
    ['no watch', {}, false],
    ['URLSearchParams, first value wins', new URLSearchParams('watch=0&watch=1'), false],
    ['array value, first wins', { watch: ['1', '0'] }, true],
  ])('%s', (_name, q, isWatch) => {
    expect(resolveListOptions(q, ctx).kind).toBe(isWatch ? 'watch' : 'list');
  });

  test('forceWatch (legacy /watch/ routes) makes any request a watch', () => {
    expect(resolveListOptions({}, { ...ctx, forceWatch: true }).kind).toBe('watch');
  });

  test('timeoutSeconds, selectors and bookmarks are carried', () => {
    const d = watch(new URLSearchParams('watch=1&timeoutSeconds=30&allowWatchBookmarks=true&labelSelector=a%3Db&fieldSelector=spec.signerName%3Dx'));
    expect(d.timeoutSeconds).toBe(30);
    expect(d.allowWatchBookmarks).toBe(true);
    expect(d.labelSelector.toString()).toBe('a=b');
    expect(d.fieldSelector.toString()).toBe('spec.signerName=x');
  });

  test('a single-object watch adds the metadata.name term', () => {
    const d = watch({ watch: 'true' }, { ...ctx, name: 'csr-1' });
    expect(d.fieldSelector.toString()).toBe('metadata.name=csr-1');
    const same = watch({ watch: 'true', fieldSelector: 'metadata.name=csr-1' }, { ...ctx, name: 'csr-1' });
    expect(same.fieldSelector.toString()).toBe('metadata.name=csr-1');
  });

  test('negative limit means no limit', () => {
    expect(list({ limit: '-5' }).limit).toBeUndefined();
  });

  test('an RV that parses to 0 but is not "0"', () => {
    expect(list({ resourceVersion: '00' }).read).toEqual({ mode: 'any' });
    expect(list({ resourceVersion: '00', limit: '2' }).read).toEqual({ mode: 'mostRecent' });
  });

  test('a continue token at rv -1 (from a 410) continues at the latest revision', () => {
    expect(list({ continue: encodeContinueToken(-1, 'x') }).read).toEqual({ mode: 'continue', rv: -1, start: 'x' });
  });
});
