import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dump } from 'js-yaml';
import { KubeconfigContext, loadKubeconfig, parseKubeconfig } from './kubeconfig';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kubeconfig-'));
  await fs.mkdir(path.join(dir, 'pki'));
  await fs.writeFile(path.join(dir, 'pki', 'ca.crt'), 'CA FROM FILE');
  await fs.writeFile(path.join(dir, 'pki', 'client.crt'), 'CERT FROM FILE');
  await fs.writeFile(path.join(dir, 'pki', 'client.key'), 'KEY FROM FILE');
  await fs.writeFile(path.join(dir, 'token'), '  file-token\n');
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true });
});

interface Doc {
  clusters?: Array<{ name: string; cluster: Record<string, unknown> }>;
  users?: Array<{ name: string; user: Record<string, unknown> }>;
  contexts?: Array<{ name: string; context: Record<string, unknown> }>;
  'current-context'?: string;
}

function doc(over: Partial<Doc> = {}): Doc {
  return {
    clusters: [
      { name: 'main', cluster: { server: 'https://10.0.0.1:6443', 'certificate-authority-data': b64('CA DATA') } },
      { name: 'files', cluster: { server: 'https://files:6443', 'certificate-authority': 'pki/ca.crt', 'tls-server-name': 'api.internal' } },
      { name: 'insecure', cluster: { server: 'https://insecure:6443', 'insecure-skip-tls-verify': true } },
      { name: 'noserver', cluster: { 'certificate-authority-data': b64('CA DATA') } },
    ],
    users: [
      { name: 'admin', user: { 'client-certificate-data': b64('CERT DATA'), 'client-key-data': b64('KEY DATA') } },
      { name: 'file-user', user: { 'client-certificate': 'pki/client.crt', 'client-key': 'pki/client.key', tokenFile: 'token' } },
      { name: 'bearer', user: { token: 'inline-token', tokenFile: 'token' } },
    ],
    contexts: [
      { name: 'admin@main', context: { cluster: 'main', user: 'admin', namespace: 'svc-system' } },
      { name: 'files', context: { cluster: 'files', user: 'file-user' } },
      { name: 'insecure', context: { cluster: 'insecure', user: 'bearer' } },
      { name: 'noserver', context: { cluster: 'noserver', user: 'admin' } },
    ],
    'current-context': 'admin@main',
    ...over,
  };
}

async function write(name: string, d: unknown): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, typeof d === 'string' ? d : dump(d));
  return file;
}

