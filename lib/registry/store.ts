// The generic store: create/get/update/delete for any resource, driven by its Strategy
// (upstream's genericregistry.Store). Lists and watches live in list.ts and watch.ts.
import { apiVersionOf, type ApiObject, type DeleteOptions, type ResourceInfo, type Status } from '../api';
import { errors, ApiError, GroupResource, GroupKind } from '../machinery/errors';
import type { FieldError } from '../machinery/fieldErrors';
import { validateObjectMeta, validateObjectMetaUpdate } from '../machinery/validation/objectMeta';
import type { KeyValue, Storage } from '../etcd/storage';
import { KeyExistsError } from '../etcd/storage';
import { KeyLayout } from './keys';
import { decodeFromStorage, encodeForStorage } from './storageCodec';
import { translateStorageError } from './storageErrors';
import type { RequestContext, Strategy, UpdateStrategy } from './strategy';
import { withSchemaMarkers } from './schemaMarkers';
import { carryUpdateFields, fillCreateFields, formatTime, generateName } from './systemFields';
import { normalize } from '../codec/normalize';
import { ServingCache, type ServedObject, type ServingCacheOptions } from './servingCache';
import type { WatchCache } from '../watchcache';
import { waitForRevision } from './revisionWait';
import type { WriteScope } from '../machinery/managedFields';
import { applyOwnership, markManagedFieldsReset, ownershipScope, recordOwnership } from './fieldOwnership';

/** Validating admission, called after the strategy's validation (DESIGN.md §3). */
export type ValidatingAdmission = (
  ctx: RequestContext,
  operation: 'CREATE' | 'UPDATE' | 'DELETE',
  obj: ApiObject,
  old: ApiObject | null,
  store: GenericStore,
) => Promise<void>;

export interface StoreOptions extends ServingCacheOptions {
  /** Where writes and uncached reads go: the watch cache when there is one (it delegates writes). */
  storage: Storage;
  /** The resource's watch cache (the same object as storage), for the API's cached read semantics. */
  cache?: WatchCache;
  strategy: Strategy;
  /** etcd key prefix, default /registry. */
  prefix: string;
}

/**
 * What a write is checked with besides its strategy, per call (upstream's store takes
 * createValidation, updateValidation and deleteValidation with each call): the caller's
 * admission chain, absent for writes no admission sees.
 */
export interface AdmissionOptions {
  admission?: ValidatingAdmission;
}

/** Produces the new object from the current one (PUT body, or a patch applied to current). */
export type UpdatedObjectInfo = (current: ApiObject | null) => ApiObject | Promise<ApiObject>;

const ignoresCurrent = new WeakSet<UpdatedObjectInfo>();

/** The UpdatedObjectInfo of a PUT: the body, whatever is stored (the store need not copy the current object for it). */
export function replacementWith(body: ApiObject): UpdatedObjectInfo {
  const info: UpdatedObjectInfo = () => body;
  ignoresCurrent.add(info);
  return info;
}

export interface DeleteResult {
  /** What the DELETE answers: the object (still stored, or deleted) or a Status. */
  body: ApiObject | Status;
  /** False when the object is only marked for deletion (finalizers pending). */
  deleted: boolean;
}

const generateNameAttempts = 8;

export class GenericStore {
  readonly resource: ResourceInfo;
  readonly strategy: Strategy;
  readonly keys: KeyLayout;
  readonly storage: Storage;
  readonly cache?: WatchCache;
  /** The served forms of stored revisions, which lists, watches and the encoders read. */
  readonly serving: ServingCache;

  constructor(opts: StoreOptions) {
    // The schema's serverSet and immutable markers hold for every kind and endpoint.
    this.strategy = withSchemaMarkers(opts.strategy);
    this.resource = opts.strategy.resource;
    this.keys = new KeyLayout(opts.prefix, this.resource);
    this.storage = opts.storage;
    this.cache = opts.cache;
    this.serving = new ServingCache(this.resource, (obj) => this.withTypeMeta(obj), opts);
  }

  get groupResource(): GroupResource {
    return { group: this.resource.group, resource: this.resource.resource };
  }
  get groupKind(): GroupKind {
    return { group: this.resource.group, kind: this.resource.kind };
  }

  /** Sets apiVersion/kind, as every object served or stored carries them. */
  withTypeMeta(obj: ApiObject): ApiObject {
    const apiVersion = this.resource.group ? `${this.resource.group}/${this.resource.version}` : this.resource.version;
    const { apiVersion: _a, kind: _k, ...rest } = obj;
    return normalize({ apiVersion, kind: this.resource.kind, ...rest }, this.resource.schema);
  }

