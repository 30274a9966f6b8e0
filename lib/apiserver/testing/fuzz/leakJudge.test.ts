import { judgeAnswer } from './leakJudge';

const status = (code: number, message: string, reason?: string): Buffer =>
  Buffer.from(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), code }));

describe('judgeAnswer', () => {
  test.each<[string, string]>([
    ['a TypeError', "Internal error occurred: Cannot create property 'managedFields' on number '0.5'"],
    ['a missing method', 'x.map is not a function'],
    ['a read of undefined', "Cannot read properties of undefined (reading 'a')"],
    ['JSON.parse', 'Unexpected end of JSON input'],
    ['the stack', 'Maximum call stack size exceeded'],
    ['an infinity spelled by JavaScript', 'unknown field "Infinity"'],
    ['an object printed raw', 'invalid value [object Object]'],
    ['a stack frame', 'boom\n    at merge (/srv/lib/machinery/merge.js:10:5)'],
  ])('flags JavaScript text: %s', (_name, message) => {
    expect(judgeAnswer('merge-patch', { status: 422, headers: {}, body: status(422, message, 'Invalid') })).toMatch(/JavaScript text/);
    expect(judgeAnswer('create', { status: 201, headers: { warning: `299 - "${message}"` }, body: Buffer.from('{}') })).toMatch(/JavaScript text in a warning/);
  });

  test.each<[string, string]>([
    ["cel-go's undefined field", "compilation failed: ERROR: <input>:1:8: undefined field 'fo'"],
    ["Go's NaN", 'error decoding patch: error converting YAML to JSON: json: unsupported value: NaN'],
    ["Go's infinities", 'json: unsupported value: +Inf'],
    ["a Go decoder's text", 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string'],
  ])('passes upstream text: %s', (_name, message) => {
    expect(judgeAnswer('merge-patch', { status: 400, headers: {}, body: status(400, message, 'BadRequest') })).toBeNull();
  });

  test.each<[string, Parameters<typeof judgeAnswer>[0], string, string | undefined, boolean]>([
    ['apply: the typed conversion of the configuration', 'apply-yaml', 'failed to create typed patch object (/x; /v1, Kind=ConfigMap): .metadata: expected map, got &{0.5}', undefined, true],
    ['apply: the typed conversion of the live object', 'apply-cbor', 'failed to create typed live object (ns/x; /v1, Kind=ServiceAccount): .secrets: element 0: associative list with keys may not have a null element', undefined, true],
    ['strategic merge: a strategicpatch error', 'strategic-merge-patch', 'map: map[value:b] does not contain declared merge key: name', undefined, true],
    ['strategic merge: a panic', 'strategic-merge-patch', 'This request caused apiserver to panic. Look in the logs for details.', undefined, true],
    ['a strategicpatch text for another patch type', 'merge-patch', 'map: map[value:b] does not contain declared merge key: name', undefined, false],
    ['a listed text with a reason', 'apply-yaml', 'failed to create typed patch object (/x; /v1, Kind=ConfigMap): .a: field not declared in schema', 'InternalError', false],
    ['an internal error', 'update', 'Internal error occurred: boom', 'InternalError', false],
  ])('500, %s: allowed %p', (_name, type, message, reason, allowed) => {
    const why = judgeAnswer(type, { status: 500, headers: {}, body: status(500, message, reason) });
    if (allowed) expect(why).toBeNull();
    else expect(why).toMatch(/^status 500/);
  });

  test('an answer that is not a Status is a finding; a success is not', () => {
    expect(judgeAnswer('update', { status: 400, headers: {}, body: Buffer.from('oops') })).toMatch(/not JSON/);
    expect(judgeAnswer('update', { status: 200, headers: {}, body: Buffer.from('{}') })).toBeNull();
  });
});
