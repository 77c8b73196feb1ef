/**
 * [L-TRUST-12] Home is the account's (issue 18, item 10): with `HOME` unset or empty the home is
 * what the password database gives; with none, commands that need a trust store exit 1 saying so
 * in one line; `/` is never home, so `/.lurus/trust.json`, `/.claude` and `/.gemini` are never
 * looked at.
 *
 * Run for real: `node bin/hookwerk.js` in a private mount namespace (`unshare --mount`) whose
 * `/etc/passwd` is a copy with this account's home changed, so the password database says what
 * each test needs without touching the machine's, or as a uid that has no entry (`setpriv`);
 * `strace` records every path the CLI looks at. Needs root (this suite runs as root), `unshare`,
 * `mount`, `setpriv`, `strace`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeFolder, NoHomeError } from '../src/core/home.ts';
import { BIN, cleanEnv, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const UID = process.getuid?.() ?? 0;

/** A copy of /etc/passwd in which this account's home is `home`. */
function passwdWith(home: string): string {
  const lines = readFileSync('/etc/passwd', 'utf8').split('\n');
  const out = lines.map((line) => {
    const f = line.split(':');
    if (f[2] !== String(UID)) return line;
    f[5] = home;
    return f.join(':');
  });
  const file = path.join(tempDir('hw-passwd-'), 'passwd');
  writeFileSync(file, out.join('\n'));
  return file;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every path the CLI passed to a file system call. */
  paths: string[];
}

/**
 * The CLI under strace, with HOME as given (`undefined`: unset), and `/etc/passwd` bind-mounted
 * from `passwd` (the mount is private to the child's namespace) or run as `uid`.
 */
function runCliAs(
  who: { passwd: string } | { uid: number },
  home: string | undefined,
  args: string[],
  opts: { cwd: string; stdin?: string },
): Promise<Run> {
  const env = cleanEnv();
  delete env.HOME;
  if (home !== undefined) env.HOME = home;
  const log = path.join(tempDir('hw-strace-'), 'trace');
  const cli = [process.execPath, BIN, ...args];
  const traced = ['strace', '-f', '-qq', '-e', 'trace=%file', '-o', log];
  const argv =
    'passwd' in who
      ? [
          ...['unshare', '--mount', '--propagation', 'private'],
          ...['sh', '-c', 'mount --bind "$1" /etc/passwd && shift && exec "$@"', 'sh', who.passwd],
          ...traced,
          ...cli,
        ]
      : [...traced, 'setpriv', `--reuid=${who.uid}`, `--regid=${who.uid}`, '--clear-groups', ...cli];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] ?? '', argv.slice(1), {
      env,
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdin.end(opts.stdin ?? '');
    child.on('error', reject);
    child.on('close', (code) => {
      const paths = [...readFileSync(log, 'utf8').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
      resolve({ code, stdout, stderr, paths });
    });
  });
}

const runWithPasswd = (
  passwd: string,
  home: string | undefined,
  args: string[],
  opts: { cwd: string; stdin?: string },
) => runCliAs({ passwd }, home, args, opts);

/** Paths under `/.lurus`, `/.claude`, `/.gemini`: what `/` as home would read. */
const rootHomePaths = (r: Run) => r.paths.filter((p) => /^\/\.(lurus|claude|gemini)(\/|$)/.test(p));

const DENY = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'user hook',
  },
});
const INPUT = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });

/** An account home holding a Claude user hook that denies. */
function accountHome(): string {
  const home = realpathSync(tempDir('hw-account-'));
  mkdirSync(path.join(home, '.claude'));
  writeFileSync(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo '${DENY}'` }] }] } }),
  );
  return home;
}

const HOMES: [string, string | undefined][] = [
  ['unset', undefined],
  ['empty', ''],
  ['/', '/'],
];

describe('[L-TRUST-12] HOME unset, empty or /: the password database gives the home', () => {
  for (const [label, home] of HOMES) {
    it(`[L-TRUST-12] HOME ${label}: the user hook and the trust store of the account's home are used`, async () => {
      const account = accountHome();
      const project = realpathSync(tempDir('hw-home-proj-'));
      const passwd = passwdWith(account);

      const d = await runWithPasswd(passwd, home, ['decide', 'PreToolUse', '--dialect', 'claude'], {
        cwd: project,
        stdin: INPUT,
      });
      expect(d.code, d.stderr).toBe(2);
      const decision = JSON.parse(d.stdout) as { decision: string; runs: { source: string }[] };
      expect(decision.decision).toBe('deny');
      expect(decision.runs[0]?.source).toBe(`${account}/.claude/settings.json#/hooks/PreToolUse/0/hooks/0`);
      expect(d.paths).toContain(`${account}/.lurus/trust.json`);
      expect(rootHomePaths(d)).toEqual([]);

      const list = await runWithPasswd(passwd, home, ['trust', '--list'], { cwd: project });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toBe(`no approvals in ${account}/.lurus/trust.json\n`);
    });
  }
});

