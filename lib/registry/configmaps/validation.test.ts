import type { ConfigMap } from '../../api';
import { renderFieldErrorList, FieldError } from '../../machinery/fieldErrors';
import { configMapTotalSizeLimit, validateConfigMap, validateConfigMapUpdate } from './validation';

function cm(extra: Partial<ConfigMap> = {}): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, ...extra };
}

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const render = (errs: FieldError[]): string => (errs.length ? renderFieldErrorList(errs) : '');
const keyRegex = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const immutable = 'field is immutable when `immutable` is set';

describe('validateConfigMap', () => {
  const cases: [string, ConfigMap, string][] = [
    ['empty', cm(), ''],
    ['valid keys in both bags', cm({ data: { 'a.b': 'x', A_B: '', '-': 'y', '.a': 'z' }, binaryData: { 'bin-1': b64('\x00\xff') } }), ''],
    ['a space in a data key', cm({ data: { 'bad key': 'v' } }), `data[bad key]: Invalid value: "bad key": ${keyRegex}`],
    ['a slash in a binaryData key', cm({ binaryData: { 'a/b': b64('v') } }), `binaryData[a/b]: Invalid value: "a/b": ${keyRegex}`],
    ['an empty key', cm({ data: { '': 'v' } }), `data[]: Invalid value: "": ${keyRegex}`],
    ['.', cm({ data: { '.': 'v' } }), `data[.]: Invalid value: ".": must not be '.'`],
    ['..', cm({ data: { '..': 'v' } }), `data[..]: Invalid value: "..": must not be '..'`],
    ['..a', cm({ binaryData: { '..a': '' } }), `binaryData[..a]: Invalid value: "..a": must not start with '..'`],
    ['a 253-character key', cm({ data: { ['k'.repeat(253)]: 'v' } }), ''],
    ['a 254-character key', cm({ data: { ['k'.repeat(254)]: 'v' } }), `data[${'k'.repeat(254)}]: Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters`],
    ['a key in both bags', cm({ data: { k: 'v' }, binaryData: { k: b64('v') } }), 'data[k]: Invalid value: "k": duplicate of key present in binaryData'],
    ['exactly 1 MiB of data', cm({ data: { a: 'x'.repeat(configMapTotalSizeLimit) } }), ''],
    ['1 MiB + 1 byte across both bags', cm({ data: { a: 'x'.repeat(configMapTotalSizeLimit / 2) }, binaryData: { b: b64(Buffer.alloc(configMapTotalSizeLimit / 2 + 1)) } }), '[]: Too long: may not be more than 1048576 bytes'],
    ['sizes count UTF-8 bytes', cm({ data: { a: 'é'.repeat(configMapTotalSizeLimit / 2 + 1) } }), '[]: Too long: may not be more than 1048576 bytes'],
  ];
  it.each(cases)('%s', (_name, obj, expected) => {
    expect(render(validateConfigMap(obj))).toBe(expected);
  });
});

describe('validateConfigMapUpdate', () => {
  const frozen = cm({ immutable: true, data: { a: 'b' }, binaryData: { c: b64('d') } });
  const cases: [string, ConfigMap, ConfigMap, string][] = [
    ['mutable: anything changes', cm({ data: { a: 'b' } }), cm({ data: { a: 'c' }, immutable: true }), ''],
    ['mutable: immutable may go false to true and back', cm({ immutable: false }), cm({ immutable: true }), ''],
    ['immutable: metadata only', frozen, { ...structuredClone(frozen), metadata: { name: 'c', namespace: 'ns', labels: { x: 'y' } } }, ''],
    ['immutable: data changed', frozen, { ...structuredClone(frozen), data: { a: 'x' } }, `data: Forbidden: ${immutable}`],
    ['immutable: data key added', frozen, { ...structuredClone(frozen), data: { a: 'b', z: '' } }, `data: Forbidden: ${immutable}`],
    ['immutable: binaryData removed', frozen, { ...structuredClone(frozen), binaryData: undefined }, `binaryData: Forbidden: ${immutable}`],
    ['immutable: set back to false', frozen, { ...structuredClone(frozen), immutable: false }, `immutable: Forbidden: ${immutable}`],
    ['immutable: unset', frozen, { ...structuredClone(frozen), immutable: undefined, data: {} }, `[immutable: Forbidden: ${immutable}, data: Forbidden: ${immutable}]`],
    ['immutable: an empty bag equals an absent one', cm({ immutable: true }), cm({ immutable: true, data: {}, binaryData: {} }), ''],
    ['the new object is validated too', cm(), cm({ data: { 'a b': '' } }), `data[a b]: Invalid value: "a b": ${keyRegex}`],
  ];
  it.each(cases)('%s', (_name, old, obj, expected) => {
    expect(render(validateConfigMapUpdate(obj, old))).toBe(expected);
  });
});
