// storageVersionHash: lets clients (e.g. storage migrators) notice a storage version change
// without knowing the version itself. Base64 (standard, padded) of the first 8 bytes of
// SHA-256 over "<group>/<version>/<Kind>" ("" group for core → "/v1/ServiceAccount").
import { createHash } from 'node:crypto';

export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}
