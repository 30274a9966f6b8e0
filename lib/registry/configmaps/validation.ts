// Upstream's ValidateConfigMap and ValidateConfigMapUpdate (pkg/apis/core/validation): keys
// are config-map keys, a key lives in data or binaryData (not both), the values together fit
// in 1 MiB, and an immutable ConfigMap keeps its data and stays immutable.
import type { ConfigMap } from '../../api';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { isConfigMapKey } from '../../machinery/validation/names';

/** Upstream's core.MaxSecretSize, shared by ConfigMaps: the sum of all values' bytes. */
export const configMapTotalSizeLimit = 1024 * 1024;

const immutableDetail = 'field is immutable when `immutable` is set';

/** Go's field.NewPath("").Key(k) rendering is `data[k]`: the key is printed raw. */
function keyPath(bag: string, key: string): string {
  return `${bag}[${key}]`;
}

function keyErrors(bag: string, key: string): FieldError[] {
  return isConfigMapKey(key).map((msg) => fieldErr.invalid(keyPath(bag, key), key, msg));
}

export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  const data = cm.data ?? {};
  const binary = cm.binaryData ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    errs.push(...keyErrors('data', key));
    if (Object.hasOwn(binary, key)) errs.push(fieldErr.invalid(keyPath('data', key), key, 'duplicate of key present in binaryData'));
    total += Buffer.byteLength(value ?? '', 'utf8');
  }
  for (const [key, value] of Object.entries(binary)) {
    errs.push(...keyErrors('binaryData', key));
    total += Buffer.from(value ?? '', 'base64').length;
  }
  // Upstream reports the whole object with an empty path element, which Go renders as "[]".
  if (total > configMapTotalSizeLimit) errs.push(fieldErr.tooLong('[]', configMapTotalSizeLimit));
  return errs;
}

/** Equality of two bags, an absent bag being the empty one (storage drops empty maps). */
function sameBag(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(b ?? {}, k) && (b ?? {})[k] === (a ?? {})[k]);
}

export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(fieldErr.forbidden('immutable', immutableDetail));
    if (!sameBag(cm.data, old.data)) errs.push(fieldErr.forbidden('data', immutableDetail));
    if (!sameBag(cm.binaryData, old.binaryData)) errs.push(fieldErr.forbidden('binaryData', immutableDetail));
  }
  return [...errs, ...validateConfigMap(cm)];
}
