import { errors } from '../machinery/errors';
import { validatingChain, type AdmissionAttributes, type ValidatingPlugin } from './attributes';

const attrs = { operation: 'CREATE', resource: { group: '', resource: 'serviceaccounts' }, name: 'x' } as AdmissionAttributes;

describe('validatingChain', () => {
  it('runs every plugin in order, whether it answers at once or through a promise', async () => {
    const ran: string[] = [];
    const chain = validatingChain([
      () => void ran.push('sync'),
      async () => {
        await new Promise((r) => setImmediate(r));
        ran.push('async');
      },
      () => void ran.push('sync again'),
    ]);
    await chain(attrs);
    expect(ran).toEqual(['sync', 'async', 'sync again']);
  });

  it.each<[string, ValidatingPlugin]>([
    ['thrown at once', () => { throw errors.forbidden(attrs.resource, 'x', 'no'); }],
    ['through its promise', async () => { throw errors.forbidden(attrs.resource, 'x', 'no'); }],
  ])('the first refusal wins, %s, and later plugins do not run', async (_name, refuse) => {
    const ran: string[] = [];
    const chain = validatingChain([() => void ran.push('first'), refuse, () => void ran.push('after')]);
    await expect(chain(attrs)).rejects.toMatchObject({ code: 403 });
    expect(ran).toEqual(['first']);
  });
});
