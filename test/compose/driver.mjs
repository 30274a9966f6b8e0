// The compose job's client (scripts/compose-test.sh): runs in a container of the svc image on the
// compose network, so it reaches each replica and the load balancer by name, and speaks to them
// with the admin identity of the PKI volume's admin.kubeconfig. Plain Node, no dependencies.
//
//   node driver.mjs smoke WORKDIR       namespace, ServiceAccount, CSR approved and issued, a watch
//                                       on one replica seeing writes made through the others (each
//                                       replica an address Docker's DNS gives for `apiserver`)
//   node driver.mjs load WORKDIR        a writer (a ConfigMap every 100 ms through the balancer) and
//                                       a watcher (through the balancer, resuming from its last
//                                       resourceVersion) until WORKDIR/stop appears; then checks
//                                       every acknowledged write is stored and was seen by the watch
// Results are printed as one JSON line starting with "RESULT ".
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { lookup } from 'node:dns/promises';

const [mode, work] = process.argv.slice(2);
const kubeconfig = readFileSync(process.env.KUBECONFIG_FILE ?? '/var/lib/svc/pki/admin.kubeconfig', 'utf8');
const field = (name) => Buffer.from(new RegExp(`${name}: (\\S+)`).exec(kubeconfig)[1], 'base64');
const agent = new https.Agent({ ca: field('certificate-authority-data'), cert: field('client-certificate-data'), key: field('client-key-data'), keepAlive: false });
const lb = 'https://apiserver-lb:6443';
const ns = 'compose-ci';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...a) => console.error(new Date().toISOString(), ...a);

// Replicas are reached by address: their shared serving certificate names the service.
const servername = 'apiserver';

