import { certificateContentError } from './certificateParsing';
import { derToPem, makeCertificatePem, makeRequestPem, pemToDer } from './testing/fixtures';

describe('certificateContentError (rule 19)', () => {
  const cert = (): string => makeCertificatePem();
  const cases: [string, () => string, string | null][] = [
    ['empty content', () => '', null],
    ['one certificate', cert, null],
    ['text before and after the block', () => `issued by test\n${cert()}\nthanks\n`, null],
    ['a chain of two blocks', () => cert() + cert(), null],
    ['two DER certificates in one block', () => derToPem(Buffer.concat([pemToDer(cert()), pemToDer(cert())]), 'CERTIFICATE'), null],
    ['CRLF line endings', () => cert().replace(/\n/g, '\r\n'), null],
    ['no PEM at all', () => 'not a certificate', 'must contain at least one CERTIFICATE PEM block'],
    ['a block with broken base64 only', () => '-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n', 'must contain at least one CERTIFICATE PEM block'],
    ['a request block', () => makeRequestPem('ec256'), 'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"'],
    ['a certificate then a key block', () => cert() + derToPem(Buffer.from([0x30, 0x00]), 'PRIVATE KEY'), 'only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"'],
    ['PEM headers', () => cert().replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\n\n'), 'no PEM block headers are permitted'],
    ['an empty block', () => '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n', 'found CERTIFICATE PEM block containing 0 certificates'],
    ['a block of garbage', () => derToPem(Buffer.from('0403010203', 'hex'), 'CERTIFICATE'), 'x509: malformed certificate'],
    ['a truncated certificate', () => derToPem(pemToDer(cert()).subarray(0, 100), 'CERTIFICATE'), 'x509: malformed certificate'],
  ];
  it.each(cases)('%s', (_name, pem, expected) => {
    expect(certificateContentError(Buffer.from(pem()))).toBe(expected);
  });
});