  /** Storage bytes, in the storage version when this store serves another version of the kind. */
  private encode(obj: ApiObject): Uint8Array {
    const v = this.resource.storageVersion;
    return encodeForStorage(obj, v ? apiVersionOf({ group: this.resource.group, version: v }) : undefined);
  }

  decode(kv: KeyValue): ApiObject {
    return decodeFromStorage(kv.key, kv.value, kv.modRevision);
  }

  private keyFor(ctx: RequestContext, name: string): string {
    return this.keys.object(this.resource.namespaced ? ctx.namespace : '', name);
  }

  private fail(e: unknown, name: string, op: string): never {
    throw translateStorageError(e, this.groupResource, name, op);
  }

  // ---- get ----------------------------------------------------------------------------------

  /**
   * Served by the watch cache when there is one (spec §4.5 item 6): without a read option as
   * Most Recent (the cache once it reached etcd's current revision, read by a shared quorum
   * read; etcd itself where the cache cannot tell), `any` and `minRevision` as the API says.
   */
  async get(ctx: RequestContext, name: string, read: { any?: boolean; minRevision?: number } = {}): Promise<ApiObject> {
    return this.decodeOrFail(await this.readKv(ctx, name, read), name);
  }

  /**
   * get() as served to a client: the revision's served forms, which the encoders ask for the
   * encoding they write (serving cache: decoded and serialised once per revision while kept).
   */
  async getServed(ctx: RequestContext, name: string, read: { any?: boolean; minRevision?: number } = {}): Promise<ServedObject> {
    const kv = await this.readKv(ctx, name, read);
    return this.serving.served(kv, (e) => this.fail(e, name, 'get'));
  }

  private async readKv(ctx: RequestContext, name: string, read: { any?: boolean; minRevision?: number }): Promise<KeyValue> {
    const key = this.keyFor(ctx, name);
    let res;
    try {
      if (this.cache) {
        res = await this.cache.getFromCache(key, { minRevision: read.minRevision, consistent: !read.any && read.minRevision === undefined });
      } else {
        if (read.minRevision !== undefined) await waitForRevision(this.storage, read.minRevision);
        res = await this.storage.get(key);
      }
    } catch (e) {
      this.fail(e, name, 'get');
    }
    if (!res.kv) throw errors.notFound(this.groupResource, name);
    return res.kv;
  }

  /**
   * An object as any read of the watch cache has it (resourceVersion=0 semantics), decoded once
   * per revision and shared read-only with GETs and watch events: admission reads the request's
   * namespace for every create, and decoding it each time was a measurable part of a create.
   */
  async getShared(ctx: RequestContext, name: string): Promise<ApiObject> {
    return (await this.getServed(ctx, name, { any: true })).object;
  }

  /**
   * getShared answered at once from a ready watch cache (no promise, no turn of the event loop):
   * the object, null when the cache has no such key, undefined when only getShared can tell
   * (no cache, not ready, or a value that does not decode).
   */
  peekShared(ctx: RequestContext, name: string): ApiObject | null | undefined {
    const kv = this.cache?.peek(this.keyFor(ctx, name));
    if (!kv) return kv;
    try {
      return this.serving.object(kv);
    } catch {
      return undefined;
    }
  }

  private decodeOrFail(kv: KeyValue, name: string): ApiObject {
    try {
      return this.decode(kv);
    } catch (e) {
      this.fail(e, name, 'get');
    }
  }

  // ---- create -------------------------------------------------------------------------------

  /** Everything a create does before persisting: system fields, defaults, validation, admission. */
  private async prepareCreate(ctx: RequestContext, input: ApiObject, admission: ValidatingAdmission | undefined, applied = false): Promise<ApiObject> {
    // normalize builds a new object all the way down: the input is never touched.
    const obj = this.withTypeMeta(input);
    const meta = (obj.metadata ??= {});
    if (this.resource.namespaced) meta.namespace = ctx.namespace || meta.namespace;
    else delete meta.namespace;
    fillCreateFields(obj, ctx.now());
    this.strategy.applyDefaults?.(obj);
    const ownership = recordOwnership(ctx, this.resource, this.strategy, null, obj, applied);
    this.strategy.prepareForCreate(ctx, obj);
    applyOwnership(obj, ownership);
    if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
    this.validateCreate(ctx, obj);
    for (const w of this.strategy.warningsOnCreate?.(ctx, obj) ?? []) ctx.warn?.(w);
    if (admission) await admission(ctx, 'CREATE', obj, null, this);
    return this.withTypeMeta(obj);
  }

