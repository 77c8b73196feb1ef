/**
 * `hookwerk policy bundle | keygen | sign | verify` [F-BUN-1], as a security team runs them: real
 * files, the real CLI as a process. A bundle holds the policy and its test files with a version
 * and the content's SHA-256; `verify` accepts only a trusted key's signature over the unchanged
 * content and says in one line why not otherwise.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Bundle, bundleSchema, contentHash } from '../src/fleet/bundle.ts';
import { runCli, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const POLICY = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: "input=$(cat); case \"$input\" in *'rm -rf'*) echo 'team: no rm -rf' >&2; exit 2;; esac",
          },
        ],
      },
    ],
  },
};

const TESTS = {
  cases: [
    {
      name: 'rm -rf is denied',
      input: { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
      expect: 'deny',
    },
  ],
};

function team(): { dir: string; policy: string } {
  const dir = tempDir('hw-bundle-');
  const policy = path.join(dir, 'policy', 'policy.json');
  mkdirSync(path.join(dir, 'policy', 'tests'), { recursive: true });
  writeFileSync(policy, JSON.stringify(POLICY, null, 2));
  writeFileSync(path.join(dir, 'policy', 'tests', 'rm.json'), JSON.stringify(TESTS));
  return { dir, policy };
}

async function cli(dir: string, ...args: string[]) {
  const r = await runCli(args, { cwd: dir, home: dir });
  expect(r.stderr).not.toMatch(STACK);
  return r;
}

function readBundle(file: string): Bundle {
  return bundleSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** One line on stderr, and exit 1. */
