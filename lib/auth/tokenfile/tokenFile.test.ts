import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadTokenFile, parseTokenFile, tokenFileAuthenticator, type ParsedTokenFile } from './tokenFile';

describe('parseTokenFile', () => {
  test.each<[string, string, ParsedTokenFile]>([
    [
      'token, user, uid and quoted groups; extra columns ignored',
      'secret1,alice,1001,"system:masters,ops",ignored\nsecret2,bob,1002\n',
      {
        entries: [
          { token: 'secret1', user: { name: 'alice', uid: '1001', groups: ['system:masters', 'ops'] } },
          { token: 'secret2', user: { name: 'bob', uid: '1002', groups: [] } },
        ],
        warnings: [],
      },
    ],
    ['a single unquoted group', 't,u,1,g\n', { entries: [{ token: 't', user: { name: 'u', uid: '1', groups: ['g'] } }], warnings: [] }],
    ['an empty group column gives one empty group, as upstream', 't,u,1,\n', { entries: [{ token: 't', user: { name: 'u', uid: '1', groups: [''] } }], warnings: [] }],
    ['an empty uid is left out', 't,u,\n', { entries: [{ token: 't', user: { name: 'u', groups: [] } }], warnings: [] }],
    ['an empty user name is kept, as upstream', 't,,1\n', { entries: [{ token: 't', user: { name: '', uid: '1', groups: [] } }], warnings: [] }],
    [
      'an empty token skips its record with a warning',
      ',nobody,0\nt,u,1\n',
      { entries: [{ token: 't', user: { name: 'u', uid: '1', groups: [] } }], warnings: ["empty token has been found in token file 'tokens.csv', record number '1'"] },
    ],
    [
      'a duplicate token warns and the later record wins',
      'dup,first,1\nother,o,2\ndup,second,3\n',
      {
        entries: [
          { token: 'other', user: { name: 'o', uid: '2', groups: [] } },
          { token: 'dup', user: { name: 'second', uid: '3', groups: [] } },
        ],
        warnings: ["duplicate token has been found in token file 'tokens.csv', record number '3'"],
      },
    ],
    ['empty lines are skipped', '\nt,u,1\n\n', { entries: [{ token: 't', user: { name: 'u', uid: '1', groups: [] } }], warnings: [] }],
    ['empty file', '', { entries: [], warnings: [] }],
  ])('%s', (_n, content, want) => {
    expect(parseTokenFile(content, 'tokens.csv')).toEqual(want);
  });

  test.each<[string, string, string]>([
    ['two columns', 't,u,1\nt2,u2\n', "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 2 on line 2"],
    ['a comment line (no comment syntax upstream)', '# static tokens\nt,u,1\n', "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 1 on line 1"],
    ['one column after empty lines', '\n\nlonely\n', "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 1 on line 3"],
    ['a bare quote', 't,u"x,1\n', 'parse error on line 1, column 4: bare " in non-quoted-field'],
  ])('rejects %s', (_n, content, message) => {
    expect(() => parseTokenFile(content, 'tokens.csv')).toThrow(message);
  });

  test('no warning or error ever contains a token', () => {
    const secret = 's3cr3t-token-value';
    const { warnings } = parseTokenFile(`${secret},a,1\n${secret},b,2\n`, 'f');
    expect(warnings.join('\n')).not.toContain(secret);
    expect(() => parseTokenFile(`${secret},only-two\n`, 'f')).toThrow(/^(?!.*s3cr3t)/);
    expect(() => parseTokenFile(`${secret}"x,a,1\n`, 'f')).toThrow(/^(?!.*s3cr3t)/);
  });
});

describe('tokenFileAuthenticator', () => {
  const { entries } = parseTokenFile('secret1,alice,1001,"system:masters,ops"\nsecret2,bob,\n');
  const auth = tokenFileAuthenticator(entries);

  test.each<[string, string, unknown]>([
    ['known token', 'secret1', { user: { name: 'alice', uid: '1001', groups: ['system:masters', 'ops'] }, audiences: [] }],
    ['another known token', 'secret2', { user: { name: 'bob', groups: [] }, audiences: [] }],
    ['unknown token → null (others may know it)', 'secret3', null],
    ['prefix of a token', 'secret', null],
    ['token with trailing space', 'secret1 ', null],
    ['empty token', '', null],
  ])('%s', async (_n, token, want) => {
    expect(await auth.authenticateToken(token)).toEqual(want);
  });

  test('results are copies', async () => {
    const first = await auth.authenticateToken('secret1');
    first?.user.groups.push('mutated');
    expect((await auth.authenticateToken('secret1'))?.user.groups).toEqual(['system:masters', 'ops']);
  });
});

describe('loadTokenFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tokenfile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('reads and parses, naming the file in messages', async () => {
    const f = path.join(dir, 'tokens.csv');
    writeFileSync(f, 't,u,1\nt,v,2\n');
    expect(await loadTokenFile(f)).toEqual({
      entries: [{ token: 't', user: { name: 'v', uid: '2', groups: [] } }],
      warnings: [`duplicate token has been found in token file '${f}', record number '2'`],
    });
  });

  test.each<[string, string | undefined, (f: string) => string]>([
    ['too few columns', 't,u\n', (f) => `token file '${f}' must have at least 3 columns (token, user name, user uid), found 2 on line 1`],
    ['CSV syntax', '"t,u,1\n', (f) => `token file '${f}': parse error on line 1, column 8: extraneous or missing " in quoted-field`],
    ['missing file', undefined, (f) => `ENOENT: no such file or directory, open '${f}'`],
  ])('errors: %s', async (name, content, message) => {
    const f = path.join(dir, `${name.replace(/\W/g, '-')}.csv`);
    if (content !== undefined) writeFileSync(f, content);
    await expect(loadTokenFile(f)).rejects.toThrow(message(f));
  });
});
