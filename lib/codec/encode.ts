// Response encoders. JSON matches Go's encoding/json output (HTML-safe escapes, a trailing
// newline from json.Encoder; pretty = MarshalIndent with two spaces and no newline). YAML
// matches sigs.k8s.io/yaml's JSONToYAML: keys in yaml.v2 order, block style, no line
// wrapping, quotes only where needed (double when the text would read as another type,
// single when it is merely not plain-safe).
import { DEFAULT_SCALAR_STYLE_RULES, DUMP_SCHEMA, dump, SCALAR_STYLE, ScalarLayout, visit } from 'js-yaml';
import { compareYAMLKeys } from './yamlKeyOrder';

const htmlUnsafe = /[<>&\u2028\u2029]/g;

function goEscapes(s: string): string {
  return s.replace(htmlUnsafe, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON text of a value; `pretty` gives upstream's `?pretty=true` form. */
export function encodeJSON(value: unknown, pretty = false): string {
  const text = JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null';
  return pretty ? goEscapes(text) : `${goEscapes(text)}\n`;
}

interface ImplicitResolver {
  resolveImplicitScalarTag(source: string): { tag: { tagName: string } };
}
const strTagName = 'tag:yaml.org,2002:str';

/** Whether a plain scalar with this text would load as something other than a string. */
function readsAsOtherType(text: string): boolean {
  const schema = DUMP_SCHEMA as unknown as Partial<ImplicitResolver>;
  if (typeof schema.resolveImplicitScalarTag !== 'function') return true;
  return schema.resolveImplicitScalarTag(text).tag.tagName !== strTagName;
}

/** yaml.v2's choice among quote styles, applied after the default rules. */
function goQuoteStyle(layout: ScalarLayout): void {
  if (layout.style !== SCALAR_STYLE.SINGLE_QUOTED && layout.style !== SCALAR_STYLE.DOUBLE_QUOTED) return;
  if (layout.node.tag !== strTagName) return;
  const text = layout.node.value;
  const printable = /^[\x20-\x7e\u00a1-\uffff]*$/.test(text) && !/[\u2028\u2029\ufeff]/.test(text);
  const single = (layout.allowedStylesMask & (1 << SCALAR_STYLE.SINGLE_QUOTED)) !== 0;
  if (text !== '' && printable && single && !readsAsOtherType(text)) layout.style = SCALAR_STYLE.SINGLE_QUOTED;
  else layout.style = SCALAR_STYLE.DOUBLE_QUOTED;
}

/** YAML text of a value. */
export function encodeYAML(value: unknown): string {
  return dump(value, {
    schema: DUMP_SCHEMA,
    lineWidth: -1,
    noRefs: true,
    seqNoIndent: true,
    quoteStyle: 'double',
    transform: (docs) =>
      visit(docs, (node) => {
        if (node.kind === 'mapping')
          node.items.sort((a, b) =>
            compareYAMLKeys(a.key.kind === 'scalar' ? a.key.value : '', b.key.kind === 'scalar' ? b.key.value : ''),
          );
      }),
    scalarStyleRules: [...Object.values(DEFAULT_SCALAR_STYLE_RULES), goQuoteStyle],
  });
}

/** Go's json.Marshal: compact, HTML-safe, no trailing newline (OpenAPI documents, hashes). */
export function marshalJSON(value: unknown): string {
  return goEscapes(JSON.stringify(value) ?? 'null');
}
