// A resource's serving cache: the served forms of stored revisions (decoded objects, JSON text or
// its splice into the stored bytes, binary list items), kept so that reads of an unchanged
// object neither decode nor serialise again. The store does the object lifecycle and hands
// revisions here; the encoders ask a ServedObject (or servedEncodings, by identity) for the
// encoding they need, as upstream's CachingObject hides its encodings from handlers.
import type { ApiObject, ObjectMeta, ResourceInfo } from '../api';
import { ObjectMetaSchema } from '../api';
import type { KeyValue } from '../etcd/storage';
import { emissionOrder } from '../codec/normalize';
import { RawJson } from '../codec/rawJson';
import { SplicedJson } from '../codec/splicedJson';
import { DecodedObjectMemo } from './decodedEvents';
import { listItemSplice, splicedListItem, writtenSplice } from './servedJsonSplice';
import { servedEncodings } from './servedEncodings';
import { decodeFromStorage } from './storageCodec';

export interface ServingCacheOptions {
  /** How many served JSON texts the (key, revision) memo keeps; the default fits most lists. */
  servedJsonMemoCapacity?: number;
  /** The same for decoded list items and served objects (Protobuf, CBOR, Tables, watch events). */
  decodedMemoCapacity?: number;
}

/** A served list item's JSON: its text, or the splice that rebuilds it from the stored bytes. */
type ServedJsonForm = RawJson | number;

/**
 * Served objects kept per resource as JSON text (RawJson, about the JSON's size) or as a splice
 * into the stored bytes: GETs and JSON list items of a memoised revision neither parse nor
 * serialise again. Decoded trees cost several times their JSON, so only small memos keep them:
 * list items for selectors, Tables and Protobuf, and watch events (fanned out to every watcher
 * at once).
 */
const servedJsonMemoCapacity = 20000;
const listItemMemoCapacity = 4096;
const servedMemoCapacity = 1024;

/**
 * One stored revision as a read serves it: the encoders take its compact JSON (no decoded tree
 * kept) or its shared object (whose other encodings servedEncodings keeps). A value that does
 * not decode fails with fail()'s error when first asked, before any byte is written.
 */
export class ServedObject {
  private obj: ApiObject | undefined;

  constructor(
    private readonly cache: ServingCache,
    private readonly kv: KeyValue,
    private readonly fail: (e: unknown) => never,
  ) {}

  /** The typed, normalised object, frozen and shared with watch events and other reads of the revision. */
  get object(): ApiObject {
    if (this.obj) return this.obj;
    try {
      return (this.obj = this.cache.object(this.kv));
    } catch (e) {
      this.fail(e);
    }
  }

  /** Its compact JSON, from the stored bytes or the memoised text. */
  json(): RawJson | SplicedJson {
    try {
      return this.cache.json(this.kv);
    } catch (e) {
      this.fail(e);
    }
  }
}

export class ServingCache {
  /** Served objects (typed, normalised) of watch events, shared read-only by every watcher, and GETs not written as compact JSON. */
  private readonly servedMemo: DecodedObjectMemo;
  /** GETs and list items written as compact JSON: the served object's JSON text, or its splice into the stored bytes. */
  private readonly servedJsonMemo: DecodedObjectMemo<ServedJsonForm>;
  /** Decoded list items (selectors, Tables, lists in YAML or pretty JSON). */
  private readonly listMemo: DecodedObjectMemo;
  /**
   * Binary list items per KeyValue of the watch cache, for as long as it holds that revision, as
   * the JSON form is: Protobuf and CBOR lists of more objects than the bounded memo stay linear,
   * and an object read that way costs its encoding, not its tree.
   */
  private readonly encodedByValue = new Map<string, WeakMap<KeyValue, object>>();
  /**
   * Served objects of the watch cache's own KeyValues read as objects (Protobuf, CBOR, Table
   * GETs), kept while the cache holds them so the encodings kept by identity hit.
   */
  private readonly servedByValue = new WeakMap<KeyValue, ApiObject>();
  /**
   * The served JSON form of the watch cache's own KeyValues, for as long as the cache holds them:
   * a full list of more objects than the bounded memo holds would otherwise decode every item
   * again (measured: a 40k-object list took 8.5× a 10k one). KeyValues read from etcd are new
   * objects each time, so their entries go with them.
   */
  private readonly servedJsonByValue = new WeakMap<KeyValue, ServedJsonForm>();
  /** `{"kind":"…","apiVersion":"…"`, as the served object's JSON begins (kind first, as upstream). */
  private readonly typeMetaJsonHead: string;
  /** typeMetaJsonHead and its comma as bytes, as the stored text of the served version begins. */
  private readonly typeMetaHeadBytes: Buffer;

