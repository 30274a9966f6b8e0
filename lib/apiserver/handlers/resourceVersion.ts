// Parsing of a resourceVersion query value; unparseable → 422 naming the resource (errors.md §3).
import { errors, GroupResource } from '../../machinery/errors';
import { fieldErr } from '../../machinery/fieldErrors';

export function parseResourceVersion(rv: string, gr: GroupResource): number {
  if (/^[0-9]+$/.test(rv)) {
    const n = Number(rv);
    if (Number.isSafeInteger(n)) return n;
  }
  // Upstream names the resource where a Kind would stand.
  throw errors.invalid({ group: gr.group, kind: gr.resource }, '', [
    fieldErr.invalid('resourceVersion', rv, `strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`),
  ]);
}
