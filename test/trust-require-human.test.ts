/**
 * [T-SELF-2] `"trust": {"requireHuman": true}` in the user policy, through real `hookwerk trust`
 * processes: the first run of any kind makes `~/.hookwerk/trust-token` (0600, random, kept); with
 * the setting, a run without a controlling terminal is refused with one line even with `--yes` and
 * a `y` on stdin, `HOOKWERK_TRUST_TOKEN` equal to the token approves, a wrong one is refused, and a
 * `y` typed on a terminal (a pseudo-terminal made by `script`) approves; without the setting
 * `trust --yes` approves as before. An agent cannot read the token: self-protect-attacks.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrustStore } from '../src/consent/trust-store.ts';
import { BIN, type CliResult, cleanEnv, runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

/** A home (its policy `user`) and a project whose policy has one hook to approve. */
function world(user?: unknown) {
  const root = tempDir('hw-trusthuman-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(path.join(project, '.hookwerk'), { recursive: true });
  if (user !== undefined) writeFileSync(path.join(home, '.hookwerk', 'policy.json'), JSON.stringify(user));
  writeFileSync(
    path.join(project, '.hookwerk', 'policy.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
    }),
  );
  return { home, project, token: path.join(home, '.hookwerk', 'trust-token') };
}

const HUMAN = { trust: { requireHuman: true } };

/**
 * `hookwerk trust ARGS` in a session of its own (`setsid`): no controlling terminal, as an agent's
 * tool call or CI has none; `stdin` is piped.
 */
function trustWithoutTerminal(
  w: { home: string; project: string },
  args: string[],
  env: Record<string, string> = {},
  stdin = 'y\n',
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'trust', '--project', w.project, ...args], {
      cwd: w.project,
      env: cleanEnv({ HOME: w.home, ...env }),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function approved(w: { home: string; project: string }): boolean {
  return Object.keys(readTrustStore(w.home).projects).length > 0;
}

describe('[T-SELF-2] the trust token', () => {
  it('the first trust run of any kind makes it: 0600, 64 hex characters; later runs keep it', async () => {
    const w = world();
    const r = await runCli(['trust', '--list'], { home: w.home, cwd: w.project });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(w.token).mode & 0o777).toBe(0o600);
    const token = readFileSync(w.token, 'utf8');
    expect(token).toMatch(/^[0-9a-f]{64}\n$/);
    await runCli(['trust', '--yes', '--project', w.project], { home: w.home, cwd: w.project });
    expect(readFileSync(w.token, 'utf8')).toBe(token);
    expect(approved(w)).toBe(true);
  });
});

describe('[T-SELF-2] "trust": {"requireHuman": true}', () => {
  it('no terminal: refused with one line, --yes and a y on stdin notwithstanding; nothing approved', async () => {
    const w = world(HUMAN);
    const r = await trustWithoutTerminal(w, ['--yes']);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      'not approved: the user policy says "trust": {"requireHuman": true}, and there is no terminal to confirm on (/dev/tty) nor HOOKWERK_TRUST_TOKEN',
    );
    expect(approved(w)).toBe(false);
  });

  it('HOOKWERK_TRUST_TOKEN equal to the token approves; a wrong one is refused', async () => {
    const w = world(HUMAN);
    await runCli(['trust', '--list'], { home: w.home, cwd: w.project });
    const token = readFileSync(w.token, 'utf8').trim();
    // One character changed (a fixed last character would be the token itself one time in 16).
    const other = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const wrong = await trustWithoutTerminal(w, [], { HOOKWERK_TRUST_TOKEN: other });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      'not approved: HOOKWERK_TRUST_TOKEN is not the trust token of ~/.hookwerk/trust-token\n',
    );
    expect(approved(w)).toBe(false);
    const right = await trustWithoutTerminal(w, [], { HOOKWERK_TRUST_TOKEN: token });
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toContain('approved: 1 project hook');
    expect(approved(w)).toBe(true);
  });

  it('a token file others may read proves nothing', async () => {
    const w = world(HUMAN);
    await runCli(['trust', '--list'], { home: w.home, cwd: w.project });
    const token = readFileSync(w.token, 'utf8').trim();
    writeFileSync(w.token, `${token}\n`, { mode: 0o644 });
    const { chmodSync } = await import('node:fs');
    chmodSync(w.token, 0o644);
    const r = await trustWithoutTerminal(w, [], { HOOKWERK_TRUST_TOKEN: token });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not private to this account (chmod 600 it)');
  });

  it('a y typed on a terminal approves (a pseudo-terminal of `script`)', async () => {
    const w = world(HUMAN);
    const command = `'${process.execPath}' '${BIN}' trust --project '${w.project}'`;
    const r = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: w.project,
        env: cleanEnv({ HOME: w.home }),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      let stdout = '';
      let typed = false;
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        // The answer once the question is on the terminal: a person reads, then types.
        if (!typed && stdout.includes('Approve these project hooks? [y/N]')) {
          typed = true;
          child.stdin.write('y\n');
        }
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('approved: 1 project hook');
    expect(approved(w)).toBe(true);
  });

  it('without it, trust --yes approves without a terminal, as before', async () => {
    const w = world({ trust: { requireHuman: false } });
    const r = await trustWithoutTerminal(w, ['--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(approved(w)).toBe(true);
  });

  it('a trust setting that does not read makes the user policy an error for validate', async () => {
    const w = world({ trust: { requireHuman: 'yes' } });
    const r = await runCli(['validate', '--dialect', 'policy'], { home: w.home, cwd: w.project });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('trust.requireHuman');
  });
});
