import { serviceaccounts } from '../../api';
import type { HandlerContext } from '../handlerContext';
import { listRequestFromQuery } from './listQuery';

/** Only what listRequestFromQuery reads: the query, the URL's namespace, the store's field selectors. */
function context(query: string): HandlerContext {
  const store = {
    groupResource: { group: '', resource: 'serviceaccounts' },
    strategy: { selectableFields: (o: { metadata?: { name?: string; namespace?: string } }) => ({ 'metadata.name': o.metadata?.name ?? '', 'metadata.namespace': o.metadata?.namespace ?? '' }) },
  };
  return {
    query: new URLSearchParams(query),
    info: { namespace: 'fz', name: '' },
    served: { info: serviceaccounts, store },
    features: { isEnabled: () => false },
  } as unknown as HandlerContext;
}

describe('listRequestFromQuery', () => {
  // deletecollection lists with the request's options; upstream's List ignores ?watch.
  test.each(['watch=true', 'watch=1&timeoutSeconds=1', 'watch=maybe&labelSelector=a%3Db', 'watch='])('%s lists', (query) => {
    const r = listRequestFromQuery(context(query), false);
    expect(r).toMatchObject({ namespace: 'fz', source: { kind: 'latest' }, limit: 0 });
  });

  test('selectors still apply', () => {
    const r = listRequestFromQuery(context('watch=true&labelSelector=a%3Db'), false);
    expect(r.predicate.matches({ metadata: { name: 'x', labels: { a: 'b' } } })).toBe(true);
    expect(r.predicate.matches({ metadata: { name: 'x', labels: { a: 'c' } } })).toBe(false);
  });

  test('a bad value of another option is still refused', () => {
    expect(() => listRequestFromQuery(context('watch=true&limit=abc'), false)).toThrow();
  });
});
