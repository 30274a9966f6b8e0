// The framework-overhead baseline: bare node:https with the apiserver's TLS settings (its serving
// certificate, client certificates requested) answering every request with one fixed JSON body.
// Runs as its own process, like the apiserver: `node bareServer.js <pki-dir> <port> <body-file>`.
// A request with `watch=1` in its query gets the headers of a chunked 200 and nothing more, as an
// idle watch does: the floor an HTTP/1.1 watcher's memory can reach in node:https.
import { spawn, ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import { join } from 'node:path';

export interface BareServer {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts this file as a child process; resolves once it listens. */
export function startBareServer(pkiDir: string, port: number, bodyFile: string, nodeArgs: readonly string[] = []): Promise<BareServer> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, __filename, pkiDir, String(port), bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.stdout!.once('data', () =>
      resolve({
        pid: child.pid!,
        url: `https://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((res) => {
            if (child.exitCode !== null) return res();
            child.once('exit', () => res());
            child.kill('SIGTERM');
          }),
      }),
    );
  });
}

function serve(pkiDir: string, port: number, bodyFile: string): void {
  const body = readFileSync(bodyFile);
  const server = https.createServer(
    {
      cert: readFileSync(join(pkiDir, 'apiserver.crt')),
      key: readFileSync(join(pkiDir, 'apiserver.key')),
      ca: readFileSync(join(pkiDir, 'ca.crt')),
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
    },
    (req, res) => {
      if (req.url?.includes('watch=1')) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
        res.flushHeaders();
        return;
      }
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
        res.end(body);
      });
    },
  );
  server.keepAliveTimeout = 65_000;
  server.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
  process.on('SIGTERM', () => process.exit(0));
}

if (require.main === module) serve(process.argv[2], Number(process.argv[3]), process.argv[4]);
