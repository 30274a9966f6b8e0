// metadata.generation of the admissionregistration kinds (upstream's strategies): 1 on create,
// +1 on an update that changes the spec.
import type { ApiObject } from '../../api';
import { deepEqual } from '../../machinery/deepEqual';

type WithSpec = ApiObject & { spec?: unknown };

export function startGeneration(obj: ApiObject): void {
  (obj.metadata ??= {}).generation = 1;
}

export function bumpGenerationOnSpecChange(obj: WithSpec, old: WithSpec): void {
  const m = (obj.metadata ??= {});
  const prev = old.metadata?.generation ?? 0;
  m.generation = deepEqual(obj.spec, old.spec) ? prev : prev + 1;
}
