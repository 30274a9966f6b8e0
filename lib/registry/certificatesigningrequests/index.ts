// Public surface of the CertificateSigningRequest registry.
export { certificateSigningRequestStrategy } from './strategy';
export { validateCertificateSigningRequestCreate, validateCertificateSigningRequestUpdate } from './validation';
export type { CsrEndpoint } from './validation';
export {
  CertificateRequestError,
  certificateRequestError,
  checkRequestSignature,
  parseCertificateRequestDer,
  parseCertificateRequestPem,
} from './requestParsing';
export type { ParsedCertificateRequest, ParsedPublicKey, SignatureAlgorithm } from './requestParsing';
export { certificateContentError } from './certificateParsing';
