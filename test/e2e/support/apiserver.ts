// Starts a real etcd and the real svc-apiserver binary (node bin/svc-apiserver) for e2e tests,
// and talks to it over HTTPS with the generated admin certificate, or through kubectl.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, reservedPort, retryWhilePortTaken, startEtcd, EtcdServer } from '../../../lib/etcd/testing/etcdServer';

export { freePort, reservedPort };

export const repoRoot = resolve(__dirname, '../../..');


export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body's bytes (binary media types). */
  bytes: Buffer;
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send no client certificate (anonymous). */
  anonymous?: boolean;
  /** Use this client cert/key instead of the admin's. */
  cert?: { cert: string; key: string };
}

export class ApiServerProcess {
  private child?: ChildProcess;
  private output = '';
  readonly url: string;
  readonly kubeconfig: string;
  private ca = '';
  private admin = { cert: '', key: '' };
  private readonly agent: https.Agent;

  constructor(
    readonly dir: string,
    readonly port: number,
    readonly etcdEndpoint: string,
    readonly extraArgs: string[] = [],
    /** Serve with these existing files (ca.crt, apiserver.crt/.key, admin.crt/.key) instead of a generated PKI. */
    readonly pkiDir?: string,
  ) {
    this.url = `https://127.0.0.1:${port}`;
    this.kubeconfig = join(dir, 'admin.kubeconfig');
    this.agent = new https.Agent({ keepAlive: true, maxSockets: 32 });
  }

  get logs(): string {
    return this.output;
  }

