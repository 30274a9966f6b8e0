import { children, readElement, rawOf } from './der';
import { certificateRequestError, parseCertificateRequestPem } from './requestParsing';
import { breakSignature, derToPem, KeyKind, makeRequestPem, pemToDer } from './testing/fixtures';

/** DER length octets. */
function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function sequence(...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([0x30]), derLength(body.length), body]);
}

/** The request of `kind` with its AlgorithmIdentifier replaced (signature kept). */
function withSignatureAlgorithm(kind: KeyKind, algorithmIdentifier: Buffer): string {
  const der = pemToDer(makeRequestPem(kind));
  const [info, , sig] = children(der, readElement(der, 0));
  return derToPem(sequence(Buffer.from(rawOf(der, info)), algorithmIdentifier, Buffer.from(rawOf(der, sig))), 'CERTIFICATE REQUEST');
}

const algId = {
  md5WithRsa: Buffer.from('300d06092a864886f70d0101040500', 'hex'),
  sha224WithRsa: Buffer.from('300d06092a864886f70d01010e0500', 'hex'),
  ecdsaWithSha256: Buffer.from('300a06082a8648ce3d040302', 'hex'),
};

describe('certificateRequestError', () => {
  const accepted: [string, () => string][] = [
    ['RSA 2048, SHA-256', () => makeRequestPem('rsa')],
    ['ECDSA P-256', () => makeRequestPem('ec256')],
    ['ECDSA P-384', () => makeRequestPem('ec384')],
    ['Ed25519', () => makeRequestPem('ed25519')],
    ['RSA-PSS (salt = hash length)', () => makeRequestPem('rsa', ['-sha256', '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:-1'])],
    ['RSA SHA-1 (allowed for requests)', () => makeRequestPem('rsa', ['-sha1'])],
    ['ECDSA P-256 with SHA-384', () => makeRequestPem('ec256', ['-sha384'])],
    ['text around the block', () => `some text\n${makeRequestPem('ec256')}trailing text\n`],
    ['CRLF line endings', () => makeRequestPem('ec256').replace(/\n/g, '\r\n')],
  ];
  it.each(accepted)('accepts %s', (_name, pem) => {
    expect(certificateRequestError(Buffer.from(pem()))).toBeNull();
  });

  const rejected: [string, () => string, string][] = [
    ['empty', () => '', 'PEM block type must be CERTIFICATE REQUEST'],
    ['not PEM', () => 'hello', 'PEM block type must be CERTIFICATE REQUEST'],
    ['raw DER', () => pemToDer(makeRequestPem('ec256')).toString('latin1'), 'PEM block type must be CERTIFICATE REQUEST'],
    ['wrong block type', () => makeRequestPem('ec256').replace(/CERTIFICATE REQUEST/g, 'CERTIFICATE'), 'PEM block type must be CERTIFICATE REQUEST'],
    ['first block not a request', () => derToPem(Buffer.from([0x30, 0x00]), 'PRIVATE KEY') + makeRequestPem('ec256'), 'PEM block type must be CERTIFICATE REQUEST'],
    ['broken RSA signature', () => breakSignature(makeRequestPem('rsa')), 'crypto/rsa: verification error'],
    ['broken ECDSA P-256 signature', () => breakSignature(makeRequestPem('ec256')), 'x509: ECDSA verification failure'],
    ['broken ECDSA P-384 signature', () => breakSignature(makeRequestPem('ec384')), 'x509: ECDSA verification failure'],
    ['broken Ed25519 signature', () => breakSignature(makeRequestPem('ed25519')), 'x509: Ed25519 verification failure'],
    ['garbage DER', () => derToPem(Buffer.from('0403010203', 'hex'), 'CERTIFICATE REQUEST'), "asn1: structure error: tags don't match"],
    ['truncated DER', () => derToPem(pemToDer(makeRequestPem('ec256')).subarray(0, 40), 'CERTIFICATE REQUEST'), 'asn1: syntax error: data truncated'],
    ['trailing data', () => derToPem(Buffer.concat([pemToDer(makeRequestPem('ec256')), Buffer.from([0])]), 'CERTIFICATE REQUEST'), 'asn1: syntax error: trailing data'],
    ['MD5 signature algorithm', () => withSignatureAlgorithm('rsa', algId.md5WithRsa), 'x509: cannot verify signature: insecure algorithm MD5-RSA'],
    ['unknown signature algorithm', () => withSignatureAlgorithm('rsa', algId.sha224WithRsa), 'x509: cannot verify signature: algorithm unimplemented'],
    [
      'algorithm for another key type',
      () => withSignatureAlgorithm('rsa', algId.ecdsaWithSha256),
      'x509: signature algorithm specifies an ECDSA public key, but have public key of type *rsa.PublicKey',
    ],
  ];
  it.each(rejected)('rejects %s', (_name, pem, message) => {
    expect(certificateRequestError(Buffer.from(pem(), 'latin1'))).toBe(message);
  });
});

describe('parseCertificateRequestPem', () => {
  it('exposes the subject for signers', () => {
    const parsed = parseCertificateRequestPem(Buffer.from(makeRequestPem('ec256')));
    expect(parsed.request.subject).toBe('CN=system:node:n1, O=system:nodes');
    expect(parsed.publicKey?.algorithm).toBe('ECDSA');
    expect(parsed.signatureAlgorithm.name).toBe('ECDSA-SHA256');
  });
});
