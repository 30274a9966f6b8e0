// x-kubernetes-embedded-resource values in a custom resource (custom-resources.md §13, upstream's
// schema/objectmeta validation): each must carry apiVersion and kind (strings; apiVersion a
// group/version, kind a DNS-1035 label up to case) and its metadata must pass ObjectMeta's
// create rules, with path-segment names, a namespace only where given, and a stand-in name when
// it has none (an embedded object need not be named). The root is validated as the object itself.
import type { ObjectMeta } from '../../api/meta';
import type { FieldSchema, ObjectSchema } from '../../api/schema';
import type { FieldError } from '../fieldErrors';
import { fieldErr } from '../fieldErrors';
import { isJsonObject } from '../jsonValue';
import { isDNS1035Label, validatePathSegmentName } from './names';
import { validateObjectMeta } from './objectMeta';

/** Deeper than the decoders ever produce (they stop at 1000): a guard, not a limit anyone meets. */
const maxDepth = 1100;

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** schema.ParseGroupVersion's error for a string it cannot split. */
const groupVersionError = (gv: string): string | undefined => (gv !== '/' && gv.split('/').length > 2 ? `unexpected GroupVersion string: ${gv}` : undefined);

function embedded(v: Record<string, unknown>, path: string, errs: FieldError[]): void {
  const child = (k: string): string => (path ? `${path}.${k}` : k);
  if (!own(v, 'apiVersion')) errs.push(fieldErr.required(child('apiVersion')));
  if (!own(v, 'kind')) errs.push(fieldErr.required(child('kind')));
  if (own(v, 'apiVersion')) {
    const a = v.apiVersion;
    if (typeof a !== 'string') errs.push(fieldErr.invalid(child('apiVersion'), a, 'must be a string'));
    else if (a === '') errs.push(fieldErr.invalid(child('apiVersion'), a, 'must not be empty'));
    else {
      const e = groupVersionError(a);
      if (e) errs.push(fieldErr.invalid(child('apiVersion'), a, e));
    }
  }
  if (own(v, 'kind')) {
    const k = v.kind;
    if (typeof k !== 'string') errs.push(fieldErr.invalid(child('kind'), k, 'must be a string'));
    else if (k === '') errs.push(fieldErr.invalid(child('kind'), k, 'must not be empty'));
    else {
      const e = isDNS1035Label(k.toLowerCase());
      if (e.length) errs.push(fieldErr.invalid(child('kind'), k, `may have mixed case, but should otherwise match: ${e.join(',')}`));
    }
  }
  if (own(v, 'metadata') && isJsonObject(v.metadata)) {
    const meta = { ...(v.metadata as ObjectMeta) };
    if (!meta.name) meta.name = 'fakename';
    const metaErrs = validateObjectMeta(meta, { namespaced: Boolean(meta.namespace), nameFn: validatePathSegmentName });
    // Those errors are worded for the root's metadata: moved under this object.
    for (const e of metaErrs) errs.push({ ...e, field: child(e.field) });
  }
}

function value(v: unknown, f: FieldSchema, path: string, depth: number, errs: FieldError[]): void {
  if (depth > maxDepth) return;
  if (Array.isArray(v)) {
    if (f.type === 'array') v.forEach((x, i) => value(x, f.items, `${path}[${i}]`, depth + 1, errs));
  } else if (isJsonObject(v)) {
    if ((f.type === 'object' || f.type === 'any') && f.embeddedResource) embedded(v, path, errs);
    if (f.type === 'map') for (const [k, x] of Object.entries(v)) value(x, f.values, `${path}[${k}]`, depth + 1, errs);
    else if (f.type === 'object') object(v, f.ref(), path, depth + 1, errs);
  }
}

function object(v: Record<string, unknown>, schema: ObjectSchema, path: string, depth: number, errs: FieldError[]): void {
  if (!schema.unstructured) return;
  for (const [k, x] of Object.entries(v)) {
    if (own(schema.fields, k)) value(x, schema.fields[k]!, path ? `${path}.${k}` : k, depth, errs);
  }
}

/** The errors of every embedded resource in a custom resource (not of the root). */
export function validateEmbeddedResources(schema: ObjectSchema, obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  if (isJsonObject(obj)) object(obj, schema, '', 0, errs);
  return errs;
}