function request(base, method, path, body) {
  return new Promise((resolve, reject) => {
    const req = https.request(`${base}${path}`, { method, agent, servername, timeout: 10000, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, json: () => JSON.parse(text), text }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function must(base, method, path, body, ok = [200, 201]) {
  const r = await request(base, method, path, body);
  if (!ok.includes(r.status)) throw new Error(`${method} ${base}${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

/** A watch as a stream of events; calls onEvent for each, resolves when the server ends it. */
function watch(base, path, onEvent) {
  let req;
  const done = new Promise((resolve, reject) => {
    req = https.get(`${base}${path}`, { agent, servername }, (res) => {
      if (res.statusCode !== 200) { res.resume(); reject(new Error(`watch ${res.statusCode}`)); return; }
      let buf = '';
      res.on('data', (d) => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); if (line.trim()) onEvent(JSON.parse(line)); }
      });
      res.on('end', resolve);
      res.on('error', resolve);
    });
    req.on('error', reject);
  });
  return { done, stop: () => req.destroy() };
}

const cm = (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: name } });

async function smoke() {
  const t0 = Date.now();
  await must(lb, 'POST', '/api/v1/namespaces', { metadata: { name: ns } }, [201, 409]);
  await must(lb, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'bot' } }, [201]);
  // The CSR's request was made by the script with openssl (WORKDIR/csr.pem).
  const csrBase = '/apis/certificates.svc.io/v1/certificatesigningrequests';
  const request64 = readFileSync(`${work}/csr.pem`).toString('base64');
  await must(lb, 'POST', csrBase, { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'compose-ci' }, spec: { request: request64, signerName: 'svc.io/svc-apiserver-client', usages: ['digital signature', 'key encipherment', 'client auth'] } }, [201]);
  const cur = (await must(lb, 'GET', `${csrBase}/compose-ci`)).json();
  cur.status.conditions = [{ type: 'Approved', status: 'True', reason: 'ComposeCI', message: 'compose job' }];
  await must(lb, 'PUT', `${csrBase}/compose-ci/approval`, cur);
  let issued = '';
  for (let i = 0; i < 600 && !issued; i++) {
    issued = (await must(lb, 'GET', `${csrBase}/compose-ci`)).json().status.certificate ?? '';
    if (!issued) await sleep(100);
  }
  if (!issued) throw new Error('the CSR was approved but no certificate was issued in 60 s');
  // A watch on one replica sees writes made through the others.
  const replicas = (await lookup('apiserver', { all: true, family: 4 })).map((a) => `https://${a.address}:6443`).sort();
  if (replicas.length < 2) throw new Error(`Docker's DNS gives ${replicas.length} replica(s) for apiserver`);
  const [watched, ...others] = replicas;
  const seen = new Set();
  const rv = (await must(watched, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).json().metadata.resourceVersion;
  const w = watch(watched, `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}`, (e) => seen.add(e.object.metadata.name));
  const names = [];
  for (let i = 0; i < 20; i++) {
    const name = `across-${i}`;
    await must(others[i % others.length], 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm(name), [201]);
    names.push(name);
  }
  for (let i = 0; i < 100 && names.some((n) => !seen.has(n)); i++) await sleep(100);
  w.stop();
  const missing = names.filter((n) => !seen.has(n));
  if (missing.length) throw new Error(`the watch on ${watched} missed ${missing.join(',')}`);
  console.log(`RESULT ${JSON.stringify({ smoke: 'ok', csrIssued: true, replicas: replicas.length, watchedAcross: names.length, ms: Date.now() - t0 })}`);
}

async function load() {
  await must(lb, 'POST', '/api/v1/namespaces', { metadata: { name: ns } }, [201, 409]);
  const acked = [];
  const seen = new Set();
  let errors = 0;
  const errorKinds = {};
  const failed = (kind) => { errors++; errorKinds[kind] = (errorKinds[kind] ?? 0) + 1; };
  let maxGapAt = '';
  let lastAck = Date.now();
  let maxGapMs = 0;
  let stopping = false;
  // The watcher: through the balancer, resumes from its last resourceVersion when a stream ends
  // (a replica killed or shut down); relists only on 410 Gone.
  let rv = (await must(lb, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).json().metadata.resourceVersion;
  let resumes = 0;
  let stopWatch = () => {};
  const watcher = (async () => {
    while (!stopping) {
      try {
        const w = watch(lb, `/api/v1/namespaces/${ns}/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, (e) => {
          if (e.type === 'ERROR') { if (e.object.code === 410) rv = '0'; return; }
          rv = e.object.metadata.resourceVersion;
          if (e.type !== 'BOOKMARK') seen.add(e.object.metadata.name);
        });
        stopWatch = w.stop;
        await w.done;
      } catch { await sleep(200); }
      resumes++;
    }
  })();
  writeFileSync(`${work}/load.started`, '');
  for (let i = 0; !existsSync(`${work}/stop`); i++) {
    const name = `w-${Date.now()}-${i}`;
    try {
      const r = await request(lb, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm(name));
      if (r.status === 201) {
        acked.push(name);
        const now = Date.now();
        if (now - lastAck > maxGapMs) { maxGapMs = now - lastAck; maxGapAt = new Date(lastAck).toISOString(); }
        lastAck = now;
      } else failed(String(r.status));
    } catch (e) { failed(e.code ?? e.message); }
    await sleep(100);
  }
  // Every acknowledged write is stored, and the watcher saw it.
  const stored = new Set((await must(lb, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).json().items.map((o) => o.metadata.name));
  const lost = acked.filter((n) => !stored.has(n));
  for (let i = 0; i < 100 && acked.some((n) => !seen.has(n)); i++) await sleep(100);
  stopping = true;
  stopWatch();
  await watcher;
  const unseen = acked.filter((n) => !seen.has(n));
  console.log(`RESULT ${JSON.stringify({ acked: acked.length, errors, errorKinds, lost: lost.length, unseenByWatch: unseen.length, watchResumes: resumes, maxGapMs, maxGapAt })}`);
  process.exit(lost.length || unseen.length ? 1 : 0);
}

(mode === 'smoke' ? smoke() : load()).catch((e) => { log(e.stack ?? e); process.exit(1); });
