/**
 * Consent for project hooks [L-TRUST-1] and the `trust` review [L-TRUST-2].
 * Real files: a temp project, and a temp folder as `~` (passed as `home`, never the real one).
 */

import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type TrustIo, trustCommand } from '../src/cli/trust.ts';
import {
  approveProject,
  checkTrust,
  PIN_DIRECTORY,
  PIN_SPECIAL,
  projectFingerprint,
  readTrustStore,
  revokeProject,
  trustStorePath,
} from '../src/consent/trust-store.ts';
import { type LurusConfig, loadLurusConfig } from '../src/sources/lurus-source.ts';
import { tempDir, writeScript } from './helpers.ts';

const GUARD = '.lurus/hooks/guard.sh';

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A project whose hooks.json refers to guard.sh twice (plain and quoted) and to a missing later.sh. */
function makeProject(extraHooks: unknown[] = []): { project: string; home: string } {
  const project = tempDir('hw-proj-');
  const home = tempDir('hw-home-');
  writeScript(project, GUARD, 'echo \'{"decision":"allow"}\'');
  writeJson(path.join(project, '.lurus', 'hooks.json'), {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: `sh ${GUARD}` },
          { type: 'command', command: `"./${GUARD}" --strict` },
          ...extraHooks,
        ],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'sh .lurus/hooks/later.sh' }] }],
  });
  writeFileSync(path.join(project, 'README.md'), 'hello\n');
  return { project, home };
}

const load = (project: string, home: string): LurusConfig => loadLurusConfig({ projectDir: project, home });
const real = (p: string) => realpathSync(p);

