// The one place that loads @peculiar/x509. It needs reflect-metadata loaded first and a
// WebCrypto provider; node's own webcrypto is used so keys interoperate with node:crypto.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// The library's typings name the DOM `Crypto` type, which this project's lib settings do not load.
x509.cryptoProvider.set(webcrypto as never);

export { x509 };
export const subtle: webcrypto.SubtleCrypto = webcrypto.subtle;
export type CryptoKey = webcrypto.CryptoKey;
