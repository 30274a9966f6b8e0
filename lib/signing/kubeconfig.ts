// Client configuration files in the format stock kubectl reads (`--kubeconfig`), written
// self-contained (certificates and keys embedded as base64 *-data fields). Reading one is the
// client's (lib/client/kubeconfig.ts, clientcmd's rules): the signer side only writes.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { dump } from 'js-yaml';
import { processNames } from '../api';
import { writeFileAtomic } from './files';

export interface WriteKubeconfigOptions {
  /** e.g. https://127.0.0.1:6443 */
  server: string;
  /** CA bundle: a file to embed, or the PEM itself. */
  caFile?: string;
  caData?: string | Buffer;
  clientCertFile?: string;
  certData?: string | Buffer;
  clientKeyFile?: string;
  keyData?: string | Buffer;
  token?: string;
  /** Name of the user entry; default 'admin'. */
  user?: string;
  /** Name of the cluster entry; default the apiserver's process name. */
  cluster?: string;
  /** Name of the context (made current); default `<user>@<cluster>`. */
  context?: string;
  namespace?: string;
}

async function pick(file: string | undefined, data: string | Buffer | undefined, what: string): Promise<Buffer | undefined> {
  if (file !== undefined && data !== undefined) throw new Error(`kubeconfig: give either the ${what} file or its data, not both`);
  if (data !== undefined) return Buffer.from(data);
  if (file !== undefined) return fs.readFile(file);
  return undefined;
}

/** Builds the kubeconfig document (exported for tests and for printing). */
export async function buildKubeconfig(opts: WriteKubeconfigOptions): Promise<string> {
  const ca = await pick(opts.caFile, opts.caData, 'CA');
  const cert = await pick(opts.clientCertFile, opts.certData, 'client certificate');
  const key = await pick(opts.clientKeyFile, opts.keyData, 'client key');
  if ((cert === undefined) !== (key === undefined)) throw new Error('kubeconfig: a client certificate needs its key and vice versa');
  const user = opts.user ?? 'admin';
  const cluster = opts.cluster ?? processNames.apiserver;
  const context = opts.context ?? `${user}@${cluster}`;
  const clusterEntry: Record<string, string> = {};
  if (ca) clusterEntry['certificate-authority-data'] = ca.toString('base64');
  clusterEntry.server = opts.server;
  const userEntry: Record<string, string> = {};
  if (cert && key) {
    userEntry['client-certificate-data'] = cert.toString('base64');
    userEntry['client-key-data'] = key.toString('base64');
  }
  if (opts.token !== undefined) userEntry.token = opts.token;
  const contextEntry: Record<string, string> = { cluster, user };
  if (opts.namespace) contextEntry.namespace = opts.namespace;
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ cluster: clusterEntry, name: cluster }],
    contexts: [{ context: contextEntry, name: context }],
    'current-context': context,
    preferences: {},
    users: [{ name: user, user: userEntry }],
  };
  // Laid out like kubectl's own output: base64 blobs on one line, sequences not indented.
  return dump(doc, { lineWidth: -1, seqNoIndent: true });
}

/** Writes the kubeconfig with mode 0600 (it holds a private key or token). */
export async function writeKubeconfig(file: string, opts: WriteKubeconfigOptions): Promise<void> {
  const text = await buildKubeconfig(opts);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, text, 0o600);
}