describe('[L-TRUST-1] project hooks run only after consent, pinned by content', () => {
  it('[L-TRUST-1] not approved → untrusted; approve → trusted', () => {
    const { project, home } = makeProject();
    const config = load(project, home);
    expect(config.issues).toEqual([]);
    const before = checkTrust(config);
    expect(before).toMatchObject({ trusted: false, reason: 'not approved', changed: [] });
    approveProject(config);
    const after = checkTrust(load(project, home));
    expect(after.trusted).toBe(true);
    expect(after.reason).toMatch(/^approved /);
  });

  it('[L-TRUST-1] the fingerprint pins sources (absent ones as null) and every project path a command names', () => {
    const { project, home } = makeProject();
    const fp = projectFingerprint(load(project, home));
    const root = real(project);
    expect(fp[path.join(root, '.lurus', 'hooks.json')]).toMatch(/^[0-9a-f]{64}$/);
    expect(fp[path.join(root, '.lurus', 'settings.json')]).toBeNull();
    expect(fp[path.join(root, GUARD)]).toMatch(/^[0-9a-f]{64}$/);
    expect(fp[path.join(root, '.lurus', 'hooks', 'later.sh')]).toBeNull();
    // Only paths inside the project; each once, though guard.sh is named twice.
    for (const key of Object.keys(fp)) expect(key.startsWith(`${root}${path.sep}`)).toBe(true);
  });

  it('[L-TRUST-1] a one-byte change to a referenced script (plain and quoted reference) voids consent and names the script', () => {
    for (const command of [`sh ${GUARD}`, `"./${GUARD}"`]) {
      const project = tempDir('hw-proj-');
      const home = tempDir('hw-home-');
      writeScript(project, GUARD, 'exit 0');
      writeJson(path.join(project, '.lurus', 'hooks.json'), {
        PreToolUse: [{ hooks: [{ type: 'command', command }] }],
      });
      approveProject(load(project, home));
      expect(checkTrust(load(project, home)).trusted).toBe(true);

      appendFileSync(path.join(project, GUARD), ' ');
      const check = checkTrust(load(project, home));
      expect(check.trusted).toBe(false);
      expect(check.changed).toEqual([path.join(real(project), GUARD)]);
      expect(check.reason).toBe(`${GUARD} changed since approval`);
    }
  });

  it('[L-TRUST-1] a FIFO or a folder named by a command is pinned by a marker, never read (no hang)', () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    execFileSync('mkfifo', [path.join(project, 'pipe')]);
    mkdirSync(path.join(project, 'tools'));
    writeJson(path.join(project, '.lurus', 'hooks.json'), {
      Stop: [{ hooks: [{ type: 'command', command: 'cat pipe; ls tools' }] }],
    });
    const fp = projectFingerprint(load(project, home));
    expect(fp[path.join(real(project), 'pipe')]).toBe(PIN_SPECIAL);
    expect(fp[path.join(real(project), 'tools')]).toBe(PIN_DIRECTORY);
    approveProject(load(project, home));
    expect(checkTrust(load(project, home)).trusted).toBe(true);
  });

  it('[L-TRUST-1] an unreadable referenced file cannot be approved', () => {
    const { project, home } = makeProject();
    // chmod 000 does not stop root (CI runs as root); /proc/self/mem opens but every read fails (EIO).
    rmSync(path.join(project, GUARD));
    symlinkSync('/proc/self/mem', path.join(project, GUARD));
    const config = load(project, home);
    approveProject(config);
    const check = checkTrust(config);
    expect(check.trusted).toBe(false);
    expect(check.reason).toBe(`cannot read ${GUARD}, so it cannot be pinned`);
  });

  it('[L-TRUST-1] a change to .lurus/hooks.json voids consent', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    appendFileSync(path.join(project, '.lurus', 'hooks.json'), '\n');
    const check = checkTrust(load(project, home));
    expect(check.trusted).toBe(false);
    expect(check.changed).toEqual([path.join(real(project), '.lurus', 'hooks.json')]);
  });

  it('[L-TRUST-1] creating a previously missing referenced file voids consent (it was pinned as absent)', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    writeScript(project, '.lurus/hooks/later.sh', 'exit 0');
    const check = checkTrust(load(project, home));
    expect(check.trusted).toBe(false);
    expect(check.changed).toEqual([path.join(real(project), '.lurus', 'hooks', 'later.sh')]);
  });

  it('[L-TRUST-1] creating a project settings.json later voids consent', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    writeJson(path.join(project, '.lurus', 'settings.json'), {});
    const check = checkTrust(load(project, home));
    expect(check.trusted).toBe(false);
    expect(check.changed).toEqual([path.join(real(project), '.lurus', 'settings.json')]);
  });

  it('[L-TRUST-1] a change to an unrelated project file keeps consent', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    appendFileSync(path.join(project, 'README.md'), 'more\n');
    writeFileSync(path.join(project, '.lurus', 'hooks', 'other.sh'), 'exit 1\n');
    expect(checkTrust(load(project, home)).trusted).toBe(true);
  });

  it('[L-TRUST-1] global hooks never need consent', () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    writeScript(home, '.lurus/hooks/global.sh', 'exit 0');
    writeJson(path.join(home, '.lurus', 'hooks.json'), {
      PreToolUse: [
        { hooks: [{ type: 'command', command: `sh ${path.join(home, '.lurus/hooks/global.sh')}` }] },
      ],
    });
    const config = load(project, home);
    expect(config.all).toHaveLength(1);
    expect(checkTrust(config)).toEqual({ trusted: true, reason: 'no project hooks', changed: [] });
    expect(existsSync(trustStorePath(home))).toBe(false);
  });

  it('[L-TRUST-1] the store is keyed by real path: approved through a symlink, trusted through the real path (and back)', () => {
    const { project, home } = makeProject();
    const link = path.join(tempDir('hw-link-'), 'proj-link');
    symlinkSync(project, link, 'dir');
    approveProject(load(link, home));
    expect(Object.keys(readTrustStore(home).projects)).toEqual([real(project)]);
    expect(checkTrust(load(project, home)).trusted).toBe(true);
    expect(checkTrust(load(link, home)).trusted).toBe(true);
    appendFileSync(path.join(link, GUARD), ' ');
    expect(checkTrust(load(project, home)).changed).toEqual([path.join(real(project), GUARD)]);
  });

  it("[L-TRUST-1] an approval keeps other projects' entries; revoke removes only this one", () => {
    const a = makeProject();
    const b = makeProject();
    const home = a.home;
    approveProject(load(a.project, home));
    approveProject(load(b.project, home));
    expect(Object.keys(readTrustStore(home).projects).sort()).toEqual(
      [real(a.project), real(b.project)].sort(),
    );
    expect(checkTrust(load(a.project, home)).trusted).toBe(true);
    expect(checkTrust(load(b.project, home)).trusted).toBe(true);

    expect(revokeProject(load(a.project, home))).toBe(true);
    expect(revokeProject(load(a.project, home))).toBe(false);
    expect(checkTrust(load(a.project, home)).trusted).toBe(false);
    expect(checkTrust(load(b.project, home)).trusted).toBe(true);
  });

  it('[L-TRUST-1] the store is written atomically with mode 0600 in a 0700 folder, leaving no temp files', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    const file = trustStorePath(home);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(file))).toEqual(['trust.json']);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored[real(project)].approvedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(stored[real(project)].files).toEqual(projectFingerprint(load(project, home)));
  });

  it('[L-TRUST-1] a corrupt or invalid store approves nothing, with a problem line, and never throws', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    const file = trustStorePath(home);
    const good = readFileSync(file, 'utf8');
    for (const bad of [
      '{ not json',
      '[]',
      JSON.stringify({ [real(project)]: { approvedAt: 'yesterday', files: {} } }),
    ]) {
      writeFileSync(file, bad);
      const check = checkTrust(load(project, home));
      expect(check.trusted).toBe(false);
      expect(check.problem).toMatch(/trust/);
      expect(check.problem).not.toMatch(/\n/);
    }
    // Approving again moves the unusable store aside and writes a fresh one.
    const result = approveProject(load(project, home));
    expect(result.backup).toBeDefined();
    expect(readFileSync(result.backup!, 'utf8')).not.toBe(good);
    expect(checkTrust(load(project, home)).trusted).toBe(true);
  });
});

interface Captured {
  io: TrustIo;
  out: string[];
  err: string[];
  asked: string[];
}