function oneLineError(r: { code: number | null; stderr: string }, pattern: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

describe('hookwerk policy bundle, keygen, sign, verify [F-BUN-1]', () => {
  it('[F-BUN-1] bundles the policy and its tests with a version and SHA-256; a signed bundle verifies', async () => {
    const { dir, policy } = team();
    const made = await cli(dir, 'policy', 'bundle', '--policy', policy, '-o', 'team.bundle');
    expect(made.code, made.stderr).toBe(0);
    const bundle = readBundle(path.join(dir, 'team.bundle'));
    expect(bundle.version).toBe(1);
    expect(bundle.policy).toBe(readFileSync(policy, 'utf8'));
    expect(bundle.tests).toEqual([{ name: 'rm.json', text: JSON.stringify(TESTS) }]);
    expect(bundle.sha256).toBe(contentHash(bundle));
    expect(bundle.signature).toBeUndefined();

    expect((await cli(dir, 'policy', 'keygen', '-o', 'team')).code).toBe(0);
    expect(statSync(path.join(dir, 'team.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, 'team.pub'), 'utf8')).toContain('BEGIN PUBLIC KEY');
    // A signing key is never overwritten: what it signed would stop verifying.
    oneLineError(await cli(dir, 'policy', 'keygen', '-o', 'team'), /team\.key: already exists/);

    const signed = await cli(dir, 'policy', 'sign', '--key', 'team.key', 'team.bundle');
    expect(signed.code, signed.stderr).toBe(0);
    const ok = await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'team.bundle');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/version 1,.*signature valid/);

    // The next bundle to the same file is the next version.
    const next = await cli(dir, 'policy', 'bundle', '--policy', policy, '-o', 'team.bundle');
    expect(next.code, next.stderr).toBe(0);
    expect(readBundle(path.join(dir, 'team.bundle')).version).toBe(2);
  });

  it('[F-BUN-1] verify refuses an unsigned bundle, another key, and changed content, each in one line', async () => {
    const { dir, policy } = team();
    await cli(dir, 'policy', 'bundle', '--policy', policy, '-o', 'b.json');
    await Promise.all([
      cli(dir, 'policy', 'keygen', '-o', 'team'),
      cli(dir, 'policy', 'keygen', '-o', 'other'),
    ]);
    const file = path.join(dir, 'b.json');
    oneLineError(await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'b.json'), /b\.json: unsigned$/m);

    await cli(dir, 'policy', 'sign', '--key', 'team.key', 'b.json');
    const signed = readBundle(file);
    oneLineError(await cli(dir, 'policy', 'verify', '--pub', 'other.pub', 'b.json'), /b\.json: wrong key/);
    // Several trusted keys: any of them will do.
    expect(
      (await cli(dir, 'policy', 'verify', '--pub', 'other.pub', '--pub', 'team.pub', 'b.json')).code,
    ).toBe(0);

    // The policy changed, the hash left as it was.
    const loosened = JSON.stringify({});
    writeFileSync(file, JSON.stringify({ ...signed, policy: loosened }));
    oneLineError(
      await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'b.json'),
      /b\.json: content changed/,
    );
    // The policy and its hash changed together: the signature still gives it away.
    const forged = { ...signed, policy: loosened };
    writeFileSync(file, JSON.stringify({ ...forged, sha256: contentHash(forged) }));
    oneLineError(
      await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'b.json'),
      /b\.json: content changed since it was signed/,
    );
    // A test file dropped, the version raised: the same.
    for (const changed of [
      { ...signed, tests: [] },
      { ...signed, version: 99 },
    ]) {
      writeFileSync(file, JSON.stringify({ ...changed, sha256: contentHash(changed) }));
      oneLineError(await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'b.json'), /content changed/);
    }
    // Re-indenting the file changes nothing that is signed.
    writeFileSync(file, JSON.stringify(signed));
    expect((await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'b.json')).code).toBe(0);
  });

  it('[F-BUN-1] a version that is no whole number from 1, or not newer than the file it replaces, is refused', async () => {
    const { dir, policy } = team();
    const bad = await Promise.all(
      ['0', 'abc', '1.5', '99999999999999999999'].map((v) =>
        cli(dir, 'policy', 'bundle', '--policy', policy, '--version', v, '-o', 'b.json'),
      ),
    );
    for (const r of bad) oneLineError(r, /--version must be a whole number from 1/);
    expect(
      (await cli(dir, 'policy', 'bundle', '--policy', policy, '--version', '7', '-o', 'b.json')).code,
    ).toBe(0);
    expect(readBundle(path.join(dir, 'b.json')).version).toBe(7);
    oneLineError(
      await cli(dir, 'policy', 'bundle', '--policy', policy, '--version', '7', '-o', 'b.json'),
      /b\.json: holds version 7; a new bundle must be newer/,
    );
    // A bundle file whose version is not a whole number is no bundle.
    writeFileSync(
      path.join(dir, 'b.json'),
      JSON.stringify({ ...readBundle(path.join(dir, 'b.json')), version: '8' }),
    );
    oneLineError(await cli(dir, 'policy', 'verify', '--pub', 'x.pub', 'b.json'), /x\.pub: no such file/);
    await cli(dir, 'policy', 'keygen', '-o', 'team');
    oneLineError(
      await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'b.json'),
      /b\.json: not a bundle: \$\.version: must be a whole number/,
    );
  });

  it('[F-BUN-1] a policy or test file that cannot be used, a bad key or bundle file: the file and the reason', async () => {
    const { dir, policy } = team();
    writeFileSync(path.join(dir, 'policy', 'tests', 'bad.json'), JSON.stringify({ cases: [{ name: 'x' }] }));
    oneLineError(
      await cli(dir, 'policy', 'bundle', '--policy', policy, '-o', 'b.json'),
      /tests\/bad\.json: \$\.cases\[0\]/,
    );
    writeFileSync(policy, '{"hooks": {}, "permisions": {}}');
    oneLineError(
      await cli(
        dir,
        'policy',
        'bundle',
        '--policy',
        policy,
        '--tests',
        path.join(dir, 'none'),
        '-o',
        'b.json',
      ),
      /policy\.json: .*permisions/,
    );
    writeFileSync(path.join(dir, 'junk.json'), 'not json');
    await cli(dir, 'policy', 'keygen', '-o', 'team');
    oneLineError(
      await cli(dir, 'policy', 'verify', '--pub', 'team.pub', 'junk.json'),
      /junk\.json: not a bundle: invalid JSON/,
    );
    oneLineError(
      await cli(dir, 'policy', 'sign', '--key', 'team.pub', 'junk.json'),
      /team\.pub: not a private key/,
    );
  });
});
