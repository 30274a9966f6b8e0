// The objects both sides write: ServiceAccounts with a few labels, two secret references and one
// annotation padding them to a realistic size (~1 KiB stored by default, --pad).

export const benchNamespace = 'bench';
export const warmupNamespace = 'bench-warmup';
export const watchNamespace = 'bench-watch';
/** Raw etcd keys live here, beside the apiserver's /registry. */
export const rawPrefix = '/bench-raw/';
/** The label each watch update sets; receivers find the update's sequence number by it. */
export const seqLabel = 'bench-seq';

export function objectName(i: number): string {
  return `sa-${String(i).padStart(6, '0')}`;
}

export function serviceAccount(name: string, pad: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {
      name,
      labels: { app: 'bench', tier: 'load', 'svc.io/owner': 'bench' },
      annotations: { 'bench.svc.io/pad': 'x'.repeat(pad) },
    },
    secrets: [{ name: `${name}-token` }, { name: `${name}-dockercfg` }],
    imagePullSecrets: [{ name: 'registry' }],
    automountServiceAccountToken: false,
  };
}

/** A namespaced kind the load functions drive: where its collection is and what one object is. */
export interface BenchKind {
  /** Its name in tables and messages. */
  name: string;
  /** The collection path in namespace ns. */
  collection(ns: string): string;
  /** A new object named name, `pad` bytes of padding (where is the kind's business). */
  object(name: string, pad: number): Record<string, unknown>;
}

export const serviceAccounts: BenchKind = {
  name: 'ServiceAccount',
  collection: (ns) => `/api/v1/namespaces/${ns}/serviceaccounts`,
  object: serviceAccount,
};

/** Finds `"bench-seq":"<digits>"` in buf[from, to) without decoding it; -1 when absent. */
const marker = Buffer.from(`"${seqLabel}":"`);
export function findSeq(buf: Buffer, from: number, to: number): number {
  const at = buf.indexOf(marker, from);
  if (at < 0 || at >= to) return -1;
  let n = 0;
  let i = at + marker.length;
  let digits = 0;
  for (; i < to; i++) {
    const c = buf[i];
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
    digits++;
  }
  return digits ? n : -1;
}
