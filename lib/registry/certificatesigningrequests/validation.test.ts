import type { CertificateSigningRequest, CertificateSigningRequestCondition } from '../../api';
import { errors } from '../../machinery/errors';
import { FieldError, fieldErrorBody, FieldErrorType } from '../../machinery/fieldErrors';
import { CsrEndpoint, validateCertificateSigningRequestCreate, validateCertificateSigningRequestUpdate } from './validation';
import { b64, breakSignature, makeCertificatePem, makeRequestPem } from './testing/fixtures';

type Csr = CertificateSigningRequest;
type Expected = [FieldErrorType, string, string];

const allUsages =
  'supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"';
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function valid(): Csr {
  return {
    apiVersion: 'certificates.svc.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'csr-1' },
    spec: {
      request: b64(makeRequestPem('ec256')),
      signerName: 'svc.io/svc-apiserver-client',
      usages: ['digital signature', 'client auth'],
    },
  };
}

function cond(type: string, status = 'True', extra: Partial<CertificateSigningRequestCondition> = {}): CertificateSigningRequestCondition {
  return { type, status, ...extra };
}

function withSpec(patch: Partial<NonNullable<Csr['spec']>>): (c: Csr) => void {
  return (c) => {
    c.spec = { ...c.spec, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete (c.spec as Record<string, unknown>)[k];
  };
}

function withStatus(status: NonNullable<Csr['status']>): (c: Csr) => void {
  return (c) => {
    c.status = status;
  };
}

const triple = (e: FieldError): Expected => [e.type, e.field, fieldErrorBody(e)];

const a63 = 'a'.repeat(63);
const domain253 = `${a63}.${a63}.${a63}.${'d'.repeat(61)}`;

describe('CSR create validation (errors.md §5 rules 1–19)', () => {
  const notPem = b64('hello');
  const cases: [string, (c: Csr) => void, Expected[]][] = [
    ['a valid request', () => undefined, []],
    ['RSA request', withSpec({ request: b64(makeRequestPem('rsa')) }), []],
    ['ECDSA P-384 request', withSpec({ request: b64(makeRequestPem('ec384')) }), []],
    ['Ed25519 request', withSpec({ request: b64(makeRequestPem('ed25519')) }), []],
    // 1
    ['1: request not PEM', withSpec({ request: notPem }), [['FieldValueInvalid', 'spec.request', `Invalid value: "${notPem}": PEM block type must be CERTIFICATE REQUEST`]]],
    ['1: request missing', withSpec({ request: undefined }), [['FieldValueInvalid', 'spec.request', 'Invalid value: null: PEM block type must be CERTIFICATE REQUEST']]],
    [
      '1: broken signature',
      withSpec({ request: b64(breakSignature(makeRequestPem('ec256'))) }),
      [['FieldValueInvalid', 'spec.request', `Invalid value: "${b64(breakSignature(makeRequestPem('ec256')))}": x509: ECDSA verification failure`]],
    ],
    // 2
    ['2: usages empty', withSpec({ usages: [] }), [['FieldValueRequired', 'spec.usages', 'Required value']]],
    ['2: usages missing', withSpec({ usages: undefined }), [['FieldValueRequired', 'spec.usages', 'Required value']]],
    // 3
    ['3: unknown usage', withSpec({ usages: ['client auth', 'foo'] }), [['FieldValueNotSupported', 'spec.usages[1]', `Unsupported value: "foo": ${allUsages}`]]],
    // 4
    [
      '4: duplicate usage',
      withSpec({ usages: ['client auth', 'digital signature', 'client auth'] }),
      [['FieldValueDuplicate', 'spec.usages[2]', 'Duplicate value: "client auth"']],
    ],
    // 5
    ['5: signerName missing', withSpec({ signerName: undefined }), [['FieldValueRequired', 'spec.signerName', 'Required value']]],
    // 6
    [
      '6: legacy signer',
      withSpec({ signerName: 'svc.io/legacy-unknown' }),
      [['FieldValueInvalid', 'spec.signerName', 'Invalid value: "svc.io/legacy-unknown": the legacy signerName is not allowed via this API version']],
    ],
    // 7
    [
      '7: no slash',
      withSpec({ signerName: 'svc.io' }),
      [['FieldValueInvalid', 'spec.signerName', `Invalid value: "svc.io": must be a fully qualified domain and path of the form 'example.com/signer-name'`]],
    ],
    [
      '7: two slashes (stops further checks)',
      withSpec({ signerName: 'Bad/x/y' }),
      [['FieldValueInvalid', 'spec.signerName', `Invalid value: "Bad/x/y": must be a fully qualified domain and path of the form 'example.com/signer-name'`]],
    ],
    // 8
    ['8: domain over 253', withSpec({ signerName: `${a63}.${a63}.${a63}.${a63}/x` }), [['FieldValueTooLong', 'spec.signerName', 'Too long: may not be more than 253 bytes']]],
    // 9
    ['9: bad domain label', withSpec({ signerName: 'Svc.IO/x' }), [['FieldValueInvalid', 'spec.signerName', `Invalid value: "Svc.IO": validating label "Svc": ${labelMsg}`]]],
    [
      '9: domain label over 63',
      withSpec({ signerName: `${'a'.repeat(64)}.io/x` }),
      [['FieldValueInvalid', 'spec.signerName', `Invalid value: "${'a'.repeat(64)}.io": validating label "${'a'.repeat(64)}": must be no more than 63 characters`]],
    ],
    // 10
    ['10: single-label domain', withSpec({ signerName: 'svc/x' }), [['FieldValueInvalid', 'spec.signerName', 'Invalid value: "svc": should be a domain with at least two segments separated by dots']]],
    // 11
    ['11: bad path label', withSpec({ signerName: 'svc.io/a.Bad.c_' }), [['FieldValueInvalid', 'spec.signerName', `Invalid value: "a.Bad.c_": validating label "Bad": ${subdomainMsg}`]]],
    ['11: empty path', withSpec({ signerName: 'svc.io/' }), [['FieldValueInvalid', 'spec.signerName', `Invalid value: "": validating label "": ${subdomainMsg}`]]],
    // 12
    [
      '12: whole name over 571',
      withSpec({ signerName: `${domain253}/${'p'.repeat(253)}.${'q'.repeat(100)}` }),
      [['FieldValueTooLong', 'spec.signerName', 'Too long: may not be more than 571 bytes']],
    ],
    // 13
    [
      '13: expirationSeconds 599',
      withSpec({ expirationSeconds: 599 }),
      [['FieldValueInvalid', 'spec.expirationSeconds', 'Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']],
    ],
    ['13: expirationSeconds 600', withSpec({ expirationSeconds: 600 }), []],
    // 14
    ['14: empty condition type', withStatus({ conditions: [cond('')] }), [['FieldValueRequired', 'status.conditions[0].type', 'Required value']]],
    // 15
    ['15: empty condition status', withStatus({ conditions: [cond('Failed', '')] }), [['FieldValueRequired', 'status.conditions[0].status', 'Required value']]],
    // 16
    [
      '16: Approved may only be True',
      withStatus({ conditions: [cond('Approved', 'False')] }),
      [['FieldValueNotSupported', 'status.conditions[0].status', 'Unsupported value: "False": supported values: "True"']],
    ],
    [
      '16: other types take True/False/Unknown',
      withStatus({ conditions: [cond('Custom', 'Maybe'), cond('Other', 'Unknown')] }),
      [['FieldValueNotSupported', 'status.conditions[0].status', 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"']],
    ],
    // 17
    [
      '17: Approved and Denied',
      withStatus({ conditions: [cond('Approved'), cond('Denied')] }),
      [['FieldValueInvalid', 'status.conditions', 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']],
    ],
    // 18
    ['18: duplicate type', withStatus({ conditions: [cond('Failed'), cond('Failed')] }), [['FieldValueDuplicate', 'status.conditions[1].type', 'Duplicate value: "Failed"']]],
    [
      '17+18: Denied, Approved, Approved',
      withStatus({ conditions: [cond('Denied'), cond('Approved'), cond('Approved')] }),
      [
        ['FieldValueInvalid', 'status.conditions', 'Invalid value: "Approved": Approved and Denied conditions are mutually exclusive'],
        ['FieldValueInvalid', 'status.conditions', 'Invalid value: "Approved": Approved and Denied conditions are mutually exclusive'],
        ['FieldValueDuplicate', 'status.conditions[2].type', 'Duplicate value: "Approved"'],
      ],
    ],
    // 19
    ['19: a valid certificate', withStatus({ certificate: b64(makeCertificatePem()) }), []],
    [
      '19: no PEM block',
      withStatus({ certificate: b64('junk') }),
      [['FieldValueInvalid', 'status.certificate', 'Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']],
    ],
    [
      '19: request block',
      withStatus({ certificate: b64(makeRequestPem('ec256')) }),
      [['FieldValueInvalid', 'status.certificate', 'Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"']],
    ],
  ];

  it.each(cases)('%s', (_name, mutate, expected) => {
    const csr = valid();
    mutate(csr);
    expect(validateCertificateSigningRequestCreate(csr).map(triple)).toEqual(expected);
  });

  const gk = { group: 'certificates.svc.io', kind: 'CertificateSigningRequest' };
  const rendered: [string, (c: Csr) => void, string][] = [
    [
      'usages and signerName missing',
      (c) => {
        c.metadata = { name: 'x' };
        withSpec({ usages: undefined, signerName: undefined })(c);
      },
      'CertificateSigningRequest.certificates.svc.io "x" is invalid: [spec.usages: Required value, spec.signerName: Required value]',
    ],
    [
      'expirationSeconds',
      withSpec({ expirationSeconds: 599 }),
      'CertificateSigningRequest.certificates.svc.io "csr-1" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ],
    [
      'unparseable request and bad certificate',
      (c) => {
        withSpec({ request: b64('x') })(c);
        withStatus({ certificate: b64('junk') })(c);
      },
      `CertificateSigningRequest.certificates.svc.io "csr-1" is invalid: [spec.request: Invalid value: "${b64('x')}": PEM block type must be CERTIFICATE REQUEST, status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block]`,
    ],
    [
      'identical errors printed once',
      withStatus({ conditions: [cond('Denied'), cond('Approved'), cond('Approved')] }),
      'CertificateSigningRequest.certificates.svc.io "csr-1" is invalid: [status.conditions: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive, status.conditions[2].type: Duplicate value: "Approved"]',
    ],
  ];
  it.each(rendered)('renders the 422 message: %s', (_name, mutate, message) => {
    const csr = valid();
    mutate(csr);
    const err = errors.invalid(gk, csr.metadata?.name ?? '', validateCertificateSigningRequestCreate(csr));
    expect(err.status.message).toBe(message);
    expect(err.status.details?.causes?.[0]?.reason).toBe(validateCertificateSigningRequestCreate(csr)[0].type);
  });
});

describe('CSR update validation', () => {
  const cert = (): string => b64(makeCertificatePem());
  const approved = cond('Approved', 'True', { reason: 'R', lastUpdateTime: '2026-01-10T08:00:00Z' });

  function pair(oldMut: (c: Csr) => void, newMut: (c: Csr) => void): [Csr, Csr] {
    const old = valid();
    oldMut(old);
    const obj = structuredClone(old);
    newMut(obj);
    return [obj, old];
  }
  const none = (): void => undefined;

  const cases: [string, CsrEndpoint, (c: Csr) => void, (c: Csr) => void, Expected[]][] = [
    ['no change', 'main', none, none, []],
    // removal of protected conditions: every endpoint
    ...(['main', 'status', 'approval'] as CsrEndpoint[]).map(
      (ep): [string, CsrEndpoint, (c: Csr) => void, (c: Csr) => void, Expected[]] => [
        `remove Failed via ${ep}`,
        ep,
        withStatus({ conditions: [cond('Failed')] }),
        withStatus({}),
        [['FieldValueForbidden', 'status.conditions', 'Forbidden: updates may not remove a condition of type "Failed"']],
      ],
    ),
    [
      'remove Approved via approval',
      'approval',
      withStatus({ conditions: [approved] }),
      withStatus({ conditions: [] }),
      [['FieldValueForbidden', 'status.conditions', 'Forbidden: updates may not remove a condition of type "Approved"']],
    ],
    // adding/modifying approval conditions: all but /approval
    ['add Approved via approval', 'approval', none, withStatus({ conditions: [approved] }), []],
    [
      'add Approved via status',
      'status',
      none,
      withStatus({ conditions: [approved] }),
      [['FieldValueForbidden', 'status.conditions', 'Forbidden: updates may not add a condition of type "Approved"']],
    ],
    [
      'add Denied via main',
      'main',
      none,
      withStatus({ conditions: [cond('Denied')] }),
      [['FieldValueForbidden', 'status.conditions', 'Forbidden: updates may not add a condition of type "Denied"']],
    ],
    ['modify Approved via approval', 'approval', withStatus({ conditions: [approved] }), withStatus({ conditions: [{ ...approved, reason: 'Other' }] }), []],
    ['the same instant in another spelling is no modification', 'status', withStatus({ conditions: [approved] }), withStatus({ conditions: [{ ...approved, lastUpdateTime: '2026-01-10T09:00:00+01:00' }] }), []],
    [
      'Denied added next to Approved via approval',
      'approval',
      withStatus({ conditions: [approved] }),
      withStatus({ conditions: [approved, cond('Denied')] }),
      [['FieldValueInvalid', 'status.conditions', 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']],
    ],
    // certificate
    ['set certificate via status', 'status', withStatus({ conditions: [approved] }), withStatus({ conditions: [approved], certificate: cert() }), []],
    [
      'set certificate via approval',
      'approval',
      none,
      withStatus({ certificate: cert() }),
      [['FieldValueForbidden', 'status.certificate', 'Forbidden: updates may not set certificate content']],
    ],
    [
      'set certificate via main',
      'main',
      none,
      withStatus({ certificate: cert() }),
      [['FieldValueForbidden', 'status.certificate', 'Forbidden: updates may not set certificate content']],
    ],
    [
      'replace certificate via status',
      'status',
      withStatus({ certificate: cert() }),
      withStatus({ certificate: b64(`x\n${makeCertificatePem()}`) }),
      [['FieldValueForbidden', 'status.certificate', 'Forbidden: updates may not modify existing certificate content']],
    ],
    [
      'invalid certificate via status',
      'status',
      none,
      withStatus({ certificate: b64('junk') }),
      [['FieldValueInvalid', 'status.certificate', 'Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']],
    ],
    // compatibility relaxations: the stored object already breaks the rule
    ['stored duplicate usages', 'main', withSpec({ usages: ['client auth', 'client auth'] }), none, []],
    ['stored unknown usage', 'main', withSpec({ usages: ['foo'] }), none, []],
    ['stored legacy signer', 'status', withSpec({ signerName: 'svc.io/legacy-unknown' }), withStatus({ conditions: [cond('Failed')] }), []],
    ['stored duplicate condition types', 'status', withStatus({ conditions: [cond('Failed'), cond('Failed')] }), withStatus({ conditions: [cond('Failed'), cond('Failed'), cond('X', 'False')] }), []],
    ['stored empty condition type', 'status', withStatus({ conditions: [cond('')] }), none, []],
    ['stored Approved and Denied', 'approval', withStatus({ conditions: [approved, cond('Denied')] }), none, []],
    ['stored invalid certificate untouched', 'status', withStatus({ certificate: b64('junk') }), withStatus({ certificate: b64('junk'), conditions: [cond('Failed')] }), []],
    [
      'stored invalid certificate replaced',
      'status',
      withStatus({ certificate: b64('junk') }),
      withStatus({ certificate: b64('other junk') }),
      [['FieldValueForbidden', 'status.certificate', 'Forbidden: updates may not modify existing certificate content']],
    ],
    [
      'a problem the stored object does not have is still refused',
      'status',
      withStatus({ conditions: [cond('Failed')] }),
      withStatus({ conditions: [cond('Failed'), cond('Failed')] }),
      [['FieldValueDuplicate', 'status.conditions[1].type', 'Duplicate value: "Failed"']],
    ],
  ];

  it.each(cases)('%s (%s)', (_name, endpoint, oldMut, newMut, expected) => {
    const [obj, old] = pair(oldMut, newMut);
    expect(validateCertificateSigningRequestUpdate(obj, old, endpoint).map(triple)).toEqual(expected);
  });

  it('names the change when an approval condition is modified outside /approval', () => {
    const [obj, old] = pair(withStatus({ conditions: [approved] }), withStatus({ conditions: [{ ...approved, reason: 'Other' }] }));
    const errs = validateCertificateSigningRequestUpdate(obj, old, 'main');
    expect(errs).toHaveLength(1);
    expect(errs[0].type).toBe('FieldValueForbidden');
    expect(errs[0].field).toBe('status.conditions');
    expect(errs[0].detail).toMatch(/^updates may not modify a condition of type "Approved"\n/);
    expect(errs[0].detail).toContain('- \t\tReason: "R",\n+ \t\tReason: "Other",');
  });
});
