// The JSON data model the machinery works on (decoded bodies, patches, stored objects).

export type JsonPrimitive = null | boolean | number | string;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** Own-property read: a key such as "__proto__" must never reach the prototype. */
export function getOwn(o: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

export function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** Own-property write that is safe for any key, "__proto__" included. */
export function setOwn(o: object, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (o as Record<string, unknown>)[key] = value;
  }
}

// Values built once and never changed afterwards (encoded FieldsV1 trees): copies of an object
// may share them instead of cloning them again (normalize's copy of "any" fields). Not frozen:
// freezing every node cost more than the copies it saves; nothing writes into such a value.
const shared = new WeakSet<object>();

/** Marks a JSON value that no one changes after this call, so copies of its holder may share it. */
export function shareableJson<T extends JsonValue>(v: T): T {
  if (typeof v === 'object' && v !== null) shared.add(v);
  return v;
}

export function isShareableJson(v: unknown): boolean {
  return typeof v === 'object' && v !== null && shared.has(v);
}
