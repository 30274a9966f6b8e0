// What a resource tells the generic store (upstream's RESTCreateStrategy/RESTUpdateStrategy).
// One strategy per resource, extending DefaultStrategy (defaultStrategy.ts); generic logic
// (metadata, preconditions, finalizers, the schema's markers) lives in the store.
import type { ApiObject, ObjectSchema, ResourceInfo } from '../api';
import type { FieldError } from '../machinery/fieldErrors';
import type { TableColumn } from './tableColumns';

export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** Per-request facts the registry needs; built by the HTTP layer. */
export interface RequestContext {
  user: UserInfo;
  /** Namespace from the URL ('' for cluster-scoped requests and all-namespace lists). */
  namespace: string;
  /** '' for the main resource, else the subresource name ('status', 'approval', 'finalize'). */
  subresource: string;
  dryRun: boolean;
  now(): Date;
  /**
   * The field manager of a write (the fieldManager option, else the User-Agent's product);
   * undefined for in-process writes, which leave managedFields as they are.
   */
  fieldManager?: string;
  /** Adds a Warning header to the response (strategies' warning hooks, admission policies' Warn action). */
  warn?(text: string): void;
  /** Adds an annotation to the request's audit event (admission policies). */
  addAuditAnnotation?(key: string, value: string): void;
}

/** Update rules of one endpoint (the main resource or a subresource). */
export interface UpdateStrategy<T extends ApiObject = ApiObject> {
  /**
   * Resets what this endpoint may not change, copying it from `old` (e.g. the main endpoint keeps
   * status; /status keeps spec). Mutates obj.
   */
  prepareForUpdate(ctx: RequestContext, obj: T, old: T): void;
  /** Kind-specific update validation (ObjectMeta update rules are generic). */
  validateUpdate(ctx: RequestContext, obj: T, old: T): FieldError[];
  /** Paths this endpoint resets (prepareForUpdate's), never owned by its writers (upstream's GetResetFields). */
  readonly resetFields?: readonly (readonly string[])[];
  /**
   * Warnings for an update that passed validation (upstream's WarningsOnUpdate), sent as Warning
   * headers; absent: none.
   */
  warningsOnUpdate?(ctx: RequestContext, obj: T, old: T): string[];
}

/**
 * A subresource served as a kind of its own derived from the parent (upstream's ScaleREST: /scale
 * reads and writes an autoscaling/v1 Scale). GET answers read(stored parent); PUT and PATCH turn
 * the view into a new parent with write() and update the parent through the main endpoint's
 * strategy and admission, then answer the view of what was written.
 */
export interface SubresourceView {
  /** The kind served and accepted at the subresource. */
  readonly kind: { group: string; version: string; kind: string };
  /** That kind's schema (request bodies are decoded with it, responses encoded). */
  readonly schema: ObjectSchema;
  /**
   * The view of a parent. 'get': what a GET answers (may throw an ApiError where the parent has no
   * view); 'update': what a PUT or PATCH starts from (what is missing is marked, not refused);
   * 'admission': what admission sees of the old and new parent (what is missing is zero).
   */
  read(parent: ApiObject, purpose: 'get' | 'update' | 'admission'): ApiObject;
  /**
   * A copy of the parent with the view's writable fields taken from `view`; the view's
   * metadata.resourceVersion, when set, becomes the parent's (the update's precondition).
   */
  write(parent: ApiObject, view: ApiObject): ApiObject;
}

export interface Strategy<T extends ApiObject = ApiObject> extends UpdateStrategy<T> {
  readonly resource: ResourceInfo;
  /** Validates metadata.name (and generateName prefixes when prefix=true); messages without the path. */
  validateName(name: string, prefix: boolean): string[];
  /** Server-set fields on create (e.g. CSR requester identity, status reset). Mutates obj. */
  prepareForCreate(ctx: RequestContext, obj: T): void;
  /** Defaults applied on create and update after decoding (e.g. Namespace phase). Mutates obj. */
  applyDefaults?(obj: T): void;
  /** Kind-specific create validation (ObjectMeta rules are generic). */
  validate(ctx: RequestContext, obj: T): FieldError[];
  /** Warnings for a create that passed validation (upstream's WarningsOnCreate); absent: none. */
  warningsOnCreate?(ctx: RequestContext, obj: T): string[];
  /** PUT without metadata.resourceVersion is allowed (last writer wins). */
  readonly allowUnconditionalUpdate: boolean;
  /** PUT of a missing object creates it (ServiceAccount: true upstream). Default false. */
  readonly allowCreateOnUpdate?: boolean;
  /** Field-selector attributes of an object (metadata.name etc.). */
  selectableFields(obj: T): Record<string, string>;
  /** Subresources that take a whole object on update, keyed by name. */
  readonly subresourceStrategies: Readonly<Record<string, UpdateStrategy<T>>>;
  /** Subresources served as a derived kind (SubresourceView), keyed by name; written through the main endpoint's rules. */
  readonly subresourceViews?: Readonly<Record<string, SubresourceView>>;
  /**
   * Called on DELETE before the generic finalizer logic. Return an updated object to store
   * instead of deleting (e.g. Namespace → Terminating), or null to continue generically.
   * May throw an ApiError (e.g. 409 while a namespace is being emptied).
   */
  beforeDelete?(ctx: RequestContext, obj: T): T | null;
  /** Extra condition (besides metadata.finalizers) that keeps a deleting object stored. */
  hasPendingFinalizers?(obj: T): boolean;
  /** The body returned by a DELETE that removed the object: the object itself, or a Status. */
  readonly deleteReturnsObject: boolean;
  /**
   * The core API's finalizer-name rule (a name without '/' must be a standard one), which
   * k8s.io/kubernetes' kinds add to apimachinery's; false for kinds validated by apimachinery
   * alone (CRDs, custom resources: any qualified name). Absent: the core rule.
   */
  readonly standardFinalizers?: readonly string[] | false;
  /** Table columns (upstream's printer columns); absent = the default table (Name, Created At). */
  readonly tableColumns?: readonly TableColumn<T>[];
}
