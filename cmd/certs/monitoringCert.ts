// The client certificate Prometheus scrapes the apiservers' /metrics with: group system:monitoring,
// which the bootstrap RBAC policy binds to /metrics and the health checks (upstream's
// system:monitoring ClusterRole). Kept next to the cluster CA in --cert-dir.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { monitoringGroup } from '../../lib/auth/rbac/bootstrapPolicy';
import { certificateFacts, generatePrivateKey, issueCertificate, parseCertificates, privateKeyToPem } from '../../lib/signing';

export const monitoringFileNames = { certFile: 'monitoring.crt', keyFile: 'monitoring.key' } as const;
export const monitoringSubject = { commonName: 'prometheus', organizations: [monitoringGroup] } as const;

/**
 * Group-readable key (0640): the scraper runs under another user id than the one writing the PKI
 * and reads it through the shared group (deploy/docker-compose.yml).
 */
const keyMode = 0o640;
const year = 365 * 24 * 3600 * 1000;
const backdate = 5 * 60 * 1000;

export interface MonitoringCert {
  certFile: string;
  keyFile: string;
  generated: boolean;
}

/** Issues the pair when missing or not signed by the current CA; otherwise keeps it. */
export async function ensureMonitoringCert(certDir: string, caCertFile: string, caKeyFile: string, now: Date = new Date()): Promise<MonitoringCert> {
  const certFile = path.join(certDir, monitoringFileNames.certFile);
  const keyFile = path.join(certDir, monitoringFileNames.keyFile);
  const caPem = await fs.readFile(caCertFile, 'utf8');
  const ca = parseCertificates(caPem, caCertFile)[0];
  if (await stillValid(certFile, keyFile, ca.node, now)) return { certFile, keyFile, generated: false };
  const key = generatePrivateKey('ecdsa-p256');
  const issued = await issueCertificate({
    caCert: ca.cert,
    caKey: await fs.readFile(caKeyFile, 'utf8'),
    publicKey: key,
    subject: { commonName: monitoringSubject.commonName, organizations: [...monitoringSubject.organizations] },
    usages: ['digital signature', 'client auth'],
    notBefore: new Date(now.getTime() - backdate),
    notAfter: new Date(Math.min(now.getTime() + year, certificateFacts(ca.cert).notAfter.getTime())),
  });
  await fs.writeFile(keyFile, privateKeyToPem(key), { mode: keyMode });
  await fs.chmod(keyFile, keyMode);
  await fs.writeFile(certFile, issued.pem, { mode: 0o644 });
  return { certFile, keyFile, generated: true };
}

async function stillValid(certFile: string, keyFile: string, ca: ReturnType<typeof parseCertificates>[number]['node'], now: Date): Promise<boolean> {
  try {
    const cert = parseCertificates(await fs.readFile(certFile, 'utf8'), certFile)[0];
    await fs.access(keyFile);
    const f = certificateFacts(cert.cert);
    const lifetime = f.notAfter.getTime() - f.notBefore.getTime();
    return cert.node.checkIssued(ca) && cert.node.verify(ca.publicKey) && f.notAfter.getTime() - now.getTime() >= lifetime / 10;
  } catch {
    return false;
  }
}
