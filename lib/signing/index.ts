// Public surface of lib/signing: keys, certificate issuance, the cert-dir bootstrap, TLS file
// loading and kubeconfig files.
export { generatePrivateKey, parsePrivateKey, privateKeyToPem, publicKeyDer } from './keys';
export type { KeyAlgorithm, PrivateKeyInput, PublicKeyInput } from './keys';
export { issueCertificate, subjectToName } from './issue';
export type { CertificateSubject, IssueCertificateOptions, IssuedCertificate, SubjectAltNames } from './issue';
export { extKeyUsageOids, keyUsageBits, toX509Usages } from './usages';
export type { KeyUsageName, X509Usages } from './usages';
export { certificateFacts, ekuOid, parseCertificates, pemBlocks } from './certs';
export type { CertificateFacts, ParsedCertificate } from './certs';
export { adminSubject, caCommonName, certDirFileNames, certDirPaths, ensureCA, ensureCertDir, ensureLeaves, keyEnciphermentFor, splitSANs } from './pki';
export type { CA, CertDirPaths, EnsureCertDirOptions, EnsureCertDirResult, LeafSpec } from './pki';
export { withDirLock } from './files';
export { loadTLSFiles } from './tlsFiles';
export type { LoadedTLSFiles, TLSFileOptions } from './tlsFiles';
export { buildKubeconfig, writeKubeconfig } from './kubeconfig';
export type { WriteKubeconfigOptions } from './kubeconfig';
export { x509 } from './x509lib';
