// Maps the CSR usage words (spec.usages) onto X.509 KeyUsage bits and ExtendedKeyUsage OIDs
// (certificates.md §3 "Usage mapping").
import { knownKeyUsages } from '../api';

export type KeyUsageName = (typeof knownKeyUsages)[number];

/** KeyUsage bits, numbered like Go's x509.KeyUsage (and @peculiar/x509's KeyUsageFlags). */
export const keyUsageBits = {
  digitalSignature: 1 << 0,
  contentCommitment: 1 << 1,
  keyEncipherment: 1 << 2,
  dataEncipherment: 1 << 3,
  keyAgreement: 1 << 4,
  certSign: 1 << 5,
  crlSign: 1 << 6,
  encipherOnly: 1 << 7,
  decipherOnly: 1 << 8,
} as const;

/** ExtendedKeyUsage OIDs in the order of Go's enum, which is the order they are emitted in. */
export const extKeyUsageOids = [
  ['any', '2.5.29.37.0'],
  ['serverAuth', '1.3.6.1.5.5.7.3.1'],
  ['clientAuth', '1.3.6.1.5.5.7.3.2'],
  ['codeSigning', '1.3.6.1.5.5.7.3.3'],
  ['emailProtection', '1.3.6.1.5.5.7.3.4'],
  ['ipsecEndSystem', '1.3.6.1.5.5.7.3.5'],
  ['ipsecTunnel', '1.3.6.1.5.5.7.3.6'],
  ['ipsecUser', '1.3.6.1.5.5.7.3.7'],
  ['timeStamping', '1.3.6.1.5.5.7.3.8'],
  ['ocspSigning', '1.3.6.1.5.5.7.3.9'],
  ['microsoftSGC', '1.3.6.1.4.1.311.10.3.3'],
  ['netscapeSGC', '2.16.840.1.113730.4.1'],
] as const;

type EkuName = (typeof extKeyUsageOids)[number][0];

const mapping: Record<KeyUsageName, { ku?: number; eku?: EkuName }> = {
  signing: { ku: keyUsageBits.digitalSignature },
  'digital signature': { ku: keyUsageBits.digitalSignature },
  'content commitment': { ku: keyUsageBits.contentCommitment },
  'key encipherment': { ku: keyUsageBits.keyEncipherment },
  'key agreement': { ku: keyUsageBits.keyAgreement },
  'data encipherment': { ku: keyUsageBits.dataEncipherment },
  'cert sign': { ku: keyUsageBits.certSign },
  'crl sign': { ku: keyUsageBits.crlSign },
  'encipher only': { ku: keyUsageBits.encipherOnly },
  'decipher only': { ku: keyUsageBits.decipherOnly },
  any: { eku: 'any' },
  'server auth': { eku: 'serverAuth' },
  'client auth': { eku: 'clientAuth' },
  'code signing': { eku: 'codeSigning' },
  'email protection': { eku: 'emailProtection' },
  's/mime': { eku: 'emailProtection' },
  'ipsec end system': { eku: 'ipsecEndSystem' },
  'ipsec tunnel': { eku: 'ipsecTunnel' },
  'ipsec user': { eku: 'ipsecUser' },
  timestamping: { eku: 'timeStamping' },
  'ocsp signing': { eku: 'ocspSigning' },
  'microsoft sgc': { eku: 'microsoftSGC' },
  'netscape sgc': { eku: 'netscapeSGC' },
};

export interface X509Usages {
  /** OR of keyUsageBits; 0 means "no KeyUsage extension". */
  keyUsage: number;
  /** De-duplicated EKU OIDs in Go enum order; empty means "no EKU extension". */
  extKeyUsages: string[];
}

/** Translates usage words; an unknown word throws (`unknown usage: <word>`). */
export function toX509Usages(usages: readonly string[]): X509Usages {
  let keyUsage = 0;
  const ekus = new Set<EkuName>();
  for (const u of usages) {
    const m = (mapping as Record<string, { ku?: number; eku?: EkuName }>)[u];
    if (!m) throw new Error(`unknown usage: ${u}`);
    if (m.ku) keyUsage |= m.ku;
    if (m.eku) ekus.add(m.eku);
  }
  const extKeyUsages = extKeyUsageOids.filter(([name]) => ekus.has(name)).map(([, oid]) => oid);
  return { keyUsage, extKeyUsages };
}