  async create(ctx: RequestContext, input: ApiObject, opts: AdmissionOptions = {}): Promise<ApiObject> {
    const generated = !input.metadata?.name && !!input.metadata?.generateName;
    const stored = await this.prepareCreate(ctx, input, opts.admission);
    if (ctx.dryRun) return stored;
    rejectResourceVersionOnCreate(input);

    for (let attempt = 1; ; attempt++) {
      const name = stored.metadata?.name ?? '';
      const key = this.keyFor(ctx, name);
      try {
        const kv = await this.storage.create(key, this.encode(stored));
        return this.serving.written(stored, kv);
      } catch (e) {
        if (!(e instanceof KeyExistsError)) this.fail(e, name, 'create');
        if (generated) {
          if (attempt >= generateNameAttempts) throw errors.generateNameConflict(this.groupResource, name);
          stored.metadata = { ...stored.metadata, name: generateName(stored.metadata?.generateName ?? '') };
          continue;
        }
        throw errors.alreadyExists(this.groupResource, name, await this.isBeingDeleted(key));
      }
    }
  }

  private async isBeingDeleted(key: string): Promise<boolean> {
    try {
      const { kv } = await this.storage.get(key);
      return !!kv && !!this.decode(kv).metadata?.deletionTimestamp;
    } catch {
      return false;
    }
  }

  private validateCreate(ctx: RequestContext, obj: ApiObject): void {
    const errs: FieldError[] = [
      ...validateObjectMeta(obj.metadata ?? {}, {
        namespaced: this.resource.namespaced,
        nameFn: (n, prefix) => this.strategy.validateName(n, prefix),
        standardFinalizers: this.strategy.standardFinalizers,
      }),
      ...this.strategy.validate(ctx, obj),
    ];
    if (errs.length) throw errors.invalid(this.groupKind, obj.metadata?.name ?? '', errs);
  }

  // ---- update -------------------------------------------------------------------------------

  /** The ownership scope of a write through ctx's endpoint (server-side apply computes with it). */
  ownershipScope(ctx: RequestContext): WriteScope {
    return ownershipScope(ctx, this.resource, this.updateStrategy(ctx));
  }

  private updateStrategy(ctx: RequestContext): UpdateStrategy {
    // A view subresource (/scale) writes the parent as the main endpoint would (upstream's
    // ScaleREST updates through the resource's own store and strategy).
    if (!ctx.subresource || this.strategy.subresourceViews?.[ctx.subresource]) return this.strategy;
    const s = this.strategy.subresourceStrategies[ctx.subresource];
    if (!s) throw errors.notFound({ group: '', resource: '' }, '');
    return s;
  }

