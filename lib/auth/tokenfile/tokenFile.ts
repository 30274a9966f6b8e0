// Static bearer tokens from --token-auth-file (upstream apiserver token/tokenfile): CSV records
// `token,user,uid[,"group1,group2"]`, further columns ignored. Tokens are secrets: no message or
// warning ever contains one, and lookups go through a hash so timing reveals nothing about them.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { TokenAuthenticator, TokenAuthResult } from '../bearer';
import type { UserInfo } from '../user';
import { parseCsv } from './csv';

export interface TokenFileEntry {
  token: string;
  user: UserInfo;
}

export interface ParsedTokenFile {
  entries: TokenFileEntry[];
  /** For the log: empty tokens (skipped) and duplicate tokens (the later record wins). */
  warnings: string[];
}

/**
 * Parses token-file content as upstream does: a record needs at least three columns (else the
 * whole file is rejected); an empty token skips the record with a warning; a repeated token warns
 * and the later record wins; the fourth column splits on commas into groups (an empty fourth
 * column yields one empty group, as upstream's strings.Split). `source` names the file in messages.
 */
export function parseTokenFile(content: string, source = 'token file'): ParsedTokenFile {
  const byToken = new Map<string, TokenFileEntry>();
  const warnings: string[] = [];
  let recordNumber = 0;
  for (const { fields, line } of parseCsv(content)) {
    if (fields.length < 3) {
      throw new Error(`token file '${source}' must have at least 3 columns (token, user name, user uid), found ${fields.length} on line ${line}`);
    }
    recordNumber += 1;
    const [token, name, uid] = fields;
    if (token === '') {
      warnings.push(`empty token has been found in token file '${source}', record number '${recordNumber}'`);
      continue;
    }
    if (byToken.has(token)) {
      warnings.push(`duplicate token has been found in token file '${source}', record number '${recordNumber}'`);
      byToken.delete(token); // keep file order for the later record
    }
    const user: UserInfo = { name, groups: fields.length >= 4 ? fields[3].split(',') : [] };
    if (uid) user.uid = uid;
    byToken.set(token, { token, user });
  }
  return { entries: [...byToken.values()], warnings };
}

/** Reads and parses --token-auth-file; errors name the file. */
export async function loadTokenFile(file: string): Promise<ParsedTokenFile> {
  const content = await fs.readFile(file, 'utf8');
  try {
    return parseTokenFile(content, file);
  } catch (e) {
    // CSV syntax errors carry only positions; say which file they are about.
    const message = (e as Error).message;
    throw new Error(message.startsWith('token file ') ? message : `token file '${file}': ${message}`);
  }
}

const digest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Authenticates the tokens of a token file. An unknown token is not ours (null): other token
 * authenticators may know it, and if none does the bearer authenticator rejects it.
 */
export function tokenFileAuthenticator(entries: readonly TokenFileEntry[]): TokenAuthenticator {
  // Keyed by SHA-256: the map's string compare can then leak timing about a hash, never the token.
  const users = new Map<string, UserInfo>();
  for (const e of entries) users.set(digest(e.token), e.user);
  return {
    async authenticateToken(token: string): Promise<TokenAuthResult | null> {
      const hit = users.get(digest(token));
      if (!hit) return null;
      return { user: { ...hit, groups: [...hit.groups] }, audiences: [] };
    },
  };
}
