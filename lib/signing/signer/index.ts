// Public surface of the in-tree CSR signer: request parsing, per-signer policies, validity
// rules, CA material loading and the signer itself.
export { certificateRequestPemType, CertificateRequestParseError, parseCertificateRequest, verifyCertificateRequestSignature } from './csrParse';
export type { ParsedCertificateRequest, RequestKeyType, RequestPublicKey } from './csrParse';
export { isSvcletClientShape, nodeCommonNamePrefix, nodesGroup, signerPolicies, signerPolicy } from './policies';
export type { RequestFacts, SignerPolicy } from './policies';
export { certificateTTL, certificateValidity, formatGoTime, SigningError, validityDefaults } from './validity';
export type { Validity } from './validity';
export { loadSignerCA, loadSignerCAs, parseSignerCA, resolveSignerCAFiles } from './signerCA';
export type { SignerCA, SignerCAFile, SignerCAFlags, SignerCAMaterial } from './signerCA';
export { CsrSigner } from './signer';
export type { CsrSignerOptions, SignableRequest, SignOutcome } from './signer';
