import type { ApiObject } from '../api';
import { CorruptObjectError, decodeFromStorage, encodeForStorage } from './storageCodec';

const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

describe('encodeForStorage', () => {
  it.each<[string, ApiObject, string | undefined, string]>([
    ['as it is (a create)', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a', uid: 'u' } }, undefined, '{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"a","uid":"u"}}'],
    ['without resourceVersion', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a', resourceVersion: '7', uid: 'u' } }, undefined, '{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"a","uid":"u"}}'],
    ['in the storage version', { apiVersion: 'g/v2', kind: 'K', metadata: { name: 'a' } }, 'g/v1', '{"apiVersion":"g/v1","kind":"K","metadata":{"name":"a"}}'],
    ['in the storage version, without resourceVersion', { apiVersion: 'g/v2', kind: 'K', metadata: { name: 'a', resourceVersion: '9' } }, 'g/v1', '{"apiVersion":"g/v1","kind":"K","metadata":{"name":"a"}}'],
    ['without metadata', { apiVersion: 'v1', kind: 'K' }, undefined, '{"apiVersion":"v1","kind":"K"}'],
  ])('%s', (_name, obj, apiVersion, want) => {
    const before = JSON.stringify(obj);
    expect(text(encodeForStorage(obj, apiVersion))).toBe(want);
    expect(JSON.stringify(obj)).toBe(before);
  });
});

describe('decodeFromStorage', () => {
  it('sets resourceVersion from the revision', () => {
    expect(decodeFromStorage('/k', Buffer.from('{"kind":"K","metadata":{"name":"a"}}'), 12)).toEqual({ kind: 'K', metadata: { name: 'a', resourceVersion: '12' } });
  });
  it.each([
    ['not JSON', '{x', /object not decodable revision=3/],
    ['not an object', '[1]', /not a JSON object/],
    ['Protobuf', '\x6b\x38\x73\x00rest', /protobuf storage encoding is not supported/],
  ])('%s is a corrupt object', (_name, bytes, message) => {
    expect(() => decodeFromStorage('/k', Buffer.from(bytes, 'latin1'), 3)).toThrow(CorruptObjectError);
    expect(() => decodeFromStorage('/k', Buffer.from(bytes, 'latin1'), 3)).toThrow(message);
  });
});
