// The Scale view of a custom resource: what GET reads from the CRD's paths, what a write changes
// (spec replicas only, the view's resourceVersion as the precondition), upstream's errors, and
// the replicas/selector validation every write of the resource gets.
import type { ApiObject } from '../../api';
import { ApiError } from '../../machinery/errors';
import { customResourceScaleView, type ScalePaths, validateScaleSpec, validateScaleStatus } from './scale';

const paths: ScalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
const view = customResourceScaleView(paths);
const meta = { name: 'w1', namespace: 'default', uid: 'u-1', resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z', labels: { a: 'b' }, generation: 3 };
const cr = (rest: Record<string, unknown>): ApiObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { ...meta }, ...rest }) as ApiObject;
const scaleMeta = { name: 'w1', namespace: 'default', uid: 'u-1', resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z' };

function failure(f: () => unknown): { code: number; reason?: string; message: string } {
  try {
    f();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, reason: e.status.reason, message: e.status.message ?? '' };
  }
  throw new Error('no error');
}

describe('read', () => {
  test.each([
    ['all fields', { spec: { replicas: 3 }, status: { replicas: 2, selector: 'app=w' } }, { replicas: 3 }, { replicas: 2, selector: 'app=w' }],
    ['status and selector missing: 0 and ""', { spec: { replicas: 0 } }, { replicas: 0 }, { replicas: 0, selector: '' }],
    ['a null on the way reads as missing', { spec: { replicas: 1 }, status: null }, { replicas: 1 }, { replicas: 0, selector: '' }],
    ['int64 beyond int32 wraps as Go converts', { spec: { replicas: 2 ** 32 + 5 } }, { replicas: 5 }, { replicas: 0, selector: '' }],
  ])('%s', (_n, body, spec, status) => {
    expect(view.read(cr(body), 'get')).toEqual({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: scaleMeta, spec, status });
  });

  test('without a label selector path the selector is empty whatever the object holds', () => {
    const v = customResourceScaleView({ specReplicasPath: '.spec.n', statusReplicasPath: '.status.n' });
    expect(v.read(cr({ spec: { n: 4 }, status: { n: 1, selector: 'x' } }), 'get')).toMatchObject({ spec: { replicas: 4 }, status: { replicas: 1, selector: '' } });
  });

  test.each([
    ['spec replicas missing on GET: 500 InternalError', { spec: {} }, 'get', 500, 'InternalError', 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist'],
    ['spec replicas a string', { spec: { replicas: 'three' } }, 'get', 500, undefined, '.spec.replicas accessor error: three is of the type string, expected int64'],
    ['spec replicas a float', { spec: { replicas: 1.5 } }, 'update', 500, undefined, '.spec.replicas accessor error: 1.5 is of the type float64, expected int64'],
    ['spec replicas null', { spec: { replicas: null } }, 'get', 500, undefined, '.spec.replicas accessor error: <nil> is of the type <nil>, expected int64'],
    ['spec not an object (Go names the field it wanted)', { spec: [1, 2] }, 'get', 500, undefined, '.spec.replicas accessor error: [1 2] is of the type []interface {}, expected map[string]interface{}'],
    ['selector not a string', { spec: { replicas: 1 }, status: { selector: { a: 1 } } }, 'get', 500, undefined, '.status.selector accessor error: map[a:1] is of the type map[string]interface {}, expected string'],
  ])('%s', (_n, body, purpose, code, reason, message) => {
    expect(failure(() => view.read(cr(body), purpose as 'get' | 'update'))).toEqual({ code, reason, message });
  });

  test('a write starts from a marker when spec replicas is missing; admission sees 0', () => {
    expect(view.read(cr({ spec: {} }), 'update')).toMatchObject({ spec: { replicas: -2147483648 } });
    expect(view.read(cr({ spec: {} }), 'admission')).toMatchObject({ spec: { replicas: 0 } });
  });
});

describe('write', () => {
  const scale = (replicas: number | undefined, resourceVersion?: string): ApiObject =>
    ({ metadata: { name: 'w1', ...(resourceVersion ? { resourceVersion } : {}) }, spec: replicas === undefined ? {} : { replicas }, status: { replicas: 9, selector: 'ignored' } }) as ApiObject;

  test.each([
    ['sets spec replicas, leaves status alone', { spec: { replicas: 1, size: 'L' }, status: { replicas: 1 } }, scale(5), { spec: { replicas: 5, size: 'L' }, status: { replicas: 1 } }, '7'],
    ['creates the objects on the path', {}, scale(2), { spec: { replicas: 2 } }, '7'],
    ['replaces a null on the path', { spec: null }, scale(2), { spec: { replicas: 2 } }, '7'],
    ['a view without replicas writes 0 (Go’s zero value)', { spec: { replicas: 4 } }, scale(undefined), { spec: { replicas: 0 } }, '7'],
    ['the view’s resourceVersion becomes the precondition', { spec: { replicas: 4 } }, scale(3, '5'), { spec: { replicas: 3 } }, '5'],
  ])('%s', (_n, body, sub, expected, rv) => {
    const parent = cr(body);
    const out = view.write(parent, sub);
    expect(out).toEqual({ ...cr(expected), metadata: { ...meta, resourceVersion: rv } });
    expect(parent).toEqual(cr(body)); // a copy: the parent is untouched
  });

  test.each([
    ['the marker left in place: 400', { spec: {} }, -2147483648, 400, 'BadRequest', 'the spec replicas field ".spec.replicas" cannot be empty'],
    ['a non-object on the path: 500', { spec: 'x' }, 1, 500, undefined, 'value cannot be set because .spec is not a map[string]interface{}'],
  ])('%s', (_n, body, replicas, code, reason, message) => {
    expect(failure(() => view.write(cr(body), scale(replicas)))).toEqual({ code, reason, message });
  });
});

describe('validation', () => {
  test.each([
    ['absent: nothing', {}, [], []],
    ['in range', { spec: { replicas: 2147483647 }, status: { replicas: 0, selector: 'a=b' } }, [], []],
    [
      'negative',
      { spec: { replicas: -1 }, status: { replicas: -2 } },
      [{ type: 'FieldValueInvalid', field: '.spec.replicas', value: -1, detail: 'should be a non-negative integer' }],
      [{ type: 'FieldValueInvalid', field: '.status.replicas', value: -2, detail: 'should be a non-negative integer' }],
    ],
    [
      'beyond int32',
      { spec: { replicas: 2147483648 } },
      [{ type: 'FieldValueInvalid', field: '.spec.replicas', value: 2147483648, detail: 'should be less than or equal to 2147483647' }],
      [],
    ],
    [
      'wrong types',
      { spec: { replicas: 'a' }, status: { replicas: true, selector: 3 } },
      [{ type: 'FieldValueInvalid', field: '.spec.replicas', value: 0, detail: '.spec.replicas accessor error: a is of the type string, expected int64' }],
      [
        { type: 'FieldValueInvalid', field: '.status.replicas', value: 0, detail: '.status.replicas accessor error: true is of the type bool, expected int64' },
        { type: 'FieldValueInvalid', field: '.status.selector', value: '', detail: '.status.selector accessor error: 3 is of the type int64, expected string' },
      ],
    ],
  ])('%s', (_n, body, specErrs, statusErrs) => {
    expect(validateScaleSpec(cr(body), paths)).toEqual(specErrs);
    expect(validateScaleStatus(cr(body), paths)).toEqual(statusErrs);
  });

  test('no scale subresource: nothing is checked', () => {
    expect(validateScaleSpec(cr({ spec: { replicas: -1 } }), undefined)).toEqual([]);
    expect(validateScaleStatus(cr({ status: { replicas: -1 } }), undefined)).toEqual([]);
  });
});
