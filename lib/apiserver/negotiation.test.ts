import { isApiError } from '../machinery/errors';
import { chooseOutput } from './negotiation';

describe('chooseOutput', () => {
  test.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['application/json', 'application/json'],
    ['application/yaml', 'application/yaml'],
    ['*/*', 'application/json'],
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'application/json'],
    ['application/yaml;q=0.5, application/json;q=0.9', 'application/json'],
    ['text/html, application/yaml', 'application/yaml'],
  ])('Accept %p → %s', (accept, want) => {
    expect(chooseOutput(accept, false).mediaType).toBe(want);
  });

  const kubectlGet = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
  test.each<[string, boolean, unknown]>([
    [kubectlGet, true, { group: 'meta.k8s.io', version: 'v1' }],
    [kubectlGet, false, undefined],
    ['application/json;as=Table;v=v1beta1;g=meta.svc.io', true, { group: 'meta.svc.io', version: 'v1beta1' }],
    ['application/yaml;as=Table;v=v1;g=meta.svc.io', true, { group: 'meta.svc.io', version: 'v1' }],
    ['application/json;as=Table;v=v2;g=meta.svc.io, application/json', true, undefined],
    ['application/json;as=Table;v=v1;g=meta.example.io, application/yaml', true, undefined],
    ['application/json;as=PartialObjectMetadata;v=v1;g=meta.svc.io, application/json', true, undefined],
    ['application/json;q=0.5, application/json;as=Table;v=v1;g=meta.svc.io', true, { group: 'meta.svc.io', version: 'v1' }],
  ])('Accept %p (tables %p) → table %p', (accept, tables, want) => {
    expect(chooseOutput(accept, false, tables).table).toEqual(want);
  });

  test('a Table-only Accept on an endpoint without tables → 406', () => {
    expect(() => chooseOutput('application/json;as=Table;v=v1;g=meta.k8s.io', false, false)).toThrow(/only the following media types/);
  });

  test('unsupported types → 406 NotAcceptable', () => {
    try {
      chooseOutput('text/html', false);
      throw new Error('expected 406');
    } catch (e) {
      expect(isApiError(e) && e.code).toBe(406);
      expect(isApiError(e) && e.status.reason).toBe('NotAcceptable');
    }
  });
});
