// DeleteOptions from the body (JSON/YAML, optional) merged with query parameters, validated as
// upstream (errors.md §6: 422 on DeleteOptions.meta.svc.io).
import type { DeleteOptions } from '../../api';
import { DeleteOptionsSchema } from '../../api';
import { errors } from '../../machinery/errors';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import { goParseInt64, goQueryBool } from '../../machinery/goStrconv';
import type { HandlerContext } from '../handlerContext';
import { decodeOptionsBody } from './body';
import { invalidOptions, parseDryRun } from './writeOptions';

const policies = ['Foreground', 'Background', 'Orphan'];

export const unsafeOption = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/**
 * Upstream's ValidateIgnoreStoreReadError: the unsafe delete removes the key and nothing else, so
 * every option that would shape a normal delete is refused beside it.
 */
export function unsafeDeleteConflicts(opts: DeleteOptions, dryRun: boolean): FieldError[] {
  if (!opts[unsafeOption]) return [];
  const conflicts: Array<[boolean, string]> = [
    [dryRun, 'dryRun'],
    [opts.propagationPolicy !== undefined, 'propagationPolicy'],
    [opts.orphanDependents !== undefined, 'orphanDependents'],
    [opts.gracePeriodSeconds !== undefined, 'gracePeriodSeconds'],
    [opts.preconditions !== undefined, 'preconditions'],
  ];
  return conflicts.filter(([set]) => set).map(([, field]) => fieldErr.invalid(unsafeOption, true, `cannot be set together with .${field}`));
}

/** ?gracePeriodSeconds as upstream's parameter codec reads it (an int64; out of range is a 400, not a huge grace period). */
export function parseGracePeriodSeconds(value: string): number {
  const r = goParseInt64(value);
  if (!r.ok) throw errors.badRequest(r.error);
  return Number(r.value);
}

export async function readDeleteOptions(h: HandlerContext): Promise<DeleteOptions & { dryRunAll: boolean }> {
  const body = await h.readBody();
  const opts: DeleteOptions = body.length ? (decodeOptionsBody(h, body, DeleteOptionsSchema) as DeleteOptions) : {};
  const q = h.query;
  const gp = q.get('gracePeriodSeconds');
  if (gp !== null) opts.gracePeriodSeconds = parseGracePeriodSeconds(gp);
  const pp = q.get('propagationPolicy');
  if (pp !== null) opts.propagationPolicy = pp;
  const od = q.get('orphanDependents');
  if (od !== null) opts.orphanDependents = goQueryBool(od);
  const unsafe = q.get(unsafeOption);
  if (unsafe !== null) opts[unsafeOption] = goQueryBool(unsafe);
  // Upstream drops the option while the gate is off: the request is then an ordinary delete.
  if (!h.features.isEnabled('AllowUnsafeMalformedObjectDeletion')) delete opts[unsafeOption];
  const dryRunValues = [...(opts.dryRun ?? []), ...q.getAll('dryRun')];
  const dryRunAll = parseDryRun(dryRunValues, 'DeleteOptions');

  const errs: FieldError[] = [];
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    errs.push(fieldErr.invalid('propagationPolicy', opts.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (opts.propagationPolicy !== undefined && !policies.includes(opts.propagationPolicy)) {
    errs.push(fieldErr.notSupported('propagationPolicy', opts.propagationPolicy, [...policies, 'nil']));
  }
  errs.push(...unsafeDeleteConflicts(opts, dryRunValues.length > 0));
  if (errs.length) invalidOptions('DeleteOptions', errs);
  return { ...opts, dryRunAll };
}
