// Reads a kubeconfig (the file kubectl reads) into what a RestClient needs: the server, how to
// trust it, and who we are. Follows client-go's clientcmd: the context is the named one or
// current-context; relative file paths resolve against the kubeconfig's directory; the checks
// and their messages are clientcmd's validation (joined as "invalid configuration: …").
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { decodeGoBase64 } from '../codec/goBase64';

/** Connection settings of one context; the shape RestClient's config accepts. */
export interface KubeconfigContext {
  contextName: string;
  clusterName: string;
  userName: string;
  /** The context's default namespace, when it names one. */
  namespace?: string;
  server: string;
  insecureSkipTLSVerify: boolean;
  /** SNI and verification name when it differs from the server's host (`tls-server-name`). */
  tlsServerName?: string;
  /** PEM bytes. */
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  /** Absolute path of a token file; the client re-reads it so a rotated token is picked up. */
  tokenFile?: string;
}

export interface LoadKubeconfigOptions {
  /** A context other than current-context. */
  context?: string;
}

export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

type Entry = Record<string, unknown>;

function isEntry(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body of the list element named `name` (`{name, <what>: {...}}`), or undefined. */
function named(list: unknown, name: string, what: string): Entry | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const item of list) {
    if (isEntry(item) && item.name === name) return isEntry(item[what]) ? item[what] : {};
  }
  return undefined;
}

function str(e: Entry, key: string): string {
  const v = e[key];
  return typeof v === 'string' ? v : '';
}

function invalid(errs: string[]): KubeconfigError {
  return new KubeconfigError(`invalid configuration: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
}

async function readable(file: string): Promise<string | undefined> {
  try {
    await fs.access(file, fs.constants.R_OK);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function decodeData(value: string, field: string): Buffer {
  try {
    return decodeGoBase64(value);
  } catch (e) {
    throw new KubeconfigError(`${field}: ${(e as Error).message}`);
  }
}

/** Parses kubeconfig text; `dir` is where relative paths in it are anchored. */
export async function parseKubeconfig(text: string, dir: string, opts: LoadKubeconfigOptions = {}): Promise<KubeconfigContext> {
  let doc: unknown;
  try {
    doc = load(text, { schema: CORE_SCHEMA });
  } catch (e) {
    throw new KubeconfigError(`kubeconfig is not valid YAML: ${(e as Error).message}`);
  }
  const cfg: Entry = isEntry(doc) ? doc : {};
  const contextName = opts.context || str(cfg, 'current-context');
  const errs: string[] = [];

  let context: Entry = {};
  if (contextName) {
    const found = named(cfg.contexts, contextName, 'context');
    if (found) context = found;
    else errs.push(`context was not found for specified context: ${contextName}`);
  }
  const clusterName = str(context, 'cluster');
  const userName = str(context, 'user');
  const cluster = (clusterName && named(cfg.clusters, clusterName, 'cluster')) || {};
  const user = (userName && named(cfg.users, userName, 'user')) || {};
  const resolve = (p: string): string => path.resolve(dir, p);

  // validateAuthInfo: certificate and key come as a pair, data or file but not both.
  const certFile = str(user, 'client-certificate');
  const certData = str(user, 'client-certificate-data');
  const keyFile = str(user, 'client-key');
  const keyData = str(user, 'client-key-data');
  if (certFile || certData) {
    if (certFile && certData) errs.push(`client-cert-data and client-cert are both specified for ${userName}. client-cert-data will override.`);
    if (keyFile && keyData) errs.push(`client-key-data and client-key are both specified for ${userName}; client-key-data will override`);
    if (!keyFile && !keyData) errs.push(`client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method.`);
    if (certFile) {
      const why = await readable(resolve(certFile));
      if (why) errs.push(`unable to read client-cert ${resolve(certFile)} for ${userName} due to ${why}`);
    }
    if (keyFile) {
      const why = await readable(resolve(keyFile));
      if (why) errs.push(`unable to read client-key ${resolve(keyFile)} for ${userName} due to ${why}`);
    }
  }

  // validateClusterInfo.
  const server = str(cluster, 'server');
  const caFile = str(cluster, 'certificate-authority');
  const caData = str(cluster, 'certificate-authority-data');
  if (Object.keys(cluster).length === 0) errs.push('cluster has no server defined');
  else {
    if (!server) errs.push(clusterName ? `no server found for cluster ${JSON.stringify(clusterName)}` : 'default cluster has no server defined');
    if (caFile && caData) errs.push(`certificate-authority-data and certificate-authority are both specified for ${clusterName}. certificate-authority-data will override.`);
    if (caFile) {
      const why = await readable(resolve(caFile));
      if (why) errs.push(`unable to read certificate-authority ${resolve(caFile)} for ${clusterName} due to ${why}`);
    }
  }
  // Like DirectClientConfig.ConfirmUsable: nothing but a missing cluster means no configuration at all.
  if (errs.length === 1 && errs[0] === 'cluster has no server defined') throw invalid(['no configuration has been provided']);
  if (errs.length) throw invalid(errs);

  const out: KubeconfigContext = {
    contextName,
    clusterName,
    userName,
    server,
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
  };
  const namespace = str(context, 'namespace');
  if (namespace) out.namespace = namespace;
  const tlsServerName = str(cluster, 'tls-server-name');
  if (tlsServerName) out.tlsServerName = tlsServerName;
  if (caData) out.ca = decodeData(caData, 'certificate-authority-data');
  else if (caFile) out.ca = await fs.readFile(resolve(caFile));
  if (certData) out.cert = decodeData(certData, 'client-certificate-data');
  else if (certFile) out.cert = await fs.readFile(resolve(certFile));
  if (keyData) out.key = decodeData(keyData, 'client-key-data');
  else if (keyFile) out.key = await fs.readFile(resolve(keyFile));

  // clientcmd: an inline token wins; a tokenFile is read now and kept for periodic re-reads.
  const token = str(user, 'token');
  const tokenFile = str(user, 'tokenFile');
  if (token) out.token = token;
  if (tokenFile) {
    out.tokenFile = resolve(tokenFile);
    if (!token) out.token = (await fs.readFile(out.tokenFile, 'utf8')).trim();
  }
  return out;
}

/** Reads a kubeconfig file and resolves its current (or the named) context. */
export async function loadKubeconfig(file: string, opts: LoadKubeconfigOptions = {}): Promise<KubeconfigContext> {
  const abs = path.resolve(file);
  return parseKubeconfig(await fs.readFile(abs, 'utf8'), path.dirname(abs), opts);
}
