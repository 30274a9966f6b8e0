// The ConfigMap strategy (upstream pkg/registry/core/configmap/strategy.go): nothing is
// server-set; PUT may be unconditional but never creates; DELETE answers with a Status.
import type { ConfigMap } from '../../api';
import { configmaps } from '../../api';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import type { Strategy } from '../strategy';
import { configMapTableColumns } from './tableColumns';
import { validateConfigMap, validateConfigMapUpdate } from './validation';

export const configMapStrategy: Strategy<ConfigMap> = {
  resource: configmaps,
  validateName: nameIsDNSSubdomain,
  prepareForCreate() {},
  validate(_ctx, obj) {
    return validateConfigMap(obj);
  },
  prepareForUpdate() {},
  validateUpdate(_ctx, obj, old) {
    return validateConfigMapUpdate(obj, old);
  },
  allowUnconditionalUpdate: true,
  allowCreateOnUpdate: false,
  selectableFields(obj) {
    return { 'metadata.name': obj.metadata?.name ?? '', 'metadata.namespace': obj.metadata?.namespace ?? '' };
  },
  subresourceStrategies: {},
  deleteReturnsObject: false,
  tableColumns: configMapTableColumns,
};