describe('[L-TRUST-12] no home: exit 1 in one line; / is never used', () => {
  const COMMANDS: string[][] = [
    ['decide', 'PreToolUse', '--dialect', 'claude', '--input', INPUT],
    ['decide', 'BeforeTool', '--dialect', 'gemini', '--input', '{}'],
    ['decide', 'PreToolUse'],
    ['explain', 'PreToolUse', '--dialect', 'claude'],
    ['validate', '--dialect', 'gemini'],
    ['trust', '--list'],
    ['trust', '--yes'],
  ];

  it('[L-TRUST-12] the password database gives / and HOME is unset: every command that needs a trust store exits 1 saying so, and nothing under /.lurus, /.claude, /.gemini is looked at', async () => {
    const passwd = passwdWith('/');
    const project = realpathSync(tempDir('hw-home-proj-'));
    for (const args of COMMANDS) {
      const r = await runWithPasswd(passwd, undefined, args, { cwd: project });
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'hookwerk: no home folder: HOME is unset and the password database gives / (never used as home); set HOME\n',
      );
      expect(rootHomePaths(r)).toEqual([]);
    }
  }, 120_000); // every command under strace, one after another: a budget for a loaded machine

  it('[L-TRUST-12] HOME is / or empty and the account has no password entry: exit 1 saying so', async () => {
    // A uid no password database knows, as containers often run with (root always has an entry).
    const uid = 54_321;
    const project = realpathSync(tempDir('hw-home-proj-'));
    chmodSync(project, 0o755);
    for (const [home, said] of [
      ['/', 'HOME is /'],
      ['', 'HOME is empty'],
      [undefined, 'HOME is unset'],
    ] as const) {
      const r = await runCliAs(
        { uid },
        home,
        ['decide', 'PreToolUse', '--dialect', 'claude', '--input', INPUT],
        {
          cwd: project,
        },
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(STACK);
      expect(r.stderr).toBe(
        `hookwerk: no home folder: ${said} and the password database has no entry for uid ${uid}; set HOME\n`,
      );
      expect(rootHomePaths(r)).toEqual([]);
    }
  });
});

describe('[L-TRUST-12] homeFolder', () => {
  const passwd = (home: string) => () => ({ home });
  const none = () => ({ missing: 'has no entry for uid 4242' });

  it('[L-TRUST-12] HOME wins when set; empty, unset or / fall back to the password database', () => {
    expect(homeFolder(undefined, { HOME: '/home/ann' }, none)).toBe('/home/ann');
    expect(homeFolder(undefined, { HOME: '/home/ann/' }, none)).toBe('/home/ann');
    for (const env of [{}, { HOME: '' }, { HOME: '/' }, { HOME: '//' }])
      expect(homeFolder(undefined, env, passwd('/home/bob'))).toBe('/home/bob');
  });

  it('[L-TRUST-12] an explicit home wins; / is refused there, from the database, and when there is none', () => {
    expect(homeFolder('/tmp/h', {}, none)).toBe('/tmp/h');
    expect(() => homeFolder('/', { HOME: '/home/ann' }, none)).toThrow(NoHomeError);
    expect(() => homeFolder(undefined, {}, passwd('/'))).toThrow(
      'no home folder: HOME is unset and the password database gives / (never used as home); set HOME',
    );
    expect(() => homeFolder(undefined, { HOME: '' }, none)).toThrow(
      'no home folder: HOME is empty and the password database has no entry for uid 4242; set HOME',
    );
  });
});
