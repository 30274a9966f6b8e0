// metadata.generation of the kinds whose generation follows their spec (admission policies and
// bindings, CRDs; upstream's strategies): 1 on create, +1 on an update that changes the spec, and
// a /status endpoint that keeps both.
import type { ApiObject } from '../api';
import { deepEqual } from '../machinery/deepEqual';

type WithSpec = ApiObject & { spec?: unknown };

export function startGeneration(obj: ApiObject): void {
  (obj.metadata ??= {}).generation = 1;
}

export function bumpGenerationOnSpecChange(obj: WithSpec, old: WithSpec): void {
  const m = (obj.metadata ??= {});
  const prev = old.metadata?.generation ?? 0;
  m.generation = deepEqual(obj.spec, old.spec) ? prev : prev + 1;
}

/** A /status write: spec and generation stay as stored (this endpoint changes status only). */
export function keepSpecAndGeneration(obj: WithSpec, old: WithSpec): void {
  if (old.spec === undefined) delete obj.spec;
  else obj.spec = structuredClone(old.spec);
  (obj.metadata ??= {}).generation = old.metadata?.generation;
}
