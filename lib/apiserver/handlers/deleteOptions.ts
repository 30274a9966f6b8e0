// DeleteOptions from the body (JSON/YAML, optional) merged with query parameters, validated as
// upstream (errors.md §6: 422 on DeleteOptions.meta.svc.io).
import type { DeleteOptions } from '../../api';
import { DeleteOptionsSchema } from '../../api';
import { errors } from '../../machinery/errors';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import type { HandlerContext } from '../handlerContext';
import { decodeOptionsBody } from './body';
import { invalidOptions, parseDryRun } from './writeOptions';

const policies = ['Foreground', 'Background', 'Orphan'];

export async function readDeleteOptions(h: HandlerContext): Promise<DeleteOptions & { dryRunAll: boolean }> {
  const body = await h.readBody();
  const opts: DeleteOptions = body.length ? (decodeOptionsBody(h, body, DeleteOptionsSchema) as DeleteOptions) : {};
  const q = h.query;
  const gp = q.get('gracePeriodSeconds');
  if (gp !== null) {
    if (!/^-?\d+$/.test(gp)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(gp)}: invalid syntax`);
    opts.gracePeriodSeconds = Number(gp);
  }
  const pp = q.get('propagationPolicy');
  if (pp !== null) opts.propagationPolicy = pp;
  const od = q.get('orphanDependents');
  if (od !== null) opts.orphanDependents = od === 'true' || od === '1';
  const dryRunValues = [...(opts.dryRun ?? []), ...q.getAll('dryRun')];
  const dryRunAll = parseDryRun(dryRunValues, 'DeleteOptions');

  const errs: FieldError[] = [];
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    errs.push(fieldErr.invalid('propagationPolicy', opts.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (opts.propagationPolicy !== undefined && !policies.includes(opts.propagationPolicy)) {
    errs.push(fieldErr.notSupported('propagationPolicy', opts.propagationPolicy, [...policies, 'nil']));
  }
  if (opts.ignoreStoreReadErrorWithClusterBreakingPotential && !h.features.isEnabled('AllowUnsafeMalformedObjectDeletion')) {
    errs.push(fieldErr.forbidden('ignoreStoreReadErrorWithClusterBreakingPotential', 'is not allowed when the AllowUnsafeMalformedObjectDeletion feature gate is disabled'));
  }
  if (errs.length) invalidOptions('DeleteOptions', errs);
  return { ...opts, dryRunAll };
}
