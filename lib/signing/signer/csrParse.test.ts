import { CertificateRequestParseError, parseCertificateRequest, verifyCertificateRequestSignature } from './csrParse';
import { breakSignature, makeRequest, openssl, type RequestKeyKind } from './testing/requests';

const kinds: Array<[RequestKeyKind, string, string | undefined]> = [
  ['rsa-2048', 'RSA', undefined],
  ['ecdsa-p256', 'ECDSA', 'P-256'],
  ['ecdsa-p384', 'ECDSA', 'P-384'],
  ['ed25519', 'Ed25519', undefined],
];

describe('parseCertificateRequest', () => {
  test.each(kinds)('%s request: key type, curve, SPKI, good signature', async (kind, type, curve) => {
    const csr = parseCertificateRequest(await makeRequest({ key: kind }));
    expect(csr.publicKey.type).toBe(type);
    expect(csr.publicKey.namedCurve).toBe(curve);
    expect(csr.publicKey.spki[0]).toBe(0x30);
    await expect(verifyCertificateRequestSignature(csr)).resolves.toBeUndefined();
  });

  test.each<[RequestKeyKind, string]>([
    ['rsa-2048', 'crypto/rsa: verification error'],
    ['ecdsa-p256', 'x509: ECDSA verification failure'],
    ['ecdsa-p384', 'x509: ECDSA verification failure'],
    ['ed25519', 'x509: Ed25519 verification failure'],
  ])('%s request with a broken signature', async (kind, reason) => {
    const csr = parseCertificateRequest(breakSignature(await makeRequest({ key: kind })));
    await expect(verifyCertificateRequestSignature(csr)).rejects.toThrow(`unable to verify certificate request signature: ${reason}`);
  });

  test('subject: full name kept, Go fields extracted (last CN, every O in order, unknown attributes not carried)', async () => {
    const csr = parseCertificateRequest(
      await makeRequest({
        subject: [{ CN: ['first'] }, { O: ['ops'] }, { C: ['DE'] }, { O: ['dev'] }, { OU: ['u'] }, { '0.9.2342.19200300.100.1.1': ['uid-1'] }, { CN: ['alice'] }],
      }),
    );
    expect(csr.commonName).toBe('alice');
    expect(csr.organizations).toEqual(['ops', 'dev']);
    expect(csr.subject).toMatchObject({ commonName: 'alice', organizations: ['ops', 'dev'], countries: ['DE'], organizationalUnits: ['u'] });
    expect(JSON.stringify(csr.subject)).not.toContain('uid-1');
    expect(csr.subjectName.getField('0.9.2342.19200300.100.1.1')).toEqual(['uid-1']);
  });

  test('empty subject', async () => {
    const csr = parseCertificateRequest(await makeRequest({ subject: [], dns: ['a'] }));
    expect(csr.commonName).toBe('');
    expect(csr.organizations).toEqual([]);
  });

  test('SANs of the four kinds; IPv4-mapped IPv6 shown as IPv4', async () => {
    const csr = parseCertificateRequest(
      await makeRequest({ dns: ['a.example', 'b.example'], ips: ['10.0.0.1', '::1', '::ffff:102:304', '2001:db8::1'], emails: ['a@b.c'], uris: ['spiffe://x/y'] }),
    );
    expect(csr.dnsNames).toEqual(['a.example', 'b.example']);
    expect(csr.ipAddresses).toEqual(['10.0.0.1', '::1', '1.2.3.4', '2001:db8::1']);
    expect(csr.emailAddresses).toEqual(['a@b.c']);
    expect(csr.uris).toEqual(['spiffe://x/y']);
  });

  test.each<[string, string[], string]>([
    ['RSA', ['-newkey', 'rsa:2048'], 'RSA'],
    ['P-384 (signed with SHA-256)', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], 'ECDSA'],
    ['Ed25519', ['-newkey', 'ed25519'], 'Ed25519'],
  ])('an openssl-made %s request with an otherName SAN and extra extensions', async (_n, keyArgs, type) => {
    const pem = openssl(
      ['req', '-new', ...keyArgs, '-nodes', '-keyout', 'k.pem', '-subj', '/CN=system:node:n1/O=system:nodes',
        '-addext', 'subjectAltName=DNS:n1,IP:10.1.2.3,otherName:1.2.3.4;UTF8:x', '-addext', 'basicConstraints=critical,CA:TRUE', '-out', 'r.pem'],
      {},
      'r.pem',
    );
    const csr = parseCertificateRequest(Buffer.from(pem));
    expect(csr.publicKey.type).toBe(type);
    expect(csr).toMatchObject({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'], ipAddresses: ['10.1.2.3'], emailAddresses: [], uris: [] });
    await expect(verifyCertificateRequestSignature(csr)).resolves.toBeUndefined();
  });

  test.each<[string, string[]]>([
    ['RSA with SHA-512 (checked directly)', ['-newkey', 'rsa:2048', '-sha512']],
    ['P-256 with SHA-384 (checked directly)', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-sha384']],
    ['RSA with SHA-1 (left to the library)', ['-newkey', 'rsa:2048', '-sha1']],
    ['RSA-PSS (left to the library)', ['-newkey', 'rsa:2048', '-sigopt', 'rsa_padding_mode:pss', '-sha256']],
  ])('%s: a good signature verifies, a broken one does not', async (_n, args) => {
    const pem = openssl(['req', '-new', ...args, '-nodes', '-keyout', 'k.pem', '-subj', '/CN=x', '-out', 'r.pem'], {}, 'r.pem');
    await expect(verifyCertificateRequestSignature(parseCertificateRequest(pem))).resolves.toBeUndefined();
    await expect(verifyCertificateRequestSignature(parseCertificateRequest(breakSignature(pem)))).rejects.toThrow('unable to verify certificate request signature: ');
  });

  test.each<[string, string | Buffer, string]>([
    ['not PEM', 'hello', 'PEM block type must be CERTIFICATE REQUEST'],
    ['empty', Buffer.alloc(0), 'PEM block type must be CERTIFICATE REQUEST'],
    ['a CERTIFICATE block', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'PEM block type must be CERTIFICATE REQUEST'],
    ['the first block decides', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n', 'PEM block type must be CERTIFICATE REQUEST'],
    ['garbage DER', '-----BEGIN CERTIFICATE REQUEST-----\nMAMCAQA=\n-----END CERTIFICATE REQUEST-----\n', 'x509: malformed certificate request'],
  ])('rejects %s', (_n, input, msg) => {
    let err: unknown;
    try {
      parseCertificateRequest(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CertificateRequestParseError);
    expect((err as Error).message).toContain(msg);
  });

  test('leading text before the PEM block is skipped (like Go pem.Decode)', async () => {
    const csr = parseCertificateRequest(`comment line\n${await makeRequest()}`);
    expect(csr.commonName).toBe('system:node:n1');
  });
});
