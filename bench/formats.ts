// GET and full-list passes in each response format (issue 11 item 6): JSON, Protobuf and CBOR
// against the same stored objects, one after another, reporting the bytes of one answer and the
// milliseconds per request (p50), so each binary format can be held to "no more than 20% slower
// than JSON". The apiserver runs with CBORServingAndStorage on for this (cluster.ts).
import type { HttpsClient } from './httpsClient';
import { runLoad, type LoadResult, type Pids } from './load';
import { objectName } from './objects';

export const formats = [
  { name: 'JSON', mediaType: 'application/json', magic: Buffer.from('{') },
  { name: 'Protobuf', mediaType: 'application/vnd.svc.protobuf', magic: Buffer.from([0x6b, 0x38, 0x73, 0x00]) },
  { name: 'CBOR', mediaType: 'application/cbor', magic: Buffer.from([0xd9, 0xd9, 0xf7]) },
] as const;

export type FormatName = (typeof formats)[number]['name'];

export interface FormatPass extends LoadResult {
  /** Bytes of one answer (the GET of the first object; the whole list). */
  bytes: number;
}

export interface FormatResult {
  mediaType: string;
  get: FormatPass;
  list: FormatPass;
}

export interface FormatsResult {
  objects: number;
  results: Partial<Record<FormatName, FormatResult>>;
}

export interface FormatsOptions {
  api: HttpsClient;
  pids: Pids;
  namespace: string;
  objects: number;
  concurrency: number;
  getSeconds: number;
  listIterations: number;
  log: (msg: string) => void;
}

/** One request in a format; checks the status, Content-Type and the body's first bytes. */
async function fetchAs(api: HttpsClient, path: string, f: (typeof formats)[number]): Promise<number> {
  const r = await api.request('GET', path, undefined, undefined, f.mediaType);
  if (r.status !== 200) throw new Error(`${f.name} GET ${path}: HTTP ${r.status}: ${r.text().slice(0, 300)}`);
  if (r.contentType !== f.mediaType) throw new Error(`${f.name} GET ${path}: Content-Type ${r.contentType}`);
  if (!r.body.subarray(0, f.magic.length).equals(f.magic)) throw new Error(`${f.name} GET ${path}: body does not start with the format's prefix`);
  return r.body.length;
}

export async function runFormats(o: FormatsOptions): Promise<FormatsResult> {
  const base = `/api/v1/namespaces/${o.namespace}/serviceaccounts`;
  const paths = Array.from({ length: o.objects }, (_, i) => `${base}/${objectName(i)}`);
  const out: FormatsResult = { objects: o.objects, results: {} };
  for (const f of formats) {
    o.log(`formats ${f.name}: ${o.getSeconds} s of GETs (${o.concurrency} in flight), then ${o.listIterations} lists of ${o.objects}`);
    const getBytes = await fetchAs(o.api, paths[0], f);
    // A short warm-up per format, so the first format does not pay for JIT of the others' paths.
    await runLoad({ concurrency: o.concurrency, seconds: 1, pids: o.pids }, async () => {
      await fetchAs(o.api, paths[(Math.random() * o.objects) | 0], f);
    });
    const get = await runLoad({ concurrency: o.concurrency, seconds: o.getSeconds, pids: o.pids }, async () => {
      await fetchAs(o.api, paths[(Math.random() * o.objects) | 0], f);
    });
    const listBytes = await fetchAs(o.api, base, f);
    const list = await runLoad({ concurrency: 1, count: o.listIterations, pids: o.pids }, async () => {
      await fetchAs(o.api, base, f);
    });
    out.results[f.name] = { mediaType: f.mediaType, get: { ...get, bytes: getBytes }, list: { ...list, bytes: listBytes } };
  }
  return out;
}

/** How much slower than JSON (p50 ms ratio) a format may be: 20%. */
export const maxSlowdownVsJson = 1.2;
