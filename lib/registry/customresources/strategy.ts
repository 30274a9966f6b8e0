// The one strategy of every custom resource (upstream's customResourceStrategy and its status
// strategy), parameterised by what a CRD version says: its schema's rules, whether /status is
// enabled, its printer columns and selectable fields. Nothing here is per kind.
import { isDeepStrictEqual } from 'node:util';
import type { ApiObject, ResourceInfo } from '../../api';
import { errors } from '../../machinery/errors';
import type { FieldError } from '../../machinery/fieldErrors';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext, SubresourceView, UpdateStrategy } from '../strategy';
import type { TableColumn } from '../tableColumns';
import { customResourceScaleView, type ScalePaths, validateScaleSpec, validateScaleStatus } from './scale';

/** What a CRD version contributes to its strategy, derived once when the version is installed. */
export interface CustomResourceRules {
  info: ResourceInfo;
  /** subresources.status is set: status is written through /status only. */
  hasStatus: boolean;
  /** subresources.scale: /scale is served, and the replicas and selector fields are validated on every write. */
  scale?: ScalePaths;
  /** The CRD is being deleted: creates are refused (405), everything else still works. */
  terminating: boolean;
  /** The whole object against the version's schema (field errors with upstream's paths). */
  validateSchema(obj: ApiObject): FieldError[];
  /** Only status against the schema's status node (writes through /status). */
  validateStatus(obj: ApiObject): FieldError[];
  /** The schema's defaults, applied on every write (and on read). */
  applyDefaults(obj: ApiObject): void;
  tableColumns?: readonly TableColumn[];
  selectableFields(obj: ApiObject): Record<string, string>;
}

type Json = Record<string, unknown>;

/** Everything but metadata (and status when /status is enabled): a change moves generation. */
function specPart(obj: ApiObject, withoutStatus: boolean): Json {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj as Json;
  if (withoutStatus) delete rest.status;
  return rest;
}

class CustomResourceStatusStrategy implements UpdateStrategy {
  readonly resetFields = [['spec']] as const;
  constructor(private readonly rules: CustomResourceRules) {}
  /** The stored object with only status (and managedFields) from the request. */
  prepareForUpdate(_ctx: RequestContext, obj: ApiObject, old: ApiObject): void {
    const o = obj as Json;
    const status = o.status;
    const managedFields = obj.metadata?.managedFields;
    for (const k of Object.keys(o)) delete o[k];
    Object.assign(o, structuredClone(old));
    if (managedFields !== undefined) (obj.metadata ??= {}).managedFields = managedFields;
    else if (obj.metadata) delete obj.metadata.managedFields;
    if (status !== undefined) o.status = status;
    else delete o.status;
  }
  validateUpdate(_ctx: RequestContext, obj: ApiObject): FieldError[] {
    return [...this.rules.validateStatus(obj), ...validateScaleStatus(obj, this.rules.scale)];
  }
}

export class CustomResourceStrategy extends DefaultStrategy {
  readonly resource: ResourceInfo;
  override readonly subresourceStrategies: Readonly<Record<string, UpdateStrategy>>;
  readonly subresourceViews?: Readonly<Record<string, SubresourceView>>;
  override readonly tableColumns?: readonly TableColumn[];
  override readonly resetFields?: readonly (readonly string[])[];
  /** apimachinery's ObjectMeta rules: any qualified finalizer name. */
  override readonly standardFinalizers = false as const;

  constructor(private readonly rules: CustomResourceRules) {
    super();
    this.resource = rules.info;
    this.tableColumns = rules.tableColumns;
    this.subresourceStrategies = rules.hasStatus ? { status: new CustomResourceStatusStrategy(rules) } : {};
    if (rules.scale) this.subresourceViews = { scale: customResourceScaleView(rules.scale) };
    this.resetFields = rules.hasStatus ? [['status']] : undefined;
  }

  override applyDefaults(obj: ApiObject): void {
    this.rules.applyDefaults(obj);
  }

  override prepareForCreate(_ctx: RequestContext, obj: ApiObject): void {
    if (this.rules.terminating) {
      const e = errors.methodNotSupported({ group: this.resource.group, resource: this.resource.resource }, 'create');
      e.status.message = 'create not allowed while custom resource definition is terminating';
      throw e;
    }
    if (this.rules.hasStatus) delete (obj as Json).status;
    (obj.metadata ??= {}).generation = 1;
  }

  override validate(_ctx: RequestContext, obj: ApiObject): FieldError[] {
    return [...this.rules.validateSchema(obj), ...this.scaleErrors(obj)];
  }

  private scaleErrors(obj: ApiObject): FieldError[] {
    return [...validateScaleSpec(obj, this.rules.scale), ...validateScaleStatus(obj, this.rules.scale)];
  }

  override prepareForUpdate(_ctx: RequestContext, obj: ApiObject, old: ApiObject): void {
    const o = obj as Json;
    if (this.rules.hasStatus) {
      const oldStatus = (old as Json).status;
      if (oldStatus !== undefined) o.status = structuredClone(oldStatus);
      else delete o.status;
    }
    const m = (obj.metadata ??= {});
    const generation = old.metadata?.generation ?? 0;
    m.generation = isDeepStrictEqual(specPart(obj, false), specPart(old, false)) ? generation : generation + 1;
  }

  override validateUpdate(_ctx: RequestContext, obj: ApiObject): FieldError[] {
    return [...this.rules.validateSchema(obj), ...this.scaleErrors(obj)];
  }

  override selectableFields(obj: ApiObject): Record<string, string> {
    return this.rules.selectableFields(obj);
  }
}
