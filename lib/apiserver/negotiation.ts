// Accept-header negotiation for API responses (spec §4.4): JSON or YAML; 406 otherwise.
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
 * The output for a resource request. Clauses with conversion parameters (as=Table, …) name
 * representations this server does not offer yet, so they are skipped and a later clause wins.
 */
export function chooseOutput(accept: string | undefined, pretty: boolean): OutputFormat {
  if (!accept || !accept.trim()) return { mediaType: 'application/json', pretty };
  for (const c of parseAccept(accept)) {
    if (c.params.as || c.params.g || c.params.v) continue;
    const mt = served[c.type];
    if (mt) return { mediaType: mt, pretty };
  }
  throw errors.notAcceptable(`only the following media types are accepted: application/json, application/yaml`);
}
