// The /scale subresource of a custom resource (upstream's ScaleREST, scaleFromCustomResource and
// scaleUpdatedObjectInfo, and the validator's ValidateScaleSpec/ValidateScaleStatus): an
// autoscaling/v1 Scale read from the CRD version's specReplicasPath, statusReplicasPath and
// labelSelectorPath (simple `.a.b` paths, checked when the CRD was written). A write changes
// only the spec replicas field; status is never written through /scale.
import type { ApiObject } from '../../api';
import { ScaleSchema, scaleKind } from '../../api/autoscaling/scale';
import { errors } from '../../machinery/errors';
import { fieldErr, type FieldError } from '../../machinery/fieldErrors';
import { goFormatValue, goKind, goTypeNames } from '../../machinery/goFormat';
import { goQuote } from '../../machinery/goStrconv';
import type { SubresourceView } from '../strategy';

/** subresources.scale of a CRD version. */
export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

type Json = Record<string, unknown>;

/** What upstream puts in spec.replicas of the Scale a write starts from when the parent has none. */
const missingReplicas = -2147483648;
const maxInt32 = 2147483647;

const fieldsOf = (path: string): string[] => (path.startsWith('.') ? path.slice(1) : path).split('.');
const jsonPath = (fields: readonly string[]): string => `.${fields.join('.')}`;
/** %T as Go prints it (nil is `<nil>` under %T). */
const goType = (v: unknown): string => (goKind(v) === 'nil' ? '<nil>' : goTypeNames[goKind(v)]);
const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

type Nested = { found: false } | { found: true; value: unknown } | { error: string };

/** unstructured.NestedFieldNoCopy: a null on the way is "not found"; a non-object is an error. */
function nestedField(obj: ApiObject, fields: readonly string[]): Nested {
  let v: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (v === null || v === undefined) return { found: false };
    if (!isMap(v)) return { error: `${jsonPath(fields.slice(0, i + 1))} accessor error: ${goFormatValue(v)} is of the type ${goType(v)}, expected map[string]interface{}` };
    if (!Object.prototype.hasOwnProperty.call(v, fields[i])) return { found: false };
    v = v[fields[i]];
  }
  return { found: true, value: v };
}

type Read<T> = { found: boolean; value: T } | { error: string };

/** unstructured.NestedInt64 (0 when absent). */
function nestedInt64(obj: ApiObject, path: string): Read<number> {
  const fields = fieldsOf(path);
  const r = nestedField(obj, fields);
  if ('error' in r) return r;
  if (!r.found) return { found: false, value: 0 };
  if (goKind(r.value) !== 'int64') return { error: `${jsonPath(fields)} accessor error: ${goFormatValue(r.value)} is of the type ${goType(r.value)}, expected int64` };
  return { found: true, value: r.value as number };
}

/** unstructured.NestedString ("" when absent). */
function nestedString(obj: ApiObject, path: string): Read<string> {
  const fields = fieldsOf(path);
  const r = nestedField(obj, fields);
  if ('error' in r) return r;
  if (!r.found) return { found: false, value: '' };
  if (typeof r.value !== 'string') return { error: `${jsonPath(fields)} accessor error: ${goFormatValue(r.value)} is of the type ${goType(r.value)}, expected string` };
  return { found: true, value: r.value };
}

/** Go's int32() conversion of an int64 (wraps). */
const int32 = (n: number): number => Number(BigInt.asIntN(32, BigInt(n)));

/**
 * scaleFromCustomResource: the Scale of a custom resource and whether spec replicas was found.
 * A value of the wrong type is a plain error (upstream returns the accessor's error as is: 500).
 */