  /**
   * PUT and PATCH. Returns the stored object (typed in the served version, normalised) and
   * whether it was created (PUT on a missing object for kinds that allow create-on-update).
   */
  async update(
    ctx: RequestContext,
    name: string,
    objInfo: UpdatedObjectInfo,
    opts: AdmissionOptions & { forceAllowCreate?: boolean; retryOnConflict?: boolean; applied?: boolean } = {},
  ): Promise<{ obj: ApiObject; created: boolean }> {
    const key = this.keyFor(ctx, name);
    const strategy = this.updateStrategy(ctx);
    let created = false;
    let deletedDuringUpdate = false;
    /** The object the last compute() produced: what was written when the write succeeds. */
    let written: { obj: ApiObject; bytes: Uint8Array } | undefined;
    /** The revision the last compute() updated (none when it created the object). */
    let previousRevision: number | undefined;

    const compute = async (current: KeyValue | null): Promise<{ obj: ApiObject; bytes: Uint8Array } | 'unchanged' | 'delete'> => {
      created = false;
      deletedDuringUpdate = false;
      previousRevision = current?.modRevision;
      if (!current) {
        if (ctx.subresource || !(this.strategy.allowCreateOnUpdate || opts.forceAllowCreate)) {
          throw errors.notFound(this.groupResource, name);
        }
        const body = await objInfo(null);
        // A PUT carrying a resourceVersion targets an existing object that is gone.
        if (body.metadata?.resourceVersion) throw errors.notFound(this.groupResource, name);
        created = true;
        const obj = await this.prepareCreate(ctx, { ...body, metadata: { ...body.metadata, name } }, opts.admission, opts.applied);
        return { obj, bytes: this.encode(obj) };
      }
      const old = this.decode(current);
      // normalize copies what objInfo returns, so neither it nor the caller's body is shared.
      const obj = this.withTypeMeta(markManagedFieldsReset(await objInfo(ignoresCurrent.has(objInfo) ? old : structuredClone(old))));
      const meta = (obj.metadata ??= {});
      if (meta.name && meta.name !== name) {
        throw errors.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
      }
      meta.name = name;
      if (this.resource.namespaced) {
        if (meta.namespace && meta.namespace !== ctx.namespace) {
          throw errors.badRequest(
            `the namespace of the object (${meta.namespace}) does not match the namespace on the request (${ctx.namespace})`,
          );
        }
        meta.namespace = ctx.namespace;
      } else {
        delete meta.namespace;
      }
      if (meta.resourceVersion) {
        if (meta.resourceVersion !== String(current.modRevision)) throw errors.staleResourceVersion(this.groupResource, name);
      } else if (!this.strategy.allowUnconditionalUpdate) {
        throw errors.invalid(this.groupKind, name, [
          { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: 0, detail: 'must be specified for an update' },
        ]);
      }
      carryUpdateFields(obj, old);
      this.strategy.applyDefaults?.(obj);
      const ownership = recordOwnership(ctx, this.resource, strategy, old, obj, opts.applied);
      strategy.prepareForUpdate(ctx, obj, old);
      applyOwnership(obj, ownership);
      const errs: FieldError[] = [
        ...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}, { standardFinalizers: this.strategy.standardFinalizers }),
        ...strategy.validateUpdate(ctx, obj, old),
      ];
      if (errs.length) throw errors.invalid(this.groupKind, name, errs);
      for (const w of strategy.warningsOnUpdate?.(ctx, obj, old) ?? []) ctx.warn?.(w);
      if (opts.admission) await opts.admission(ctx, 'UPDATE', obj, old, this);
      const next = this.withTypeMeta(obj);
      if (this.shouldDeleteDuringUpdate(next)) return 'delete';
      // Upstream's GuaranteedUpdate: no write when the new bytes equal the stored ones.
      const bytes = this.encode(next);
      if (Buffer.compare(bytes, current.value) === 0) return 'unchanged';
      return { obj: next, bytes };
    };

    if (ctx.dryRun) {
      let current: KeyValue | null;
      try {
        current = (await this.storage.get(key)).kv;
      } catch (e) {
        this.fail(e, name, 'update');
      }
      const out = await compute(current);
      if (out === 'unchanged' || out === 'delete') return { obj: this.withTypeMeta(this.decode(current!)), created: false };
      return { obj: { ...out.obj, metadata: { ...out.obj.metadata, resourceVersion: current ? String(current.modRevision) : undefined } }, created };
    }

    let kv: KeyValue;
    try {
      kv = await this.storage.guaranteedUpdate(
        key,
        async (current) => {
          written = undefined;
          const out = await compute(current);
          if (out === 'unchanged') return null;
          if (out === 'delete') {
            deletedDuringUpdate = true;
            return null;
          }
          written = out;
          return written.bytes;
        },
        { ignoreNotFound: true },
      );
    } catch (e) {
      this.fail(e, name, 'update');
    }
    if (deletedDuringUpdate) {
      const res = await this.finishDelete(ctx, name, kv);
      return { obj: this.withTypeMeta(res), created: false };
    }
    // The object just written is what a decode of the stored bytes would give (no second parse);
    // storages that copy the value (MemoryStorage) return equal bytes, not the same array.
    if (written && (kv.value === written.bytes || Buffer.compare(kv.value, written.bytes) === 0)) {
      return { obj: this.serving.written(written.obj, kv, created ? undefined : previousRevision), created };
    }
    return { obj: this.withTypeMeta(this.decode(kv)), created };
  }

  private shouldDeleteDuringUpdate(obj: ApiObject): boolean {
    const m = obj.metadata ?? {};
    if (!m.deletionTimestamp) return false;
    if ((m.finalizers?.length ?? 0) > 0) return false;
    return !(this.strategy.hasPendingFinalizers?.(obj) ?? false);
  }

  /** Deletes an object that an update left with a deletionTimestamp and no finalizers. */
  private async finishDelete(ctx: RequestContext, name: string, at: KeyValue): Promise<ApiObject> {
    try {
      const { prev } = await this.storage.delete(at.key, {
        validate: (cur) => {
          if (cur.modRevision !== at.modRevision) throw errors.staleResourceVersion(this.groupResource, name);
        },
      });
      return this.decode(prev);
    } catch (e) {
      this.fail(e, name, 'delete');
    }
  }

  // ---- delete -------------------------------------------------------------------------------

  async delete(ctx: RequestContext, name: string, options: DeleteOptions = {}, call: AdmissionOptions = {}): Promise<DeleteResult> {
    const key = this.keyFor(ctx, name);
    let currentKv: KeyValue | null;
    try {
      currentKv = (await this.storage.get(key)).kv;
    } catch (e) {
      this.fail(e, name, 'delete');
    }
    if (!currentKv) throw errors.notFound(this.groupResource, name);
    const current = this.decodeOrFail(currentKv, name);
    this.checkPreconditions(key, current, options);

    // Kind-specific deletion (Namespace → Terminating) or finalizers: mark, don't remove.
    const marked = this.strategy.beforeDelete?.(ctx, structuredClone(current)) ?? null;
    const hasFinalizers = (current.metadata?.finalizers?.length ?? 0) > 0;
    if (marked || hasFinalizers) {
      const next = marked ?? structuredClone(current);
      const m = (next.metadata ??= {});
      if (!m.deletionTimestamp) {
        m.deletionTimestamp = formatTime(ctx.now());
        m.deletionGracePeriodSeconds = 0;
      }
      if (ctx.dryRun) return { body: this.withTypeMeta(next), deleted: false };
      if (current.metadata?.deletionTimestamp && !marked) return { body: current, deleted: false };
      try {
        const kv = await this.storage.guaranteedUpdate(
          key,
          (cur) => {
            if (!cur) throw errors.notFound(this.groupResource, name);
            if (cur.modRevision !== currentKv!.modRevision) throw errors.staleResourceVersion(this.groupResource, name);
            return this.encode(this.withTypeMeta(next));
          },
          {},
        );
        return { body: this.decode(kv), deleted: false };
      } catch (e) {
        this.fail(e, name, 'delete');
      }
    }

    if (call.admission) await call.admission(ctx, 'DELETE', current, current, this);
    if (ctx.dryRun) return { body: this.deleteBody(current), deleted: true };
    // The revision read above is what is deleted unless a write came in between: then it is
    // decoded again; otherwise `current` stands for it (no preconditions, nothing to decode).
    const sameRevision = (kv: KeyValue): boolean => kv.modRevision === currentKv!.modRevision;
    try {
      const { prev } = await this.storage.delete(key, {
        validate: options.preconditions ? (cur) => this.checkPreconditions(key, sameRevision(cur) ? current : this.decode(cur), options) : undefined,
        suggestion: currentKv,
      });
      // `current` is the decode of those same bytes, and nothing on the way here wrote to it
      // (admission on DELETE only validates).
      const deleted = sameRevision(prev) ? current : this.decode(prev);
      return { body: this.deleteBody(deleted), deleted: true };
    } catch (e) {
      this.fail(e, name, 'delete');
    }
  }

  private deleteBody(obj: ApiObject): ApiObject | Status {
    if (this.strategy.deleteReturnsObject) return obj;
    const details: NonNullable<Status['details']> = { name: obj.metadata?.name };
    if (this.resource.group) details.group = this.resource.group;
    details.kind = this.resource.resource;
    details.uid = obj.metadata?.uid;
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
  }

  private checkPreconditions(key: string, obj: ApiObject, options: DeleteOptions): void {
    const p = options.preconditions;
    if (!p) return;
    const name = obj.metadata?.name ?? '';
    const prefix = `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: `;
    if (p.uid && p.uid !== obj.metadata?.uid) {
      throw errors.conflict(this.groupResource, name, `${prefix}UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata?.uid ?? ''}`);
    }
    if (p.resourceVersion && p.resourceVersion !== obj.metadata?.resourceVersion) {
      throw errors.conflict(
        this.groupResource,
        name,
        `${prefix}ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata?.resourceVersion ?? ''}`,
      );
    }
  }
}

export { ApiError };

/**
 * Upstream's storage Create refuses an object carrying a resourceVersion ("" and "0" mean unset),
 * after validation and admission and never on dry-run (the dry-run store does not check). Upstream
 * surfaces it as a bare error (500) and lets an unparsable value through; this is client input,
 * so every other value is a 400 BadRequest with upstream's message.
 */
export function rejectResourceVersionOnCreate(input: ApiObject): void {
  const rv = input.metadata?.resourceVersion;
  if (rv === undefined || rv === '' || rv === '0') return;
  throw errors.badRequest('resourceVersion should not be set on objects to be created');
}
