// Accept-header negotiation for API responses (spec §4.4): JSON or YAML, or a Table in either
// where the endpoint offers one; 406 otherwise.
import { groups, stockClientMetaGroup } from '../api/product';
import { errors } from '../machinery/errors';
import type { OutputFormat, OutputMediaType } from './respond';

interface AcceptClause {
  type: string;
  params: Record<string, string>;
  q: number;
}

export function parseAccept(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const parts = raw.split(';').map((p) => p.trim());
    const type = (parts.shift() ?? '').toLowerCase();
    if (!type) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of parts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    if (!(q > 0)) continue;
    out.push({ type, params, q });
  }
  return out.sort((a, b) => b.q - a.q);
}

const served: Record<string, OutputMediaType> = {
  'application/json': 'application/json',
  'application/yaml': 'application/yaml',
  'application/*': 'application/json',
  '*/*': 'application/json',
};

/**
 * Table groups answered: ours, and the upstream spelling stock kubectl sends (docs/design.md,
 * "Naming profile for stock clients"); the Table is written under the group asked for.
 */
const tableGroups: readonly string[] = [groups.meta, stockClientMetaGroup];
const tableVersions: readonly string[] = ['v1', 'v1beta1'];

/**
 * The output for a request. `tables` says whether the endpoint converts to Table (upstream
 * AllowsMediaTypeTransform: JSON or YAML only); any other conversion (PartialObjectMetadata, …)
 * is not offered, so its clause is skipped and a later clause wins.
 */
export function chooseOutput(accept: string | undefined, pretty: boolean, tables = false): OutputFormat {
  if (!accept || !accept.trim()) return { mediaType: 'application/json', pretty };
  for (const c of parseAccept(accept)) {
    const mt = served[c.type];
    if (c.params.as || c.params.g || c.params.v) {
      const { as, g, v } = c.params;
      if (tables && mt && as === 'Table' && tableGroups.includes(g ?? '') && tableVersions.includes(v ?? '')) {
        return { mediaType: mt, pretty, table: { group: g ?? '', version: v ?? '' } };
      }
      continue;
    }
    if (mt) return { mediaType: mt, pretty };
  }
  throw errors.notAcceptable(`only the following media types are accepted: application/json, application/yaml`);
}
