// Every resource this server can serve, enabled or not: --runtime-config is checked against these.
import type { ResourceInfo } from '../../lib/api';
import { builtinStrategies } from '../../lib/registry/builtin';
import { virtualResources } from './security';

export function registeredResources(): ResourceInfo[] {
  return [...builtinStrategies.map((s) => s.resource), ...virtualResources];
}