function captureIo(answer: boolean, interactive?: boolean): Captured {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  return {
    out,
    err,
    asked,
    io: {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      ask: async (q) => {
        asked.push(q);
        return answer;
      },
      ...(interactive !== undefined ? { interactive } : {}),
    },
  };
}

const HTTP_HOOK = { type: 'http', url: 'https://hooks.example.com:8443/gate', headers: { 'X-Team': 'red' } };

describe('[L-TRUST-2] `trust` reviews what runs and which data leaves, then records consent', () => {
  it('[L-TRUST-2] the review shows event, matcher, command, script path, data leaving and the HTTP host', async () => {
    const { project, home } = makeProject([HTTP_HOOK]);
    const c = captureIo(false);
    const env = { LURUS_HOOK_PASS_ENV: 'SECRET_A, UNSET_B', SECRET_A: 's3cr3t-value' };
    const code = await trustCommand({ project, home, env }, c.io);
    expect(code).toBe(1);
    const text = c.out.join('\n');
    expect(text).toContain('PreToolUse');
    expect(text).toContain('matcher "Bash"');
    expect(text).toContain('Stop, matcher (all)');
    expect(text).toContain(`sh ${GUARD}`);
    expect(text).toContain(`"./${GUARD}" --strict`);
    expect(text).toMatch(new RegExp(`file: +${GUARD.replaceAll('.', '\\.')}$`, 'm'));
    expect(text).toMatch(/later\.sh \(missing/);
    expect(text).toContain('the event context on stdin (tool inputs, prompts) + the environment allowlist');
    expect(text).toContain('LURUS_HOOK_PASS_ENV: SECRET_A');
    expect(text).not.toContain('UNSET_B');
    expect(text).not.toContain('s3cr3t-value');
    expect(text).toContain('POST https://hooks.example.com:8443/gate');
    expect(text).toContain('the event context to host hooks.example.com:8443');
    expect(text).toContain('headers: X-Team');
    expect(text).not.toContain('red');
    expect(c.asked).toEqual(['Approve these project hooks? [y/N] ']);
  });

  it('[L-TRUST-2] --yes approves without asking (exit 0, then trusted); a second run says already approved', async () => {
    const { project, home } = makeProject([HTTP_HOOK]);
    const first = captureIo(false);
    expect(await trustCommand({ project, home, yes: true }, first.io)).toBe(0);
    expect(first.asked).toEqual([]);
    expect(first.out.at(-1)).toMatch(/^approved: 4 project hooks of /);
    expect(checkTrust(load(project, home)).trusted).toBe(true);

    const second = captureIo(false);
    expect(await trustCommand({ project, home }, second.io)).toBe(0);
    expect(second.asked).toEqual([]);
    expect(second.out.join('\n')).toMatch(/already approved/);
  });

  it('[L-TRUST-2] answering no → exit 1 and still untrusted; yes → approved', async () => {
    const { project, home } = makeProject();
    const no = captureIo(false);
    expect(await trustCommand({ project, home }, no.io)).toBe(1);
    expect(no.err.join('\n')).toMatch(/not approved/);
    expect(checkTrust(load(project, home)).trusted).toBe(false);

    const yes = captureIo(true);
    expect(await trustCommand({ project, home }, yes.io)).toBe(0);
    expect(yes.out.at(-1)).toMatch(/^approved/);
    expect(checkTrust(load(project, home)).trusted).toBe(true);
  });

  it('[L-TRUST-2] without a terminal and without --yes: not approved, exit 1, told to use --yes', async () => {
    const { project, home } = makeProject();
    const c = captureIo(true, false);
    expect(await trustCommand({ project, home }, c.io)).toBe(1);
    expect(c.asked).toEqual([]);
    expect(c.err.join('\n')).toMatch(/--yes/);
    expect(checkTrust(load(project, home)).trusted).toBe(false);
  });

  it('[L-TRUST-2] after a change the review lists what changed since the approval', async () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    appendFileSync(path.join(project, GUARD), '#');
    writeScript(project, '.lurus/hooks/later.sh', 'exit 0');
    const c = captureIo(false);
    expect(await trustCommand({ project, home }, c.io)).toBe(1);
    const text = c.out.join('\n');
    expect(text).toMatch(/changed since the approval of /);
    expect(text).toContain(`  ${GUARD} (modified)`);
    expect(text).toContain('  .lurus/hooks/later.sh (created)');
  });

  it('[L-TRUST-2] no project hooks: nothing to approve, exit 0; load problems go to stderr', async () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    mkdirSync(path.join(project, '.lurus'));
    writeFileSync(path.join(project, '.lurus', 'hooks.json'), '{ broken');
    const c = captureIo(true);
    expect(await trustCommand({ project, home }, c.io)).toBe(0);
    expect(c.out.join('\n')).toMatch(/no project hooks .*nothing to approve/);
    expect(c.err).toHaveLength(1);
    expect(c.err[0]).toMatch(/hooks\.json: \$: invalid JSON/);
    expect(c.asked).toEqual([]);
    expect(existsSync(trustStorePath(home))).toBe(false);
  });
});
