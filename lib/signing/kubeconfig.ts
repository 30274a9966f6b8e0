// Client configuration files in the format stock kubectl reads (`--kubeconfig`), written
// self-contained (certificates and keys embedded as base64 *-data fields), and a minimal reader
// that resolves the current context for our own client and tests.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { dump, load } from 'js-yaml';
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

export interface KubeconfigCredentials {
  contextName: string;
  clusterName: string;
  userName: string;
  namespace?: string;
  server: string;
  insecureSkipTLSVerify: boolean;
  /** PEM bytes. */
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
}

type Entry = Record<string, unknown>;

function named(list: unknown, name: string, what: string, file: string): Entry {
  const items = Array.isArray(list) ? (list as Entry[]) : [];
  const found = items.find((i) => i && i.name === name);
  if (!found) throw new Error(`${file}: ${what} ${JSON.stringify(name)} not found`);
  const body = found[what];
  return body && typeof body === 'object' ? (body as Entry) : {};
}

function str(e: Entry, key: string): string | undefined {
  const v = e[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `<key>-data` (base64) wins over `<key>` (a path, relative to the kubeconfig's directory). */
async function material(e: Entry, fileKey: string, dataKey: string, dir: string): Promise<Buffer | undefined> {
  const data = str(e, dataKey);
  if (data !== undefined) return Buffer.from(data, 'base64');
  const file = str(e, fileKey);
  if (file !== undefined) return fs.readFile(path.resolve(dir, file));
  return undefined;
}

/** Reads a kubeconfig and resolves its current context (or `contextName`). */
export async function readKubeconfig(file: string, contextName?: string): Promise<KubeconfigCredentials> {
  const doc = load(await fs.readFile(file, 'utf8'));
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file}: not a kubeconfig (expected a mapping)`);
  const cfg = doc as Entry;
  const ctxName = contextName ?? str(cfg, 'current-context');
  if (!ctxName) throw new Error(`${file}: no current-context`);
  const ctx = named(cfg.contexts, ctxName, 'context', file);
  const clusterName = str(ctx, 'cluster');
  const userName = str(ctx, 'user') ?? '';
  if (!clusterName) throw new Error(`${file}: context ${JSON.stringify(ctxName)} names no cluster`);
  const cluster = named(cfg.clusters, clusterName, 'cluster', file);
  const user = userName ? named(cfg.users, userName, 'user', file) : {};
  const server = str(cluster, 'server');
  if (!server) throw new Error(`${file}: cluster ${JSON.stringify(clusterName)} has no server`);
  const dir = path.dirname(path.resolve(file));
  const out: KubeconfigCredentials = {
    contextName: ctxName,
    clusterName,
    userName,
    server,
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
  };
  const ns = str(ctx, 'namespace');
  if (ns) out.namespace = ns;
  const ca = await material(cluster, 'certificate-authority', 'certificate-authority-data', dir);
  if (ca) out.ca = ca;
  const cert = await material(user, 'client-certificate', 'client-certificate-data', dir);
  if (cert) out.cert = cert;
  const key = await material(user, 'client-key', 'client-key-data', dir);
  if (key) out.key = key;
  const token = str(user, 'token') ?? (str(user, 'tokenFile') ? (await fs.readFile(path.resolve(dir, str(user, 'tokenFile') as string), 'utf8')).trim() : undefined);
  if (token) out.token = token;
  return out;
}
