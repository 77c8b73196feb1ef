import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';
import { request, spawnServe, startServe } from './serve-process.ts';

// Issue 11, token takeover: a hook can write to the workspace, so a token file found there must
// not choose the API token. serve creates the file itself and records its hash in $HOME/.hookwerk
// (a temp HOME here: never the real one).

const PLANTED = 'a'.repeat(64);

function tokenFile(dir: string): string {
  return path.join(dir, '.hookwerk', 'token');
}

function plant(dir: string, text = `${PLANTED}\n`): void {
  mkdirSync(path.join(dir, '.hookwerk'), { recursive: true, mode: 0o700 });
  writeFileSync(tokenFile(dir), text, { mode: 0o600 });
}

/** serve must refuse to start: exit 1, one line naming the file and both ways out. */
async function expectRefused(dir: string, home: string, why: RegExp): Promise<string> {
  const p = spawnServe(['--workspace', dir, '--port', '0'], cleanEnv({ HOME: home }));
  const { code } = await p.exit;
  expect(code, p.stdout() + p.stderr()).toBe(1);
  const lines = p.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(tokenFile(dir));
  expect(lines[0]).toMatch(why);
  expect(lines[0]).toMatch(/delete the file/);
  expect(lines[0]).toMatch(/set HOOKWERK_TOKEN/);
  expect(p.stderr()).not.toMatch(STACK);
  expect(p.stdout()).not.toMatch(/listening/);
  return lines[0]!;
}

describe('issue 11: serve chooses its own API token [P-API-1]', () => {
  it('[P-API-1] issue 11: a token file planted before the first start → exit 1 naming the file and both fixes; each fix works', async () => {
    const dir = tempDir('hw-token-');
    const home = tempDir('hw-token-home-');
    plant(dir);
    await expectRefused(dir, home, /hookwerk serve did not create it/);
    // Refused, not replaced: the planted file is left for the user to look at.
    expect(readFileSync(tokenFile(dir), 'utf8')).toBe(`${PLANTED}\n`);

    // Fix 1: HOOKWERK_TOKEN (the file is then ignored, and its token refused).
    const envToken = 'env-token-abcdefghijklmnop';
    const withEnv = await startServe(
      ['--workspace', dir, '--port', '0'],
      cleanEnv({ HOME: home, HOOKWERK_TOKEN: envToken }),
    );
    expect((await request(withEnv.port, 'GET', '/api/hooks', envToken)).status).toBe(200);
    expect((await request(withEnv.port, 'GET', '/api/hooks', PLANTED)).status).toBe(401);
    expect(await withEnv.stop()).toEqual({ code: 0, signal: null });

    // Fix 2: delete it; serve makes a new one.
    unlinkSync(tokenFile(dir));
    const fresh = await startServe(['--workspace', dir, '--port', '0'], cleanEnv({ HOME: home }));
    expect(fresh.stdout()).toContain(`token: ${tokenFile(dir)} (new)`);
    const token = readFileSync(tokenFile(dir), 'utf8').trim();
    expect(token).not.toBe(PLANTED);
    expect((await request(fresh.port, 'GET', '/api/hooks', token)).status).toBe(200);
    expect((await request(fresh.port, 'GET', '/api/hooks', PLANTED)).status).toBe(401);
    expect(await fresh.stop()).toEqual({ code: 0, signal: null });
  });

  it('[P-API-1] issue 11: a token serve created is recorded in $HOME/.hookwerk (0600, outside the workspace) and reused on the next start', async () => {
    const dir = tempDir('hw-token-');
    const home = tempDir('hw-token-home-');
    const first = await startServe(['--workspace', dir, '--port', '0'], cleanEnv({ HOME: home }));
    expect(first.stdout()).toContain(`token: ${tokenFile(dir)} (new)`);
    const bytes = readFileSync(tokenFile(dir));
    expect(statSync(tokenFile(dir)).mode & 0o777).toBe(0o600);
    const records = path.join(home, '.hookwerk', 'serve-tokens.json');
    expect(statSync(records).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(records, 'utf8'))).toEqual({
      [realpathSync(tokenFile(dir))]: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const second = await startServe(['--workspace', dir, '--port', '0'], cleanEnv({ HOME: home }));
    expect(second.stdout()).toContain(`token: ${tokenFile(dir)}\n`);
    expect(readFileSync(tokenFile(dir))).toEqual(bytes);
    const token = bytes.toString('utf8').trim();
    expect((await request(second.port, 'GET', '/api/hooks', token)).status).toBe(200);
    expect(await second.stop()).toEqual({ code: 0, signal: null });

    // The record belongs to that HOME: another user (another HOME) does not trust the file.
    await expectRefused(dir, tempDir('hw-token-home-'), /hookwerk serve did not create it/);
  });

  it('[P-API-1] issue 11: a token file changed after serve created it (rewritten, or swapped for a symlink) → exit 1', async () => {
    const dir = tempDir('hw-token-');
    const home = tempDir('hw-token-home-');
    const first = await startServe(['--workspace', dir, '--port', '0'], cleanEnv({ HOME: home }));
    expect(await first.stop()).toEqual({ code: 0, signal: null });
    const original = readFileSync(tokenFile(dir), 'utf8');

    writeFileSync(tokenFile(dir), `${PLANTED}\n`);
    await expectRefused(dir, home, /it changed since hookwerk serve created it/);

    // Same bytes, but through a symlink to a file elsewhere: not the file serve made.
    const elsewhere = path.join(tempDir('hw-token-other-'), 'token');
    writeFileSync(elsewhere, original, { mode: 0o600 });
    unlinkSync(tokenFile(dir));
    symlinkSync(elsewhere, tokenFile(dir));
    await expectRefused(dir, home, /it is a symbolic link/);
  });

  it('§3 issue 11: an unreadable token record store → exit 1 naming it, no stack trace', async () => {
    const dir = tempDir('hw-token-');
    const home = tempDir('hw-token-home-');
    mkdirSync(path.join(home, '.hookwerk'));
    const records = path.join(home, '.hookwerk', 'serve-tokens.json');
    writeFileSync(records, '{"/somewhere/token": "not a hash"}');
    plant(dir);
    const p = spawnServe(['--workspace', dir, '--port', '0'], cleanEnv({ HOME: home }));
    expect((await p.exit).code).toBe(1);
    expect(p.stderr().trim().split('\n')).toHaveLength(1);
    expect(p.stderr()).toContain(records);
    expect(p.stderr()).toMatch(/must be a sha-256 hex digest; fix or delete it, or set HOOKWERK_TOKEN/);
    expect(p.stderr()).not.toMatch(STACK);
  });
});
