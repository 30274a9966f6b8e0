// The ServiceAccount strategy's warnings (upstream's WarningsOnCreate/WarningsOnUpdate) as the
// store hands them to the request: once validation passed, before anything is stored, dry-run
// included; none for a request that validation refuses.
import { MemoryStorage } from '../../etcd/memory';
import type { ApiObject } from '../../api';
import { isApiError } from '../../machinery/errors';
import { GenericStore, replacementWith } from '../store';
import type { RequestContext } from '../strategy';
import { serviceAccountStrategy } from './strategy';

const annotation = 'svc.io/enforce-mountable-secrets';
const warning = `metadata.annotations[${annotation}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`;

function request(dryRun = false): { ctx: RequestContext; warnings: string[] } {
  const warnings: string[] = [];
  const ctx: RequestContext = {
    user: { name: 'admin', groups: [] },
    namespace: 'team',
    subresource: '',
    dryRun,
    now: () => new Date(0),
    warn: (text) => warnings.push(text),
  };
  return { ctx, warnings };
}

const sa = (name: string, annotations?: Record<string, string>): ApiObject => ({ metadata: { name, ...(annotations ? { annotations } : {}) } });

let store: GenericStore;
beforeEach(() => {
  store = new GenericStore({ storage: new MemoryStorage(), strategy: serviceAccountStrategy, prefix: '/registry' });
});

async function settled(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (isApiError(e)) return e.code;
    throw e;
  }
}

describe('ServiceAccount warnings through the store', () => {
  const creates: [string, ApiObject, boolean, number | 'ok', string[]][] = [
    ['a create with the annotation', sa('a', { [annotation]: 'true' }), false, 'ok', [warning]],
    ['a dry-run create with the annotation', sa('a', { [annotation]: 'true' }), true, 'ok', [warning]],
    ['a create without it', sa('a'), false, 'ok', []],
    ['a create that validation refuses', sa('Not_Valid', { [annotation]: 'true' }), false, 422, []],
  ];
  it.each(creates)('%s', async (_name, body, dryRun, code, expected) => {
    const { ctx, warnings } = request(dryRun);
    expect(await settled(store.create(ctx, body))).toBe(code);
    expect(warnings).toEqual(expected);
  });

  const updates: [string, Record<string, string> | undefined, ApiObject, number | 'ok', string[]][] = [
    ['an update adding the annotation', undefined, sa('a', { [annotation]: 'false' }), 'ok', [warning]],
    ['an update keeping it', { [annotation]: 'true' }, sa('a', { [annotation]: 'true' }), 'ok', []],
    ['an update without it', undefined, sa('a', { other: 'x' }), 'ok', []],
    ['an update adding it that validation refuses', undefined, sa('a', { [annotation]: 'true', 'bad key!': 'x' }), 422, []],
  ];
  it.each(updates)('%s', async (_name, stored, body, code, expected) => {
    await store.create(request().ctx, sa('a', stored));
    const { ctx, warnings } = request();
    expect(await settled(store.update(ctx, 'a', replacementWith(body)))).toBe(code);
    expect(warnings).toEqual(expected);
  });

  it('a PUT of a missing one creates nothing and warns nothing (upstream: AllowCreateOnUpdate false)', async () => {
    const { ctx, warnings } = request();
    expect(await settled(store.update(ctx, 'new', replacementWith(sa('new', { [annotation]: 'true' }))))).toBe(404);
    expect(warnings).toEqual([]);
  });
});