  /** Starts and waits until `until` answers (default: /readyz 200); any status counts when ok is omitted. */
  async start(until: { path: string; ok?: (status: number) => boolean } = { path: '/readyz', ok: (st) => st === 200 }): Promise<void> {
    const args = [
      join(repoRoot, 'bin/svc-apiserver'),
      `--etcd-servers=${this.etcdEndpoint}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${this.port}`,
      ...(this.pkiDir
        ? [
            `--client-ca-file=${join(this.pkiDir, 'ca.crt')}`,
            `--tls-cert-file=${join(this.pkiDir, 'apiserver.crt')}`,
            `--tls-private-key-file=${join(this.pkiDir, 'apiserver.key')}`,
          ]
        : [`--cert-dir=${join(this.dir, 'pki')}`, `--write-kubeconfig=${this.kubeconfig}`]),
      ...this.extraArgs,
    ];
    this.output = '';
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`svc-apiserver exited with ${child.exitCode}:\n${this.output}`);
      try {
        this.loadCredentials();
        const r = await this.request('GET', until.path);
        if (until.ok ? until.ok(r.status) : r.status > 0) return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`svc-apiserver not ready in 30 s:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Talks to a server started in this process (cmd/apiserver's start()) with this dir's PKI: no child process. */
  attach(): void {
    this.loadCredentials();
  }

  private loadCredentials(): void {
    const pki = this.pkiDir ?? join(this.dir, 'pki');
    this.ca = readFileSync(join(pki, 'ca.crt'), 'utf8');
    this.admin = { cert: readFileSync(join(pki, 'admin.crt'), 'utf8'), key: readFileSync(join(pki, 'admin.key'), 'utf8') };
  }

  get caPem(): string {
    return this.ca;
  }
  get caKeyPath(): string {
    return join(this.dir, 'pki', 'ca.key');
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((res) => {
      child.once('exit', () => res());
      child.kill(signal);
    });
  }

  /** Sends a signal without waiting; the promise is the process's exit code (null when killed by a signal). */
  signal(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null) return Promise.resolve(child?.exitCode ?? null);
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    child.kill(signal);
    return exited;
  }

  /** Client options for a raw request as the admin (a fresh connection each time). */
  adminTls(): { ca: string; cert: string; key: string } {
    return { ca: this.ca, ...this.admin };
  }

  request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const payload =
      opts.body === undefined ? undefined : typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? Buffer.from(opts.body as string) : Buffer.from(JSON.stringify(opts.body));
    const cred = opts.anonymous ? {} : (opts.cert ?? this.admin);
    return new Promise((res, rej) => {
      const req = https.request(
        `${this.url}${path}`,
        {
          method,
          ca: this.ca,
          ...cred,
          agent: opts.anonymous || opts.cert ? undefined : this.agent,
          headers: {
            ...(payload ? { 'Content-Type': opts.contentType ?? 'application/json', 'Content-Length': payload.length } : {}),
            ...opts.headers,
          },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const body = bytes.toString('utf8');
            res({ status: r.statusCode ?? 0, headers: r.headers, body, bytes, json: <T>() => JSON.parse(body) as T });
          });
          r.on('error', rej);
        },
      );
      req.on('error', rej);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** Opens a watch; events are collected until close(). */
  watch(path: string): WatchStream {
    return new WatchStream(this, path);
  }

  watchRequest(path: string, onLine: (line: string) => void, onEnd: () => void, onResponse?: (status: number) => void): ClientRequest {
    const req = https.request(`${this.url}${path}`, { method: 'GET', ca: this.ca, ...this.admin }, (r) => {
      onResponse?.(r.statusCode ?? 0);
      let buf = '';
      r.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) onLine(line);
        }
      });
      r.on('end', onEnd);
      r.on('error', onEnd);
    });
    req.on('error', onEnd);
    req.end();
    return req;
  }

  kubectl(args: string[], opts: { input?: string; binary?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((res) => {
      const child = execFile(
        opts.binary ?? 'kubectl',
        [`--kubeconfig=${this.kubeconfig}`, ...args],
        { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
          res({ code, stdout, stderr });
        },
      );
      if (opts.input !== undefined) child.stdin?.end(opts.input);
    });
  }
}

export interface WatchEventLine {
  type: string;
  object: { kind?: string; metadata?: { name?: string; resourceVersion?: string }; [k: string]: unknown };
}

export class WatchStream {
  readonly events: WatchEventLine[] = [];
  ended = false;
  /** The response's status once its headers arrived (the server flushes them when the watch runs). */
  status: number | undefined;
  private readonly req: ClientRequest;
  constructor(server: ApiServerProcess, path: string) {
    this.req = server.watchRequest(
      path,
      (line) => this.events.push(JSON.parse(line) as WatchEventLine),
      () => {
        this.ended = true;
      },
      (status) => (this.status = status),
    );
  }
  async waitFor(pred: (events: WatchEventLine[]) => boolean, timeoutMs = 10_000): Promise<WatchEventLine[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (Date.now() > deadline) throw new Error(`watch condition not met; got ${JSON.stringify(this.events.map((e) => [e.type, e.object.metadata?.name]))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.events;
  }
  close(): void {
    this.req.destroy();
  }
}

export interface TestCluster {
  etcd: EtcdServer;
  apiserver: ApiServerProcess;
  dir: string;
  stop(): Promise<void>;
}

/**
 * etcd plus one apiserver in a temp dir; stop() removes everything. `port` chooses the
 * apiserver's port per start attempt (default freePort(); a seam for tests).
 */
export async function startCluster(extraArgs: string[] = [], opts: { etcdBinary?: string; port?: () => Promise<number> } = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const etcd = await startEtcd({ binary: opts.etcdBinary });
  // A port taken before the process bound it: another port, the same PKI (its certificates name no port).
  let attempt: ApiServerProcess | undefined;
  let apiserver: ApiServerProcess;
  try {
    apiserver = await retryWhilePortTaken(
      async () => {
        attempt = new ApiServerProcess(dir, await (opts.port ?? freePort)(), etcd.endpoint, extraArgs);
        await attempt.start();
        return attempt;
      },
      () => attempt?.logs.includes('EADDRINUSE') ?? false,
    );
  } catch (e) {
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    etcd,
    apiserver,
    dir,
    async stop() {
      await apiserver.stop();
      await etcd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until fn returns a truthy value (tests never sleep blindly). */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
