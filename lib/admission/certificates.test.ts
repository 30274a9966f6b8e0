// The CSR admission plugins: who may approve, who may sign, and no system:masters client certs.
import { groups, signerNames, type ApiObject } from '../api';
import type { Authorizer } from '../auth/authorizer';
import { isApiError } from '../machinery/errors';
import { makeRequest, toRequestField } from '../signing/signer/testing/requests';
import type { AdmissionAttributes } from './attributes';
import { certificateApproval } from './certificateApproval';
import { certificateSigning } from './certificateSigning';
import { certificateSubjectRestriction } from './certificateSubjectRestriction';

/** Allows exactly the listed `verb name` pairs on signers, and records what was asked. */
function signerAuthorizer(grants: string[]): Authorizer & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authorize(a) {
      expect(a).toMatchObject({ apiGroup: groups.certificates, apiVersion: '*', resource: 'signers', isResourceRequest: true });
      asked.push(`${a.verb} ${a.name}`);
      return { decision: grants.includes(`${a.verb} ${a.name}`) ? 'allow' : 'noOpinion', reason: '' };
    },
  };
}

const csrResource = { group: groups.certificates, resource: 'certificatesigningrequests' };
const csr = (signerName: string, status: Record<string, unknown> = {}): ApiObject =>
  ({ metadata: { name: 'req' }, spec: { signerName, request: '' }, status }) as ApiObject;

function attrs(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'UPDATE',
    resource: csrResource,
    subresource: '',
    namespaced: false,
    namespace: '',
    name: 'req',
    obj: csr(signerNames.apiserverClient),
    old: csr(signerNames.apiserverClient),
    user: { name: 'alice', groups: ['system:authenticated'] },
    dryRun: false,
    ...over,
  };
}

/** A plugin's answer: it may refuse by throwing at once or through its promise. */
async function outcome(run: () => Promise<void> | void): Promise<string> {
  try {
    await run();
    return 'admitted';
  } catch (e) {
    if (isApiError(e)) return `${e.code} ${e.message}`;
    throw e;
  }
}

describe('CertificateApproval', () => {
  const approved = { conditions: [{ type: 'Approved', status: 'True' }] };
  test.each([
    ['approve on the exact signer', ['approve svc.io/svc-apiserver-client'], 'admitted'],
    ['approve on the domain wildcard', ['approve svc.io/*'], 'admitted'],
    ['sign is not approve', ['sign svc.io/svc-apiserver-client'], `403 certificatesigningrequests.certificates.svc.io "req" is forbidden: user not permitted to approve requests with signerName "svc.io/svc-apiserver-client"`],
    ['nothing', [], `403 certificatesigningrequests.certificates.svc.io "req" is forbidden: user not permitted to approve requests with signerName "svc.io/svc-apiserver-client"`],
  ])('%s', async (_, grants, want) => {
    const az = signerAuthorizer(grants);
    expect(await outcome(() => certificateApproval(az)(attrs({ subresource: 'approval', obj: csr(signerNames.apiserverClient, approved) })))).toBe(want);
  });

  test('the stored signer decides, and the wildcard is tried second', async () => {
    const az = signerAuthorizer([]);
    await outcome(() => certificateApproval(az)(attrs({ subresource: 'approval', obj: csr('example.com/other'), old: csr('example.com/mine') })));
    expect(az.asked).toEqual(['approve example.com/mine', 'approve example.com/*']);
  });

  test.each([
    ['the main resource', { subresource: '' }],
    ['the status subresource', { subresource: 'status' }],
    ['a create', { operation: 'CREATE' as const, subresource: 'approval', old: null }],
    ['another resource', { subresource: 'approval', resource: { group: groups.certificates, resource: 'other' } }],
  ])('ignores %s', async (_, over) => {
    expect(await outcome(() => certificateApproval(signerAuthorizer([]))(attrs(over)))).toBe('admitted');
  });
});

describe('CertificateSigning', () => {
  const withCert = { certificate: 'Y2VydA==' };
  test.each([
    ['certificate set, sign held', withCert, ['sign svc.io/svc-apiserver-client'], 'admitted'],
    ['certificate set, wildcard held', withCert, ['sign svc.io/*'], 'admitted'],
    ['certificate set, only approve held', withCert, ['approve svc.io/svc-apiserver-client'], `403 certificatesigningrequests.certificates.svc.io "req" is forbidden: user not permitted to sign requests with signerName "svc.io/svc-apiserver-client"`],
    ['a Failed condition added, nothing held', { conditions: [{ type: 'Failed', status: 'True' }] }, [], `403 certificatesigningrequests.certificates.svc.io "req" is forbidden: user not permitted to sign requests with signerName "svc.io/svc-apiserver-client"`],
    ['status unchanged, nothing held', {}, [], 'admitted'],
  ])('%s', async (_, status, grants, want) => {
    expect(await outcome(() => certificateSigning(signerAuthorizer(grants))(attrs({ subresource: 'status', obj: csr(signerNames.apiserverClient, status) })))).toBe(want);
  });

  test('updates of the main resource are not its business', async () => {
    expect(await outcome(() => certificateSigning(signerAuthorizer([]))(attrs({ obj: csr(signerNames.apiserverClient, withCert) })))).toBe('admitted');
  });
});

describe('CertificateSubjectRestriction', () => {
  async function create(signerName: string, subject: Array<Record<string, string[]>>): Promise<string> {
    const obj = { metadata: { name: 'req' }, spec: { signerName, request: toRequestField(await makeRequest({ subject })) } } as ApiObject;
    return outcome(() => certificateSubjectRestriction()(attrs({ operation: 'CREATE', old: null, obj })));
  }
  test('system:masters through the API-client signer is refused', async () => {
    expect(await create(signerNames.apiserverClient, [{ CN: ['root'] }, { O: ['team', 'system:masters'] }])).toBe(
      '403 certificatesigningrequests.certificates.svc.io "req" is forbidden: use of svc.io/svc-apiserver-client signer with system:masters group is not allowed',
    );
  });
  test.each([
    ['other organizations', signerNames.apiserverClient, [{ CN: ['alice'] }, { O: ['team'] }] as Array<Record<string, string[]>>],
    ['another signer', signerNames.svcletServing, [{ CN: ['x'] }, { O: ['system:masters'] }] as Array<Record<string, string[]>>],
  ])('%s pass', async (_, signer, subject) => {
    expect(await create(signer, subject)).toBe('admitted');
  });
});