export function scaleFromCustomResource(cr: ApiObject, paths: ScalePaths): { scale: ApiObject; specReplicasFound: boolean } {
  const spec = nestedInt64(cr, paths.specReplicasPath);
  if ('error' in spec) throw errors.plain(500, spec.error);
  const status = nestedInt64(cr, paths.statusReplicasPath);
  if ('error' in status) throw errors.plain(500, status.error);
  let selector = '';
  if (paths.labelSelectorPath) {
    const s = nestedString(cr, paths.labelSelectorPath);
    if ('error' in s) throw errors.plain(500, s.error);
    selector = s.value;
  }
  const m = cr.metadata ?? {};
  const metadata: Json = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  for (const k of Object.keys(metadata)) if (metadata[k] === undefined || metadata[k] === '') delete metadata[k];
  const scale = {
    apiVersion: `${scaleKind.group}/${scaleKind.version}`,
    kind: scaleKind.kind,
    metadata,
    spec: { replicas: int32(spec.value) },
    status: { replicas: int32(status.value), selector },
  } as ApiObject;
  return { scale, specReplicasFound: spec.found };
}

/** setNestedFieldNoCopy: creates missing (or null) objects on the way; a non-object there is an error. */
function setNested(obj: Json, path: string, value: unknown): void {
  const fields = fieldsOf(path);
  let m = obj;
  for (let i = 0; i < fields.length - 1; i++) {
    const v = m[fields[i]];
    if (v !== undefined && v !== null) {
      if (!isMap(v)) throw errors.plain(500, `value cannot be set because ${jsonPath(fields.slice(0, i + 1))} is not a map[string]interface{}`);
      m = v;
    } else {
      const created: Json = {};
      m[fields[i]] = created;
      m = created;
    }
  }
  m[fields[fields.length - 1]] = value;
}

/** The Scale view of a custom resource (Strategy.subresourceViews.scale). */
export function customResourceScaleView(paths: ScalePaths): SubresourceView {
  return {
    kind: scaleKind,
    schema: ScaleSchema,
    read(parent, purpose) {
      const { scale, specReplicasFound } = scaleFromCustomResource(parent, paths);
      if (!specReplicasFound && purpose !== 'admission') {
        if (purpose === 'get') throw errors.internal(`the spec replicas field ${goQuote(paths.specReplicasPath)} does not exist`);
        // A write must set it: what is still this value afterwards was never given.
        (scale as { spec: { replicas: number } }).spec.replicas = missingReplicas;
      }
      return scale;
    },
    write(parent, view) {
      const replicas = (view as { spec?: { replicas?: number } }).spec?.replicas ?? 0;
      if (replicas === missingReplicas) throw errors.badRequest(`the spec replicas field ${goQuote(paths.specReplicasPath)} cannot be empty`);
      const cr = structuredClone(parent) as Json;
      setNested(cr, paths.specReplicasPath, replicas);
      const rv = view.metadata?.resourceVersion;
      if (rv) ((cr.metadata ??= {}) as Json).resourceVersion = rv;
      return cr as ApiObject;
    },
  };
}

function replicasErrors(obj: ApiObject, path: string): FieldError[] {
  const r = nestedInt64(obj, path);
  if ('error' in r) return [fieldErr.invalid(path, 0, r.error)];
  if (r.value < 0) return [fieldErr.invalid(path, r.value, 'should be a non-negative integer')];
  if (r.value > maxInt32) return [fieldErr.invalid(path, r.value, `should be less than or equal to ${maxInt32}`)];
  return [];
}

/** ValidateScaleSpec: the spec replicas field, when present, is an int32 ≥ 0 (errors name the CRD's path). */
export function validateScaleSpec(obj: ApiObject, paths: ScalePaths | undefined): FieldError[] {
  return paths ? replicasErrors(obj, paths.specReplicasPath) : [];
}

/** ValidateScaleStatus: the status replicas field likewise, and the label selector, when present, a string. */
export function validateScaleStatus(obj: ApiObject, paths: ScalePaths | undefined): FieldError[] {
  if (!paths) return [];
  const errs = replicasErrors(obj, paths.statusReplicasPath);
  if (paths.labelSelectorPath) {
    const s = nestedString(obj, paths.labelSelectorPath);
    if ('error' in s) errs.push(fieldErr.invalid(paths.labelSelectorPath, '', s.error));
  }
  return errs;
}