  /** typed: the store's withTypeMeta (apiVersion and kind of the served version, normalised). */
  constructor(
    resource: ResourceInfo,
    private readonly typed: (obj: ApiObject) => ApiObject,
    opts: ServingCacheOptions = {},
  ) {
    this.servedJsonMemo = new DecodedObjectMemo<ServedJsonForm>(opts.servedJsonMemoCapacity ?? servedJsonMemoCapacity);
    this.servedMemo = new DecodedObjectMemo(opts.decodedMemoCapacity ?? servedMemoCapacity);
    this.listMemo = new DecodedObjectMemo(opts.decodedMemoCapacity ?? listItemMemoCapacity);
    const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
    this.typeMetaJsonHead = `{"kind":${JSON.stringify(resource.kind)},"apiVersion":${JSON.stringify(apiVersion)}`;
    this.typeMetaHeadBytes = Buffer.from(`${this.typeMetaJsonHead},`);
  }

  /** A read's revision as served; fail translates a value that does not decode. */
  served(kv: KeyValue, fail: (e: unknown) => never): ServedObject {
    return new ServedObject(this, kv, fail);
  }

  /** The served object of a read: decoded once per revision, shared read-only with watch events and other reads. */
  object(kv: KeyValue): ApiObject {
    let obj = this.servedByValue.get(kv);
    if (!obj) this.servedByValue.set(kv, (obj = this.forWatch(kv.key, kv.value, kv.modRevision)));
    return obj;
  }

  /** A served (typed, normalised) object for a watch event, shared read-only between watchers. */
  forWatch(key: string, value: Uint8Array, revision: number): ApiObject {
    return this.servedMemo.get(key, revision, () => this.typed(decodeFromStorage(key, value, revision)));
  }

  /**
   * A list item (no kind/apiVersion, as in typed lists), shared read-only between lists while it
   * stays in the bounded memo: decoded trees cost several times their JSON, so none is kept per
   * cached value (a Protobuf or CBOR list keeps the item's encoding instead, encodedListItem).
   */
  listItem(kv: KeyValue): ApiObject {
    return this.listMemo.get(kv.key, kv.modRevision, () => {
      const { apiVersion: _a, kind: _k, ...rest } = decodeFromStorage(kv.key, kv.value, kv.modRevision);
      return rest as ApiObject;
    });
  }

  /** A list item in a binary encoding (`format`), kept per KeyValue of the watch cache for as long as it holds that revision. */
  encodedListItem(kv: KeyValue, format: string, encode: (item: ApiObject) => object): object {
    let byValue = this.encodedByValue.get(format);
    if (!byValue) this.encodedByValue.set(format, (byValue = new WeakMap()));
    let form = byValue.get(kv);
    if (!form) byValue.set(kv, (form = encode(this.listItem(kv))));
    return form;
  }

  /**
   * A list item as JSON text, for lists written as JSON: the served object without kind and
   * apiVersion (upstream's field order), memoised by revision; no decoded tree is kept. Where the
   * stored bytes reproduce it (servedJsonSplice.ts: objects this server wrote), only the splice
   * is kept and the text is rebuilt from them on each read, so a cached object costs its stored
   * bytes and not a second copy as text.
   */
  listItemJson(kv: KeyValue): RawJson | SplicedJson {
    let form = this.servedJsonByValue.get(kv);
    if (form === undefined) {
      form = this.servedJsonMemo.get(kv.key, kv.modRevision, () => this.servedJsonForm(kv));
      this.servedJsonByValue.set(kv, form);
    }
    return typeof form === 'number' ? splicedListItem(kv.value, form, kv.modRevision) : form;
  }

