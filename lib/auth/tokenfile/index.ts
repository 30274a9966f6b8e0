// Public surface of static token-file authentication (--token-auth-file).
export { loadTokenFile, parseTokenFile, tokenFileAuthenticator } from './tokenFile';
export type { ParsedTokenFile, TokenFileEntry } from './tokenFile';
export { CsvParseError, parseCsv } from './csv';
export type { CsvRecord } from './csv';
