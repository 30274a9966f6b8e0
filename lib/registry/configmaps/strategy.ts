// The ConfigMap strategy (upstream pkg/registry/core/configmap/strategy.go): nothing is
// server-set; PUT may be unconditional but never creates; DELETE answers with a Status.
import type { ConfigMap } from '../../api';
import { configmaps } from '../../api';
import { DefaultStrategy } from '../defaultStrategy';
import type { RequestContext } from '../strategy';
import { configMapTableColumns } from './tableColumns';
import { validateConfigMap, validateConfigMapUpdate } from './validation';

class ConfigMapStrategy extends DefaultStrategy<ConfigMap> {
  readonly resource = configmaps;
  override readonly tableColumns = configMapTableColumns;
  override validate(_ctx: RequestContext, obj: ConfigMap) {
    return validateConfigMap(obj);
  }
  override validateUpdate(_ctx: RequestContext, obj: ConfigMap, old: ConfigMap) {
    return validateConfigMapUpdate(obj, old);
  }
}

export const configMapStrategy = new ConfigMapStrategy();
