// What a response to a malformed write must not be: JavaScript's own error text in any form, or
// a 500 that upstream would not answer. The 500s kube-apiserver 1.32 does answer for a client's
// body are listed here one by one, each with the upstream code that answers it.
import type { BodyType } from './writeRequests';

/** Texts only a JavaScript exception (or a JavaScript value printed raw) produces. */
export const javascriptErrorText: readonly RegExp[] = [
  /\b(Type|Range|Reference|Syntax|Eval|URI|Aggregate|Internal)Error\b/,
  /Cannot (read|set|create|assign to|delete|convert|destructure|access)\b/,
  /\bis not (a function|a constructor|iterable|defined|an object)\b/,
  // cel-go's own "undefined field 'x'" is upstream's text.
  /\bundefined\b(?! field ')/,
  /\[object \w+\]/,
  // Go writes NaN as NaN too, but infinities as +Inf and -Inf.
  /\bInfinity\b/,
  /Maximum call stack size exceeded/,
  /Invalid (array|string|typed array) length/,
  // JSON.parse's texts.
  /in JSON at position|after JSON at position|is not valid JSON|Unexpected end of JSON input/,
  /Converting circular structure|Do not know how to serialize a BigInt/,
  /\bat \S+ \(\S+:\d+:\d+\)|\.[jt]s:\d+:\d+/,
];

/** A 500 kube-apiserver answers to a client's body too, with this message. */
export interface UpstreamInternalError {
  name: string;
  /** Where upstream returns it as a plain error (rendered as a 500 without a reason). */
  upstream: string;
  bodyTypes: readonly BodyType[];
  message: RegExp;
}

export const upstreamInternalErrors: readonly UpstreamInternalError[] = [
  {
    name: 'apply: the configuration does not convert to the kind\'s typed value',
    upstream: 'apiserver endpoints/handlers/fieldmanager → managedfields/internal/structuredmerge.go Apply: "failed to create typed patch object (%v): %v"',
    bodyTypes: ['apply-yaml', 'apply-json', 'apply-cbor'],
    message: /^failed to create typed patch object \([^()]*\): /,
  },
  {
    name: 'apply: the stored object does not convert to a typed value (a list-map item without its key, written by another patch type)',
    upstream: 'apimachinery util/managedfields/internal/structuredmerge.go Apply: "failed to create typed live object (%v): %v" (ObjectToTyped with AllowDuplicates)',
    bodyTypes: ['apply-yaml', 'apply-json', 'apply-cbor'],
    message: /^failed to create typed live object \([^()]*\): /,
  },
  {
    name: 'strategic merge patch: a strategicpatch error interpretStrategicMergePatchError passes through',
    upstream: 'apiserver endpoints/handlers/patch.go interpretStrategicMergePatchError (default branch) over apimachinery util/strategicpatch/patch.go',
    bodyTypes: ['strategic-merge-patch'],
    message: new RegExp(
      '^(' +
        [
          'map: map\\[.*\\] does not contain declared merge key: ',
          'unknown patch type: ',
          'merging lists cannot yet be specified in the patch',
          'expected a .+, but received a ',
          'list element types are not identical: ',
          'no elements in any of the given slices',
          'cannot merge lists without merge key for ',
          'value for key \\d+ is not a map',
          'The order in patch list:\\n',
          'unable to find api field in struct \\S* for the json field ',
          'expected slice or array type, but got: ',
          'merging an object in json but data type is not struct, instead is: ',
        ].join('|') +
        ')',
      's',
    ),
  },
  {
    name: 'strategic merge patch: strategicpatch panics (a map or list among a primitive list\'s items, a null first item)',
    upstream: 'apimachinery util/strategicpatch/patch.go partitionPrimitivesByPresentInList (map[interface{}]bool index) and sliceElementType (reflect.TypeOf(nil).Kind()); apiserver server/filters/wrap.go WithPanicRecovery answers',
    bodyTypes: ['strategic-merge-patch'],
    message: /^This request caused apiserver to panic\. Look in the logs for details\.$/,
  },
];

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The Status of an error answer, or why it is not one. */
function statusOf(a: Answer): { code?: unknown; reason?: unknown; message?: unknown } | string {
  try {
    const v = JSON.parse(a.body.toString('utf8')) as unknown;
    if (typeof v !== 'object' || v === null || (v as { kind?: unknown }).kind !== 'Status') return `not a Status: ${a.body.toString('utf8').slice(0, 200)}`;
    return v as { code?: unknown; reason?: unknown; message?: unknown };
  } catch {
    return `not JSON: ${a.body.toString('utf8').slice(0, 200)}`;
  }
}

/** The upstream 500 a Status is (code 500, no reason, one of the listed texts), if any. */
export function upstreamInternalStatus(bodyType: BodyType, s: { code?: unknown; reason?: unknown; message?: unknown }): UpstreamInternalError | undefined {
  if (s.code !== 500 || s.reason !== undefined || typeof s.message !== 'string') return undefined;
  const message = s.message;
  return upstreamInternalErrors.find((u) => u.bodyTypes.includes(bodyType) && u.message.test(message));
}

/** The upstream 500 this (JSON) answer is, if any. */
export function upstreamInternalError(bodyType: BodyType, a: Answer): UpstreamInternalError | undefined {
  if (a.status !== 500) return undefined;
  const s = statusOf(a);
  return typeof s === 'string' ? undefined : upstreamInternalStatus(bodyType, s);
}

/**
 * JavaScript text the fuzz reaches that is not the patch path's: reported, owned elsewhere.
 * cel-js reads an out-of-range number literal in a CEL expression ("1E400", which YAML and
 * therefore apply keep as a string, as upstream does) as Infinity and says so; cel-go answers
 * "invalid double literal". lib/cel's parse errors are cel-js's texts throughout.
 */
export const outOfScopeJavascriptText: readonly RegExp[] = [/compilation failed: Invalid number: -?Infinity\b/];

/** What is wrong with an answer to a fuzzed write, or null. */
export function judgeAnswer(bodyType: BodyType, a: Answer): string | null {
  // Warnings (unknown and duplicate fields) name the body's keys: never JavaScript's words either.
  const warning = [a.headers.warning ?? []].flat().join('\n');
  const jsWarning = javascriptErrorText.find((re) => re.test(warning));
  if (jsWarning) return `status ${a.status}, JavaScript text in a warning (${jsWarning.source}): ${warning.slice(0, 300)}`;
  if (a.status < 400) return null;
  const s = statusOf(a);
  if (typeof s === 'string') return `status ${a.status}, ${s}`;
  if (s.code !== a.status) return `status ${a.status} with Status.code ${JSON.stringify(s.code)}`;
  const message = typeof s.message === 'string' ? s.message : '';
  const js = javascriptErrorText.find((re) => re.test(message));
  if (js && !outOfScopeJavascriptText.some((re) => re.test(message))) return `status ${a.status}, JavaScript text (${js.source}): ${message.slice(0, 300)}`;
  if (a.status >= 500 && !upstreamInternalError(bodyType, a)) return `status ${a.status}: ${message.slice(0, 300)}`;
  return null;
}
