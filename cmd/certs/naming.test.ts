// svc-certs in each naming profile: the controller manager's certificate names the identity the
// apiserver's bootstrap RBAC policy binds (system:svc-controller-manager; system:kube-controller-manager).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

describe.each([
  ['svc', 'system:svc-controller-manager'],
  ['k8s', 'system:kube-controller-manager'],
])('svc-certs --api-naming=%s', (profile, commonName) => {
  test(`the controller-manager certificate is ${commonName}`, async () => {
    let loaded: { main: typeof import('./main'); options: typeof import('./options'); flags: typeof import('../flagSet'); signing: typeof import('../../lib/signing') } | undefined;
    jest.isolateModules(() => {
      (require('../../lib/api/naming/selection') as typeof import('../../lib/api/naming/selection')).selectNaming(profile);
      loaded = { main: require('./main'), options: require('./options'), flags: require('../flagSet'), signing: require('../../lib/signing') };
    });
    const { main, options, flags, signing } = loaded!;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-certs-naming-'));
    try {
      await main.writeClusterPki(options.toCertsOptions(flags.parseFlags([`--cert-dir=${dir}`, `--api-naming=${profile}`], options.certsFlags).values));
      const cert = signing.parseCertificates(await fs.readFile(path.join(dir, 'controller-manager.crt'), 'utf8'))[0].cert;
      expect(signing.certificateFacts(cert).commonName).toBe(commonName);
      const other = profile === 'svc' ? 'k8s' : 'svc';
      expect(() => options.toCertsOptions(flags.parseFlags([`--api-naming=${other}`], options.certsFlags).values)).toThrow(`this process writes the "${profile}" naming`);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
