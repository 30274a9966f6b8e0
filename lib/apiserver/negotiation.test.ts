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
