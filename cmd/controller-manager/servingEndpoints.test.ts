import { X509Certificate } from 'node:crypto';
import * as https from 'node:https';
import { HealthRegistry } from '../../lib/apiserver/health';
import { ControllerManagerMetrics } from './metrics';
import { selfSignedServingCert, startServingEndpoints } from './servingEndpoints';

function get(port: number, path: string, ca: string): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, path, ca, servername: 'localhost' }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }));
      })
      .on('error', reject);
  });
}

describe('serving endpoints', () => {
  test('self-signed certificate for localhost and 127.0.0.1', async () => {
    const { cert } = await selfSignedServingCert(new Date(Date.UTC(2025, 0, 1)));
    const x = new X509Certificate(cert);
    expect(x.subject).toBe(`CN=localhost@${Date.UTC(2025, 0, 1) / 1000}`);
    expect(x.checkHost('localhost')).toBe('localhost');
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  test('/healthz (root, verbose, per check), /metrics with the leader, workqueue and CSR series, 404 otherwise', async () => {
    const now = new Date();
    const health = new HealthRegistry();
    let leaderOk = true;
    health.add({ name: 'leaderElection', check: () => (leaderOk ? null : 'failed election to renew leadership on lease cm') });
    health.add({ name: 'namespace', check: () => null });
    const metrics = new ControllerManagerMetrics();
    metrics.setLeader('svc-controller-manager', true);
    metrics.workqueue.added('namespace');
    metrics.workqueue.depth('namespace', 3);
    metrics.workqueue.retried('namespace');
    metrics.csrSigning.onIssued('svc.io/svclet-serving', 0.004);
    metrics.csrSigning.onFailed('svc.io/svclet-serving', 'SignerValidationFailure');
    const served = await startServingEndpoints({ bindAddress: '127.0.0.1', port: 0, health, metrics: metrics.registry, now: () => now });
    try {
      // The test trusts the server's own (self-signed) certificate.
      const peer = await new Promise<string>((resolve, reject) => {
        const req = https.get({ host: '127.0.0.1', port: served.address.port, path: '/healthz', rejectUnauthorized: false }, (res) => {
          const c = (res.socket as import('node:tls').TLSSocket).getPeerCertificate(true);
          res.resume();
          resolve(`-----BEGIN CERTIFICATE-----\n${c.raw.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`);
        });
        req.on('error', reject);
      });
      const port = served.address.port;
      expect(await get(port, '/healthz', peer)).toMatchObject({ status: 200, body: 'ok' });
      expect((await get(port, '/healthz?verbose', peer)).body).toBe('[+]leaderElection ok\n[+]namespace ok\nhealthz check passed\n');
      leaderOk = false;
      expect(await get(port, '/healthz', peer)).toMatchObject({ status: 500, body: '[-]leaderElection failed: reason withheld\n[+]namespace ok\nhealthz check failed\n' });
      expect(await get(port, '/healthz/leaderElection', peer)).toMatchObject({ status: 500, body: 'internal server error: failed election to renew leadership on lease cm\n' });
      expect((await get(port, '/healthz/nope', peer)).status).toBe(404);
      expect((await get(port, '/other', peer)).status).toBe(404);
      const m = await get(port, '/metrics', peer);
      expect(m.status).toBe(200);
      expect(m.type).toMatch(/^text\/plain/);
      for (const line of [
        'leader_election_master_status{name="svc-controller-manager"} 1',
        'workqueue_adds_total{name="namespace"} 1',
        'workqueue_depth{name="namespace"} 3',
        'workqueue_retries_total{name="namespace"} 1',
        'svc_csr_signed_total{signer="svc.io/svclet-serving"} 1',
        'svc_csr_signing_failed_total{signer="svc.io/svclet-serving",reason="SignerValidationFailure"} 1',
        'svc_csr_signing_duration_seconds_count{signer="svc.io/svclet-serving"} 1',
      ]) {
        expect(m.body.split('\n')).toContain(line);
      }
    } finally {
      await served.close();
    }
  });
});