describe('loadKubeconfig', () => {
  const cases: Array<{ name: string; doc: Doc; context?: string; want: Omit<KubeconfigContext, 'ca' | 'cert' | 'key'> & { ca?: string; cert?: string; key?: string } }> = [
    {
      name: 'current context with embedded data',
      doc: doc(),
      want: {
        contextName: 'admin@main',
        clusterName: 'main',
        userName: 'admin',
        namespace: 'svc-system',
        server: 'https://10.0.0.1:6443',
        insecureSkipTLSVerify: false,
        ca: 'CA DATA',
        cert: 'CERT DATA',
        key: 'KEY DATA',
      },
    },
    {
      name: 'named context with files relative to the kubeconfig',
      doc: doc(),
      context: 'files',
      want: {
        contextName: 'files',
        clusterName: 'files',
        userName: 'file-user',
        server: 'https://files:6443',
        insecureSkipTLSVerify: false,
        tlsServerName: 'api.internal',
        ca: 'CA FROM FILE',
        cert: 'CERT FROM FILE',
        key: 'KEY FROM FILE',
        token: 'file-token',
        tokenFile: '<dir>/token',
      },
    },
    {
      name: 'insecure cluster; inline token wins over tokenFile, which is kept for re-reads',
      doc: doc({ 'current-context': 'insecure' }),
      want: {
        contextName: 'insecure',
        clusterName: 'insecure',
        userName: 'bearer',
        server: 'https://insecure:6443',
        insecureSkipTLSVerify: true,
        token: 'inline-token',
        tokenFile: '<dir>/token',
      },
    },
  ];

  it.each(cases)('$name', async ({ doc: d, context, want }) => {
    // Loaded through a relative path from elsewhere: paths still anchor at the file's directory.
    const file = path.relative(process.cwd(), await write('config', d));
    const got = await loadKubeconfig(file, { context });
    const text = (b?: Buffer): string | undefined => b?.toString('utf8');
    const expected: Record<string, unknown> = { ...want };
    if (want.tokenFile) expected.tokenFile = want.tokenFile.replace('<dir>', dir);
    expect({ ...got, ca: text(got.ca), cert: text(got.cert), key: text(got.key) }).toEqual(
      Object.fromEntries(Object.entries({ ca: undefined, cert: undefined, key: undefined, ...expected })),
    );
  });

  const bad: Array<{ name: string; doc: unknown; context?: string; message: string }> = [
    { name: 'no context at all', doc: { apiVersion: 'v1', kind: 'Config' }, message: 'invalid configuration: no configuration has been provided' },
    // The cases of the signer's former reader, as clientcmd words them.
    { name: 'a document that is not a mapping', doc: '- a\n', message: 'invalid configuration: no configuration has been provided' },
    { name: 'a current-context that is not listed', doc: 'current-context: x\ncontexts: []\n', message: 'invalid configuration: [context was not found for specified context: x, cluster has no server defined]' },
    { name: 'a context naming a missing cluster', doc: 'current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\n', message: 'invalid configuration: no configuration has been provided' },
    { name: 'a cluster with an empty entry', doc: 'current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\nclusters: [{name: c, cluster: {}}]\n', message: 'invalid configuration: no configuration has been provided' },
    { name: 'an unknown context', doc: doc(), context: 'nope', message: 'invalid configuration: [context was not found for specified context: nope, cluster has no server defined]' },
    { name: 'a cluster without server', doc: doc({ 'current-context': 'noserver' }), message: 'invalid configuration: no server found for cluster "noserver"' },
    {
      name: 'CA as both data and file',
      doc: doc({ clusters: [{ name: 'main', cluster: { server: 'https://x', 'certificate-authority': 'pki/ca.crt', 'certificate-authority-data': b64('x') } }] }),
      message: 'invalid configuration: certificate-authority-data and certificate-authority are both specified for main. certificate-authority-data will override.',
    },
    {
      name: 'a certificate without its key',
      doc: doc({ users: [{ name: 'admin', user: { 'client-certificate-data': b64('c') } }] }),
      message: 'invalid configuration: client-key-data or client-key must be specified for admin to use the clientCert authentication method.',
    },
    {
      name: 'several problems at once',
      doc: doc({
        users: [{ name: 'admin', user: { 'client-certificate-data': b64('c'), 'client-certificate': 'pki/client.crt' } }],
        clusters: [{ name: 'main', cluster: { 'certificate-authority': 'pki/missing.crt' } }],
      }),
      message: `invalid configuration: [client-cert-data and client-cert are both specified for admin. client-cert-data will override., client-key-data or client-key must be specified for admin to use the clientCert authentication method., no server found for cluster "main", unable to read certificate-authority <dir>/pki/missing.crt for main due to ENOENT: no such file or directory, access '<dir>/pki/missing.crt']`,
    },
    {
      name: 'corrupt base64',
      doc: doc({ clusters: [{ name: 'main', cluster: { server: 'https://x', 'certificate-authority-data': 'ab$d' } }] }),
      message: 'certificate-authority-data: illegal base64 data at input byte 2',
    },
  ];

  it.each(bad)('rejects $name', async ({ doc: d, context, message }) => {
    const file = await write('bad-config', d);
    await expect(loadKubeconfig(file, { context })).rejects.toThrow(message.replaceAll('<dir>', dir));
  });

  it('parses text with an explicit base directory', async () => {
    const got = await parseKubeconfig(dump(doc({ 'current-context': 'files' })), dir);
    expect(got.ca?.toString()).toBe('CA FROM FILE');
  });
});
