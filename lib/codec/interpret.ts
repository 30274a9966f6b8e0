// The first look upstream takes at a body (SimpleMetaFactory.Interpret): apiVersion and
// kind read with the standard, case-insensitive Go decoder, then the group/version split.
import type { GoJsonNode } from '../machinery/goJson';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** reflect's spelling of the anonymous struct upstream decodes into. */
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

export class InterpretError extends Error {}

/** apiVersion/kind of a document; throws InterpretError with upstream's text. */
export function interpretKind(root: GoJsonNode): GroupVersionKind {
  let apiVersion = '';
  let kind = '';
  if (root.kind === 'object') {
    let firstError: string | undefined;
    for (const { key: k, value: v } of root.members) {
      // encoding/json matches field names case-insensitively.
      const name = k.toLowerCase() === 'apiversion' ? 'apiVersion' : k.toLowerCase() === 'kind' ? 'kind' : undefined;
      if (!name || v.kind === 'null') continue;
      if (v.kind !== 'string') {
        firstError ??= `json: cannot unmarshal ${v.kind} into Go struct field .${name} of type string`;
        continue;
      }
      if (name === 'apiVersion') apiVersion = v.value;
      else kind = v.value;
    }
    if (firstError) throw new InterpretError(`couldn't get version/kind; json parse error: ${firstError}`);
  } else if (root.kind !== 'null') {
    throw new InterpretError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${root.kind} into Go value of type ${findKindType}`);
  }
  return { ...parseGroupVersion(apiVersion), kind };
}

/** schema.ParseGroupVersion. */
export function parseGroupVersion(gv: string): { group: string; version: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  throw new InterpretError(`unexpected GroupVersion string: ${gv}`);
}

/** GroupVersion.String(). */
export function groupVersionString(gv: { group: string; version: string }): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** Fills what the body left out from the endpoint's kind (json serializer gvkWithDefaults). */
export function withDefaults(actual: GroupVersionKind, def: GroupVersionKind): GroupVersionKind {
  const out = { ...actual };
  if (!out.kind) out.kind = def.kind;
  if (!out.version && !out.group) {
    out.group = def.group;
    out.version = def.version;
  }
  if (!out.version && out.group === def.group) out.version = def.version;
  return out;
}
