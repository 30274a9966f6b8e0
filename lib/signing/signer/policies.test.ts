import { signerNames } from '../../api';
import { isSvcletClientShape, signerPolicies, signerPolicy, type RequestFacts } from './policies';

const node: RequestFacts = { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] };
const with_ = (p: Partial<RequestFacts>): RequestFacts => ({ ...node, ...p });

const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const servingUsages = ['digital signature', 'key encipherment', 'server auth'];

type Row = [string, RequestFacts, string[], string | null];

describe(signerNames.apiserverClientSvclet, () => {
  const rows: Row[] = [
    ['valid (RSA usages)', node, clientUsages, null],
    ['valid (no key encipherment)', node, ['client auth', 'digital signature'], null],
    ['valid with duplicated usages (compared as a set)', node, ['client auth', 'client auth', 'digital signature'], null],
    ['no O', with_({ organizations: [] }), clientUsages, 'subject organization is not system:nodes'],
    ['extra O', with_({ organizations: ['system:nodes', 'x'] }), clientUsages, 'subject organization is not system:nodes'],
    ['wrong O', with_({ organizations: ['system:masters'] }), clientUsages, 'subject organization is not system:nodes'],
    ['DNS SAN', with_({ dnsNames: ['a'] }), clientUsages, 'DNS subjectAltNames are not allowed'],
    ['email SAN', with_({ emailAddresses: ['a@b'] }), clientUsages, 'Email subjectAltNames are not allowed'],
    ['IP SAN', with_({ ipAddresses: ['10.0.0.1'] }), clientUsages, 'IP subjectAltNames are not allowed'],
    ['URI SAN', with_({ uris: ['spiffe://a'] }), clientUsages, 'URI subjectAltNames are not allowed'],
    ['CN prefix', with_({ commonName: 'node:n1' }), clientUsages, 'subject common name does not begin with system:node:'],
    ['empty CN', with_({ commonName: '' }), clientUsages, 'subject common name does not begin with system:node:'],
    ['server auth', node, servingUsages, 'usages did not match [client auth digital signature key encipherment]'],
    ['missing digital signature', node, ['client auth'], 'usages did not match [client auth digital signature key encipherment]'],
    ['extra usage', node, [...clientUsages, 'server auth'], 'usages did not match [client auth digital signature key encipherment]'],
    // Order: each row breaks everything after the check it expects.
    ['O before SANs', with_({ organizations: [], dnsNames: ['a'], commonName: 'x' }), [], 'subject organization is not system:nodes'],
    ['DNS before email', with_({ dnsNames: ['a'], emailAddresses: ['e'], ipAddresses: ['1.1.1.1'], uris: ['u:x'] }), [], 'DNS subjectAltNames are not allowed'],
    ['email before IP', with_({ emailAddresses: ['e'], ipAddresses: ['1.1.1.1'], uris: ['u:x'] }), [], 'Email subjectAltNames are not allowed'],
    ['IP before URI', with_({ ipAddresses: ['1.1.1.1'], uris: ['u:x'] }), [], 'IP subjectAltNames are not allowed'],
    ['URI before CN', with_({ uris: ['u:x'], commonName: 'x' }), [], 'URI subjectAltNames are not allowed'],
    ['CN before usages', with_({ commonName: 'x' }), [], 'subject common name does not begin with system:node:'],
  ];
  test.each(rows)('%s', (_n, csr, usages, want) => {
    expect(signerPolicy(signerNames.apiserverClientSvclet)?.validate(csr, usages)).toBe(want);
    expect(isSvcletClientShape(csr, usages)).toBe(want === null);
  });
});

describe(signerNames.svcletServing, () => {
  const rows: Row[] = [
    ['valid with DNS', with_({ dnsNames: ['n1.example'] }), servingUsages, null],
    ['valid with IP only, no key encipherment', with_({ ipAddresses: ['10.0.0.1'] }), ['server auth', 'digital signature'], null],
    ['wrong O', with_({ organizations: ['x'], dnsNames: ['a'] }), servingUsages, 'subject organization is not system:nodes'],
    ['no DNS or IP', node, servingUsages, 'DNS or IP subjectAltName is required'],
    ['email', with_({ dnsNames: ['a'], emailAddresses: ['e@x'] }), servingUsages, 'Email subjectAltNames are not allowed'],
    ['URI', with_({ dnsNames: ['a'], uris: ['spiffe://x'] }), servingUsages, 'URI subjectAltNames are not allowed'],
    ['client usages', with_({ dnsNames: ['a'] }), clientUsages, 'usages did not match [digital signature key encipherment server auth]'],
    ['CN', with_({ dnsNames: ['a'], commonName: 'n1' }), servingUsages, 'subject common name does not begin with system:node:'],
    // Order.
    ['O before SAN presence', with_({ organizations: [], commonName: 'x' }), [], 'subject organization is not system:nodes'],
    ['SAN presence before email', with_({ emailAddresses: ['e'], uris: ['u:x'] }), [], 'DNS or IP subjectAltName is required'],
    ['email before URI', with_({ ipAddresses: ['1.1.1.1'], emailAddresses: ['e'], uris: ['u:x'] }), [], 'Email subjectAltNames are not allowed'],
    ['URI before usages', with_({ ipAddresses: ['1.1.1.1'], uris: ['u:x'], commonName: 'x' }), [], 'URI subjectAltNames are not allowed'],
    ['usages before CN', with_({ ipAddresses: ['1.1.1.1'], commonName: 'x' }), [], 'usages did not match [digital signature key encipherment server auth]'],
  ];
  test.each(rows)('%s', (_n, csr, usages, want) => {
    expect(signerPolicy(signerNames.svcletServing)?.validate(csr, usages)).toBe(want);
  });
});

describe(signerNames.apiserverClient, () => {
  const any: RequestFacts = { commonName: 'alice', organizations: ['ops', 'dev'], dnsNames: ['a'], emailAddresses: ['e@x'], ipAddresses: ['::1'], uris: ['u:x'] };
  const rows: Array<[string, string[], string | null]> = [
    ['all three', clientUsages, null],
    ['client auth only', ['client auth'], null],
    ['repeated', ['client auth', 'client auth'], null],
    ['server auth', ['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
    ['first offending usage wins', ['signing', 'client auth', 'server auth'], 'invalid usage for client certificate: signing'],
    ['invalid before missing', ['any'], 'invalid usage for client certificate: any'],
    ['missing client auth', ['digital signature', 'key encipherment'], 'missing required usage for client certificate: client auth'],
    ['empty', [], 'missing required usage for client certificate: client auth'],
  ];
  test.each(rows)('%s', (_n, usages, want) => {
    expect(signerPolicy(signerNames.apiserverClient)?.validate(any, usages)).toBe(want);
    expect(isSvcletClientShape(any, usages)).toBe(false);
  });
});

test(`${signerNames.legacyUnknown} accepts anything`, () => {
  expect(signerPolicy(signerNames.legacyUnknown)?.validate({ ...node, organizations: [], commonName: '' }, ['cert sign', 'server auth'])).toBeNull();
});

test('the table has exactly the four in-tree signers; others have no policy', () => {
  expect([...signerPolicies.keys()].sort()).toEqual(Object.values(signerNames).sort());
  expect(signerPolicy('svc.io/other')).toBeUndefined();
  expect(signerPolicy('example.com/x')).toBeUndefined();
});
