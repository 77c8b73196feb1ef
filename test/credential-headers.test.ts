/**
 * Issue 11: an HTTP hook may not carry credentials in a hooks file [L-RUN-5]. Besides the four
 * names of the SPEC (Authorization, Cookie, Proxy-Authorization, X-API-Key), every header whose
 * name says "credential" is refused the same way: X-Auth-Token, Api-Key, X-Goog-Api-Key,
 * Private-Token, X-Amz-Security-Token… Claude Code's handlers keep their exception: a value taken
 * from an allowed environment variable is not in the file [C-RUN-1].
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClaudeConfig } from '../src/dialects/claude/source.ts';
import { loadLurusConfig } from '../src/dialects/lurus/source.ts';
import { headerProblems } from '../src/runners/http-headers.ts';
import { tempDir } from './helpers.ts';

function writeJson(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** Header name → the word its refusal names. */
const REFUSED: Array<[string, string]> = [
  ['X-Auth-Token', 'Auth'],
  ['Api-Key', 'Api-Key'],
  ['X-Goog-Api-Key', 'Api-Key'],
  ['Private-Token', 'Token'],
  ['X-Amz-Security-Token', 'Token'],
  ['x-client-secret', 'secret'],
  ['X-Password', 'Password'],
  ['X-Passwd', 'Passwd'],
  ['X-Credentials', 'Credential'],
  ['Set-Cookie', 'Cookie'],
  ['X-Jwt-Assertion', 'Jwt'],
  ['X-Access-Key', 'Access-Key'],
  ['apikey', 'apikey'],
  ['X-Private_Key', 'Private_Key'],
  ['X-OAuth-Scopes', 'Auth'],
];

const ALLOWED = [
  'X-Request-Id',
  'Idempotency-Key',
  'X-Routing-Key',
  'User-Agent',
  'X-Hook',
  'Accept',
  'X-Keyboard',
];

describe('[L-RUN-5] issue 11: credential-like header names are refused', () => {
  it.each(REFUSED)('[L-RUN-5] issue 11: %s is refused, naming "%s"', (name, word) => {
    expect(headerProblems({ [name]: 'v' })).toEqual([
      `header ${JSON.stringify(name)} is not allowed: a name with "${word}" carries credentials, which don't belong in a hooks file`,
    ]);
  });

  it('[L-RUN-5] issue 11: the four names of the SPEC keep their own wording, in any case', () => {
    expect(headerProblems({ 'x-api-key': 'k', AUTHORIZATION: 'Bearer x' })).toEqual([
      `header "x-api-key" is not allowed: X-API-Key carries credentials, which don't belong in a hooks file`,
      `header "AUTHORIZATION" is not allowed: Authorization carries credentials, which don't belong in a hooks file`,
    ]);
  });

  it('[L-RUN-5] issue 11: ordinary names, "key" ones included, are accepted', () => {
    expect(headerProblems(Object.fromEntries(ALLOWED.map((n) => [n, 'v'])))).toEqual([]);
  });

  it('[L-RUN-5] [L-VAL-1] issue 11: a Lurus HTTP hook with X-Goog-Api-Key is a config error at its headers path', () => {
    const project = tempDir('hw-cred-');
    const file = writeJson(path.join(project, '.lurus', 'hooks.json'), {
      PreToolUse: [
        {
          hooks: [
            { type: 'http', url: 'http://127.0.0.1:9/h', headers: { 'X-Goog-Api-Key': 'AIza-secret' } },
          ],
        },
      ],
    });
    const config = loadLurusConfig({ projectDir: project, home: tempDir('hw-cred-home-') });
    expect(config.issues).toEqual([
      {
        file,
        path: '$.PreToolUse[0].hooks[0].headers',
        message: expect.stringMatching(/^header "X-Goog-Api-Key" is not allowed: a name with "Api-Key"/),
      },
    ]);
    expect(JSON.stringify(config.issues)).not.toContain('AIza-secret');
    expect(config.entries).toEqual([]);
  });

  it('[C-RUN-1] issue 11: Claude Code: X-Auth-Token written in the file is skipped; taken from an allowed variable it is kept and expanded', () => {
    const project = tempDir('hw-cred-claude-');
    const file = writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: '*',
            hooks: [
              { type: 'http', url: 'http://127.0.0.1:9/a', headers: { 'X-Auth-Token': 'literal-secret' } },
              {
                type: 'http',
                url: 'http://127.0.0.1:9/b',
                headers: { 'X-Auth-Token': '$HOOK_TOKEN' },
                allowedEnvVars: ['HOOK_TOKEN'],
              },
            ],
          },
        ],
      },
    });
    const config = loadClaudeConfig({
      projectDir: project,
      home: tempDir('hw-cred-home-'),
      env: { PATH: '/usr/bin:/bin', HOOK_TOKEN: 'from-env' },
    });
    expect(config.warnings).toEqual([
      {
        file,
        path: '$.hooks.PreToolUse[0].hooks[0].headers',
        message: expect.stringMatching(/^header "X-Auth-Token" is not allowed: a name with "Auth"/),
      },
    ]);
    expect(config.entries).toHaveLength(1);
    expect(config.entries[0]).toMatchObject({
      url: 'http://127.0.0.1:9/b',
      headers: { 'X-Auth-Token': 'from-env' },
    });
  });
});
