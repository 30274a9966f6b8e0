// Rule 19 of errors.md §5: status.certificate must be PEM CERTIFICATE blocks only (text around
// them is allowed), without headers, each holding one or more parseable X.509 certificates.
import { X509Certificate } from 'node:crypto';
import { goQuote } from '../../machinery/fieldErrors';
import { readElement } from './der';
import { decodePem } from './pem';

export const certificateBlockType = 'CERTIFICATE';

const malformed = 'x509: malformed certificate';

/** Go's x509.ParseCertificates: a block may hold several concatenated DER certificates. */
function countCertificates(der: Buffer): number | null {
  let n = 0;
  let offset = 0;
  while (offset < der.length) {
    try {
      const end = readElement(der, offset).end;
      new X509Certificate(der.subarray(offset, end));
      offset = end;
    } catch {
      return null;
    }
    n++;
  }
  return n;
}

/** The reason status.certificate content is invalid, or null when valid (empty is valid). */
export function certificateContentError(pem: Buffer): string | null {
  if (pem.length === 0) return null;
  let rest = pem;
  let blocks = 0;
  for (let found = decodePem(rest); found; found = decodePem(rest)) {
    const { block } = found;
    if (block.type !== certificateBlockType) return `only CERTIFICATE PEM blocks are allowed, found ${goQuote(block.type)}`;
    if (Object.keys(block.headers).length !== 0) return 'no PEM block headers are permitted';
    blocks++;
    const n = countCertificates(block.bytes);
    if (n === null) return malformed;
    if (n === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    rest = found.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : null;
}
