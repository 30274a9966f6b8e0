// Reading certificates: PEM bundles into parsed certificates, and the few facts callers check
// (validity, SANs, EKUs, subject fields). Parsing goes through both OpenSSL (node:crypto, the
// same code the TLS server uses) and @peculiar/x509 (extension details).
import { X509Certificate as NodeX509Certificate } from 'node:crypto';
import { extKeyUsageOids } from './usages';
import { x509 } from './x509lib';

export interface ParsedCertificate {
  pem: string;
  node: NodeX509Certificate;
  cert: x509.X509Certificate;
}

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?-----END \1-----/g;

/** PEM blocks of one type, in file order. */
export function pemBlocks(text: string, type: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(pemBlock)) if (m[1] === type) out.push(m[0] + '\n');
  return out;
}

/** Parses every CERTIFICATE block; throws `<what>: …` when none is found or one is malformed. */
export function parseCertificates(text: string | Buffer, what = 'certificate'): ParsedCertificate[] {
  const pems = pemBlocks(typeof text === 'string' ? text : text.toString('utf8'), 'CERTIFICATE');
  if (!pems.length) throw new Error(`${what}: no PEM CERTIFICATE block found`);
  return pems.map((pem, i) => {
    try {
      return { pem, node: new NodeX509Certificate(pem), cert: new x509.X509Certificate(pem) };
    } catch (e) {
      throw new Error(`${what}: certificate #${i + 1} cannot be parsed: ${(e as Error).message}`);
    }
  });
}

export interface CertificateFacts {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  /** IP SANs in node's textual form (IPv6 uncompressed, e.g. 0:0:0:0:0:0:0:1). */
  ipAddresses: string[];
  extKeyUsages: string[];
  isCA: boolean;
  notBefore: Date;
  notAfter: Date;
}

export function certificateFacts(c: x509.X509Certificate): CertificateFacts {
  const san = c.getExtension(x509.SubjectAlternativeNameExtension);
  const eku = c.getExtension(x509.ExtendedKeyUsageExtension);
  const bc = c.getExtension(x509.BasicConstraintsExtension);
  const names = san?.names.items ?? [];
  return {
    commonName: c.subjectName.getField('CN')[0] ?? '',
    organizations: c.subjectName.getField('O'),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
    extKeyUsages: (eku?.usages ?? []).map(String),
    isCA: bc?.ca === true,
    notBefore: c.notBefore,
    notAfter: c.notAfter,
  };
}

export const ekuOid = Object.fromEntries(extKeyUsageOids) as Record<(typeof extKeyUsageOids)[number][0], string>;
