// How objects are stored: JSON bytes without resourceVersion (DESIGN.md §2.1, §2.6).
// The decoder recognises each encoding by its first bytes so the storage media type can change
// without a migration; JSON is the only one written today.
import type { ApiObject } from '../api';

const protobufMagic = [0x6b, 0x38, 0x73, 0x00];
const cborSelfDescribe = [0xd9, 0xd9, 0xf7];

/**
 * A stored value that cannot be decoded: upstream's StorageError with ErrCodeCorruptObj (7)
 * wrapping its corruptObjectError ("object not decodable revision=N: …"), worded as they are.
 */
export class CorruptObjectError extends Error {
  constructor(
    readonly key: string,
    readonly revision: number,
    readonly reason: string,
  ) {
    super(`StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${revision}: ${reason}`);
    this.name = 'CorruptObjectError';
  }
}

/** `apiVersion`: the storage version when a kind is served in several versions (ResourceInfo.storageVersion). */
export function encodeForStorage(obj: ApiObject, apiVersion?: string): Uint8Array {
  // A create's object has no resourceVersion and its own apiVersion: written as it is, uncopied.
  if (!apiVersion && obj.metadata?.resourceVersion === undefined) return Buffer.from(JSON.stringify(obj));
  const copy: ApiObject = { ...obj };
  if (apiVersion) copy.apiVersion = apiVersion;
  if (copy.metadata) {
    const { resourceVersion: _rv, ...rest } = copy.metadata;
    copy.metadata = rest;
  }
  return Buffer.from(JSON.stringify(copy));
}

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return b.length >= prefix.length && prefix.every((x, i) => b[i] === x);
}

/** Decodes stored bytes and sets metadata.resourceVersion from the key's modRevision. */
export function decodeFromStorage(key: string, bytes: Uint8Array, modRevision: number): ApiObject {
  if (startsWith(bytes, protobufMagic)) throw new CorruptObjectError(key, modRevision, 'protobuf storage encoding is not supported by this server');
  if (startsWith(bytes, cborSelfDescribe)) throw new CorruptObjectError(key, modRevision, 'CBOR storage encoding is not supported by this server');
  let obj: unknown;
  try {
    obj = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (e) {
    throw new CorruptObjectError(key, modRevision, (e as Error).message);
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new CorruptObjectError(key, modRevision, 'not a JSON object');
  const o = obj as ApiObject;
  o.metadata = { ...(o.metadata ?? {}), resourceVersion: String(modRevision) };
  return o;
}