  private servedJsonForm(kv: KeyValue): ServedJsonForm {
    const { kind: _k, apiVersion: _a, ...rest } = this.typed(decodeFromStorage(kv.key, kv.value, kv.modRevision));
    const json = JSON.stringify(rest);
    return listItemSplice(kv.value, json, kv.modRevision) ?? new RawJson(json);
  }

  /**
   * The served (typed, normalised) object's compact JSON: TypeMeta, then the list item's members;
   * straight from the stored bytes when they begin with the served TypeMeta (not when the kind
   * is stored in another version).
   */
  json(kv: KeyValue): RawJson | SplicedJson {
    const listItem = this.listItemJson(kv);
    if (listItem instanceof SplicedJson) {
      const whole = listItem.withHead(this.typeMetaHeadBytes);
      if (whole) return whole;
    }
    return this.withTypeMetaHead(listItem.json);
  }

  private withTypeMetaHead(item: string): RawJson {
    return new RawJson(item === '{}' ? `${this.typeMetaJsonHead}}` : `${this.typeMetaJsonHead},${item.slice(1)}`);
  }

  /**
   * The object a write stored, as a read of that revision serves it (resourceVersion in its
   * ObjectMeta place), with its compact JSON kept as the write's response
   * (servedEncodings.writtenJson). An update's text also replaces the previous revision's in the
   * served-JSON memo: the read-modify-write client's next GET neither decodes nor serialises it,
   * and the memo holds no more than reads would have left. A create's is not kept (the memo
   * fills with what is read, not all writes).
   */
  written(obj: ApiObject, kv: KeyValue, previousRevision?: number): ApiObject {
    const served = { ...obj, metadata: withResourceVersion(obj.metadata ?? {}, String(kv.modRevision)) };
    // Most writes: the response is the stored bytes with resourceVersion put in, found without
    // serialising the object a second time.
    const splice = writtenSplice(kv.value, obj);
    const whole = splice === undefined ? undefined : splicedListItem(kv.value, splice, kv.modRevision).withHead(this.typeMetaHeadBytes);
    if (whole) {
      if (previousRevision !== undefined) {
        this.servedJsonMemo.get(kv.key, kv.modRevision, () => splice!);
        this.servedJsonMemo.delete(kv.key, previousRevision);
      }
      servedEncodings.writtenJson.keep(served, whole);
      return served;
    }
    const { kind: _k, apiVersion: _a, ...rest } = served;
    const item = JSON.stringify(rest);
    if (previousRevision !== undefined) {
      // The memo keeps the compact form (a splice offset into the stored bytes) where it applies.
      this.servedJsonMemo.get(kv.key, kv.modRevision, () => listItemSplice(kv.value, item, kv.modRevision) ?? new RawJson(item));
      this.servedJsonMemo.delete(kv.key, previousRevision);
    }
    servedEncodings.writtenJson.keep(served, this.withTypeMetaHead(item));
    return served;
  }
}

/** The compact JSON of an object create() or update() just returned, while the caller has not changed it. */
export function writtenJson(obj: ApiObject): RawJson | SplicedJson | undefined {
  return servedEncodings.writtenJson.peek(obj);
}

/** ObjectMeta (normalised: its keys in emission order) with resourceVersion set in its own place. */
function withResourceVersion(meta: ObjectMeta, resourceVersion: string): ObjectMeta {
  const m = meta as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of emissionOrder(ObjectMetaSchema)) {
    if (name === 'resourceVersion') out[name] = resourceVersion;
    else if (m[name] !== undefined && Object.prototype.hasOwnProperty.call(m, name)) out[name] = m[name];
  }
  return out as ObjectMeta;
}
