// What every kind's strategy starts from: upstream's generic store defaults and the no-op hooks
// its strategies repeat. A kind's strategy extends DefaultStrategy and states only what differs.
import type { ApiObject, ResourceInfo } from '../api';
import type { FieldError } from '../machinery/fieldErrors';
import { nameIsDNSSubdomain } from '../machinery/validation/names';
import type { RequestContext, Strategy, UpdateStrategy } from './strategy';
import type { TableColumn } from './tableColumns';

/**
 * Upstream's DefaultClusterScopedAttr / DefaultNamespaceScopedAttr: metadata.name, and
 * metadata.namespace for namespaced kinds.
 */
export function defaultSelectableFields(obj: ApiObject, namespaced: boolean): Record<string, string> {
  const m = obj.metadata;
  return namespaced ? { 'metadata.name': m?.name ?? '', 'metadata.namespace': m?.namespace ?? '' } : { 'metadata.name': m?.name ?? '' };
}

export abstract class DefaultStrategy<T extends ApiObject = ApiObject> implements Strategy<T> {
  abstract readonly resource: ResourceInfo;
  /** Most kinds (upstream's NameIsDNSSubdomain). */
  validateName(name: string, prefix: boolean): string[] {
    return nameIsDNSSubdomain(name, prefix);
  }
  prepareForCreate(_ctx: RequestContext, _obj: T): void {}
  validate(_ctx: RequestContext, _obj: T): FieldError[] {
    return [];
  }
  prepareForUpdate(_ctx: RequestContext, _obj: T, _old: T): void {}
  validateUpdate(_ctx: RequestContext, _obj: T, _old: T): FieldError[] {
    return [];
  }
  /** Every built-in kind but Lease takes a PUT without resourceVersion. */
  readonly allowUnconditionalUpdate: boolean = true;
  readonly allowCreateOnUpdate: boolean = false;
  /** Upstream's store leaves ReturnDeletedObject unset: DELETE answers with a Success Status. */
  readonly deleteReturnsObject: boolean = false;
  readonly subresourceStrategies: Readonly<Record<string, UpdateStrategy<T>>> = {};
  selectableFields(obj: T): Record<string, string> {
    return defaultSelectableFields(obj, this.resource.namespaced);
  }
  // Absent unless a kind has them (declared only, so a kind's own are overrides).
  declare readonly tableColumns?: readonly TableColumn<T>[];
  declare readonly resetFields?: readonly (readonly string[])[];
  declare readonly standardFinalizers?: readonly string[] | false;
  applyDefaults?(obj: T): void;
  warningsOnCreate?(ctx: RequestContext, obj: T): string[];
  warningsOnUpdate?(ctx: RequestContext, obj: T, old: T): string[];
  beforeDelete?(ctx: RequestContext, obj: T): T | null;
  hasPendingFinalizers?(obj: T): boolean;

  /**
   * The same rules served over another ResourceInfo (another version of the kind, one storage
   * location): a copy that keeps this strategy's members and methods.
   */
  withResource(resource: ResourceInfo): this {
    const copy: this = Object.create(Object.getPrototypeOf(this));
    return Object.assign(copy, this, { resource });
  }
}
