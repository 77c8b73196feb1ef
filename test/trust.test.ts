/**
 * Consent for project hooks [§2.6]: what an approval pins [L-TRUST-1, L-TRUST-5], what stays in
 * force after a change [L-TRUST-6], the store, and the `trust` review [L-TRUST-2].
 * Real files: a temp project, and a temp folder as `~` (passed as `home`, never the real one).
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines; `${VAR}` is shell syntax.
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
import { PIN_DIRECTORY, PIN_SPECIAL } from '../src/consent/pins.ts';
import {
  approveProject,
  consentStatus,
  projectFingerprint,
  revokeProject,
} from '../src/consent/project-consent.ts';
import { readTrustStore, trustStorePath } from '../src/consent/trust-store.ts';
import { type LurusConfig, loadLurusConfig } from '../src/dialects/lurus/source.ts';
import { makeEngine } from './engine-harness.ts';
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

/** Review mode (validate, the `trust` review): every current text compiled. */
const load = (project: string, home: string): LurusConfig => loadLurusConfig({ projectDir: project, home });
const real = (p: string) => realpathSync(p);
const lurusFile = (project: string, name = 'hooks.json') => path.join(real(project), '.lurus', name);

/**
 * Where consent stands as the engine admits the project (`consent: {kind: 'store'}`), and what
 * the check each project hook passes right before it runs finds: `changed` pinned files stop the
 * hooks from running as approved, `pending` sources only make a newer version wait.
 */
function consentOf(project: string, home: string) {
  const config = loadLurusConfig({ projectDir: project, home, consent: { kind: 'store' } });
  const check = config.consent.consent?.check() ?? { changed: [], pending: [] };
  return {
    config,
    trusted: config.consent.trusted,
    reason: config.consent.reason,
    problem: config.consent.problem,
    changed: check.changed,
    pending: check.pending,
  };
}

describe('(issue 31) `trust` counts hooks, not readings', () => {
  it('[L-TRUST-2] a 2-hook .claude/settings.json read by three dialects: each hook shown once with its readers, "approved: 2 project hooks"', async () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo a' }] },
          { matcher: 'Write', hooks: [{ type: 'command', command: 'echo b' }] },
        ],
      },
    });
    const out: string[] = [];
    const io: TrustIo = { out: (l) => out.push(l), err: (l) => out.push(l), ask: async () => true };
    expect(await trustCommand({ project, home, yes: true }, io)).toBe(0);
    const items = out.filter((l) => /^ {2}\d+\. /.test(l));
    expect(items).toEqual([
      '  1. PreToolUse (Claude Code, GitHub Copilot CLI, Cursor), matcher "Bash"',
      '  2. PreToolUse (Claude Code, GitHub Copilot CLI, Cursor), matcher "Write"',
    ]);
    expect(out.find((l) => l.startsWith('approved:'))).toMatch(/^approved: 2 project hooks of /);
  });
});

describe('[L-TRUST-1] project hooks run only after consent, pinned by content', () => {
  it('[L-TRUST-1] not approved → untrusted; approve → trusted', () => {
    const { project, home } = makeProject();
    const config = load(project, home);
    expect(config.issues).toEqual([]);
    expect(consentOf(project, home)).toMatchObject({ trusted: false, reason: 'not approved', changed: [] });
    approveProject(config);
    const after = consentOf(project, home);
    expect(after).toMatchObject({ trusted: true, changed: [], pending: [] });
    expect(after.reason).toMatch(/^approved /);
  });

  it('[L-TRUST-1] [L-TRUST-5] the fingerprint pins sources (absent ones as null), every file under .lurus/, and every project path a command names', () => {
    const { project, home } = makeProject();
    writeScript(project, '.lurus/hooks/other.sh', 'exit 0');
    writeScript(project, '.lurus/lib/deep/util.sh', 'exit 0');
    writeScript(project, '.lurus/hooks/__pycache__/mod.cpython-312.pyc', 'x');
    writeScript(project, '.lurus/hooks/stray.pyc', 'x');
    const fp = projectFingerprint(load(project, home).surface);
    const root = real(project);
    const at = (rel: string) => fp[path.join(root, rel)];
    expect(at('.lurus/hooks.json')).toMatch(/^[0-9a-f]{64}$/);
    expect(at('.lurus/settings.json')).toBeNull();
    expect(at(GUARD)).toMatch(/^[0-9a-f]{64}$/);
    expect(at('.lurus/hooks/later.sh')).toBeNull();
    // [L-TRUST-5] Unreferenced files under .lurus/ too, at any depth; interpreter caches not
    // [L-TRUST-10] — but a `.pyc` outside `__pycache__/` is code Python imports [L-TRUST-8].
    expect(at('.lurus/hooks/other.sh')).toMatch(/^[0-9a-f]{64}$/);
    expect(at('.lurus/lib/deep/util.sh')).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(fp).filter((k) => k.includes('pyc'))).toEqual([
      path.join(root, '.lurus/hooks/stray.pyc'),
    ]);
    expect(Object.hasOwn(fp, path.join(root, 'README.md'))).toBe(false);
    // Only paths inside the project; each once, though guard.sh is named twice.
    for (const key of Object.keys(fp)) expect(key.startsWith(`${root}${path.sep}`)).toBe(true);
  });

  it('[L-TRUST-5] command paths are pinned after expanding $CLAUDE_PROJECT_DIR, ${CLAUDE_PROJECT_DIR}, $PWD, ${PWD} and a leading `cd DIR &&`', () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) writeScript(project, `tools/${name}.sh`, 'exit 0');
    const commands = [
      'sh "$CLAUDE_PROJECT_DIR/tools/a.sh"',
      'sh ${CLAUDE_PROJECT_DIR}/tools/b.sh',
      'sh "$PWD"/tools/c.sh',
      'sh ${PWD}/tools/d.sh',
      'cd tools && sh ./e.sh',
      // Not known here: not pinned (the review says so).
      'sh "$SOMEWHERE"/tools/f.sh',
    ];
    writeJson(path.join(project, '.lurus', 'hooks.json'), {
      Stop: [{ hooks: commands.map((command) => ({ type: 'command', command })) }],
    });
    const fp = projectFingerprint(load(project, home).surface);
    const tool = (name: string) => path.join(real(project), 'tools', `${name}.sh`);
    for (const name of ['a', 'b', 'c', 'd', 'e']) expect(fp[tool(name)], name).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.hasOwn(fp, tool('f'))).toBe(false);

    approveProject(load(project, home));
    appendFileSync(tool('c'), '#');
    appendFileSync(tool('e'), '#');
    appendFileSync(tool('f'), '#');
    expect(consentOf(project, home).changed).toEqual([tool('c'), tool('e')]);
  });

  it('[L-TRUST-1] [L-TRUST-6] a one-byte change to a referenced script (plain and quoted reference) stops the hooks running as approved and names the script', () => {
    for (const command of [`sh ${GUARD}`, `"./${GUARD}"`]) {
      const project = tempDir('hw-proj-');
      const home = tempDir('hw-home-');
      writeScript(project, GUARD, 'exit 0');
      writeJson(path.join(project, '.lurus', 'hooks.json'), {
        PreToolUse: [{ hooks: [{ type: 'command', command }] }],
      });
      approveProject(load(project, home));
      expect(consentOf(project, home)).toMatchObject({ trusted: true, changed: [] });

      appendFileSync(path.join(project, GUARD), ' ');
      const check = consentOf(project, home);
      // The approval stands [L-TRUST-6]; the pre-run check refuses the changed file.
      expect(check.changed).toEqual([path.join(real(project), GUARD)]);
      expect(consentStatus(home, load(project, home).surface).changed).toEqual([
        path.join(real(project), GUARD),
      ]);
    }
  });

  it('[L-TRUST-1] a FIFO or a folder named by a command, and a FIFO under .lurus/, are pinned by a marker, never read (no hang)', () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    execFileSync('mkfifo', [path.join(project, 'pipe')]);
    mkdirSync(path.join(project, 'tools'));
    mkdirSync(path.join(project, '.lurus', 'hooks'), { recursive: true });
    execFileSync('mkfifo', [path.join(project, '.lurus', 'hooks', 'queue')]);
    writeJson(path.join(project, '.lurus', 'hooks.json'), {
      Stop: [{ hooks: [{ type: 'command', command: 'cat pipe; ls tools' }] }],
    });
    const fp = projectFingerprint(load(project, home).surface);
    expect(fp[path.join(real(project), 'pipe')]).toBe(PIN_SPECIAL);
    expect(fp[path.join(real(project), 'tools')]).toBe(PIN_DIRECTORY);
    expect(fp[path.join(real(project), '.lurus', 'hooks', 'queue')]).toBe(PIN_SPECIAL);
    approveProject(load(project, home));
    expect(consentOf(project, home)).toMatchObject({ trusted: true, changed: [], pending: [] });
  });

  it('[L-TRUST-1] an unreadable referenced file cannot be pinned: the review lists it and `trust --yes` refuses', async () => {
    const { project, home } = makeProject();
    // chmod 000 does not stop root (CI runs as root); /proc/self/mem opens but every read fails (EIO).
    rmSync(path.join(project, GUARD));
    symlinkSync('/proc/self/mem', path.join(project, GUARD));
    const status = consentStatus(home, load(project, home).surface);
    expect(status.unreadable).toEqual([path.join(real(project), GUARD)]);
    const c = captureIo(true);
    expect(await trustCommand({ project, home, yes: true }, c.io)).toBe(1);
    expect(c.err.join('\n')).toContain(`cannot read ${GUARD}`);
    expect(existsSync(trustStorePath(home))).toBe(false);
  });

  it('[L-TRUST-1] an approval recorded anyway for an unreadable file does not let its hook run', async () => {
    const { project, home } = makeProject();
    rmSync(path.join(project, GUARD));
    symlinkSync('/proc/self/mem', path.join(project, GUARD));
    try {
      approveProject(load(project, home));
    } catch {
      // Refusing to record it at all is as good.
    }
    const engine = await makeEngine(undefined, { projectDir: project, home });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['skipped_untrusted', 'skipped_untrusted']);
  });

  it('[L-TRUST-6] (was: voids consent) a change to .lurus/hooks.json keeps the approval: the approved text is what loads, the new version waits', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    const approvedNames = consentOf(project, home).config.hooks.map((h) => h.name);
    writeJson(path.join(project, '.lurus', 'hooks.json'), {
      PreToolUse: [{ hooks: [{ type: 'command', command: 'echo added' }] }],
    });
    const check = consentOf(project, home);
    expect(check).toMatchObject({ trusted: true, changed: [], pending: [lurusFile(project)] });
    expect(check.config.consent.pending).toEqual([lurusFile(project)]);
    expect(check.config.hooks.map((h) => h.name)).toEqual(approvedNames);
    expect(check.config.sources.find((s) => s.file === lurusFile(project) && s.key === null)).toMatchObject({
      newerVersionPending: true,
    });
  });

  it('[L-TRUST-1] creating a previously missing referenced file stops the hooks running as approved (it was pinned as absent)', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    writeScript(project, '.lurus/hooks/later.sh', 'exit 0');
    const check = consentOf(project, home);
    expect(check.trusted).toBe(true);
    expect(check.changed).toEqual([path.join(real(project), '.lurus', 'hooks', 'later.sh')]);
  });

  it('[L-TRUST-6] (was: voids consent) a project settings.json created after approval waits for consent: its hooks are not loaded', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    writeJson(path.join(project, '.lurus', 'settings.json'), {
      projectHooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo sneaked-in' }] }] },
    });
    const check = consentOf(project, home);
    expect(check).toMatchObject({
      trusted: true,
      changed: [],
      pending: [lurusFile(project, 'settings.json')],
    });
    expect(check.config.hooks.map((h) => h.name)).not.toContain('echo sneaked-in');
  });

  it('[L-TRUST-1] a change to a project file outside .lurus/ that no command names keeps consent', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    appendFileSync(path.join(project, 'README.md'), 'more\n');
    writeFileSync(path.join(project, 'notes.txt'), 'new\n');
    expect(consentOf(project, home)).toMatchObject({ trusted: true, changed: [], pending: [] });
  });

  it('[L-TRUST-5] [L-TRUST-8] a new file under .lurus/ that could run as code, even one no command names, stops the hooks running as approved; __pycache__ and a log do not; a stray .pyc does (Python imports it)', () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    writeScript(project, '.lurus/hooks/__pycache__/mod.cpython-312.pyc', 'x');
    writeFileSync(path.join(project, '.lurus', 'hooks', 'guard.log'), 'ran\n');
    expect(consentOf(project, home).changed).toEqual([]);
    writeFileSync(path.join(project, '.lurus', 'hooks', 'other.sh'), 'exit 1\n');
    writeFileSync(path.join(project, '.lurus', 'hooks', 'stray.pyc'), 'x');
    expect(consentOf(project, home).changed).toEqual([
      path.join(real(project), '.lurus', 'hooks', 'other.sh'),
      path.join(real(project), '.lurus', 'hooks', 'stray.pyc'),
    ]);
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
    const check = consentOf(project, home);
    expect(check.config.hooks).toHaveLength(1);
    expect(check.config.hooks[0]!.origin.scope).toBe('global');
    expect(check).toMatchObject({ trusted: true, reason: 'no project hooks', changed: [], pending: [] });
    expect(existsSync(trustStorePath(home))).toBe(false);
  });

  it('[L-TRUST-1] the store is keyed by real path: approved through a symlink, trusted through the real path (and back)', () => {
    const { project, home } = makeProject();
    const link = path.join(tempDir('hw-link-'), 'proj-link');
    symlinkSync(project, link, 'dir');
    approveProject(load(link, home));
    expect(Object.keys(readTrustStore(home).projects)).toEqual([real(project)]);
    expect(consentOf(project, home)).toMatchObject({ trusted: true, changed: [] });
    expect(consentOf(link, home)).toMatchObject({ trusted: true, changed: [] });
    appendFileSync(path.join(link, GUARD), ' ');
    expect(consentOf(project, home).changed).toEqual([path.join(real(project), GUARD)]);
    expect(consentOf(link, home).changed).toEqual([path.join(real(project), GUARD)]);
  });

  it("[L-TRUST-1] [L-TRUST-7] an approval keeps other projects' entries; revoke removes only this one", () => {
    const a = makeProject();
    const b = makeProject();
    const home = a.home;
    approveProject(load(a.project, home));
    approveProject(load(b.project, home));
    expect(Object.keys(readTrustStore(home).projects).sort()).toEqual(
      [real(a.project), real(b.project)].sort(),
    );
    expect(consentOf(a.project, home).trusted).toBe(true);
    expect(consentOf(b.project, home).trusted).toBe(true);

    expect(revokeProject(load(a.project, home))).toBe(true);
    expect(revokeProject(load(a.project, home))).toBe(false);
    expect(consentOf(a.project, home).trusted).toBe(false);
    expect(consentOf(b.project, home).trusted).toBe(true);
  });

  it('[L-TRUST-1] [L-TRUST-6] the store is written atomically with mode 0600 in a 0700 folder, leaving no temp files; it keeps the pins and the approved text', () => {
    const { project, home } = makeProject();
    const config = load(project, home);
    approveProject(config);
    const file = trustStorePath(home);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(file))).toEqual(['trust.json']);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored[real(project)].approvedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(stored[real(project)].files).toEqual(projectFingerprint(load(project, home).surface));
    expect(stored[real(project)].sources).toEqual({
      [lurusFile(project)]: readFileSync(path.join(project, '.lurus', 'hooks.json'), 'utf8'),
    });
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
      const check = consentOf(project, home);
      expect(check.trusted).toBe(false);
      expect(check.problem).toMatch(/trust/);
      expect(check.problem).not.toMatch(/\n/);
      expect(consentStatus(home, load(project, home).surface).problem).toBe(check.problem);
    }
    // Approving again moves the unusable store aside and writes a fresh one.
    const result = approveProject(load(project, home));
    expect(result.backup).toBeDefined();
    expect(readFileSync(result.backup!, 'utf8')).not.toBe(good);
    expect(consentOf(project, home).trusted).toBe(true);
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
    expect(consentOf(project, home).trusted).toBe(true);

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
    expect(consentOf(project, home).trusted).toBe(false);

    const yes = captureIo(true);
    expect(await trustCommand({ project, home }, yes.io)).toBe(0);
    expect(yes.out.at(-1)).toMatch(/^approved/);
    expect(consentOf(project, home).trusted).toBe(true);
  });

  it('[L-TRUST-2] without a terminal and without --yes: not approved, exit 1, told to use --yes', async () => {
    const { project, home } = makeProject();
    const c = captureIo(true, false);
    expect(await trustCommand({ project, home }, c.io)).toBe(1);
    expect(c.asked).toEqual([]);
    expect(c.err.join('\n')).toMatch(/--yes/);
    expect(consentOf(project, home).trusted).toBe(false);
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

  it('[L-TRUST-2] [L-TRUST-6] approving again after a change: the new text and pins are what run from then on', async () => {
    const { project, home } = makeProject();
    approveProject(load(project, home));
    appendFileSync(path.join(project, GUARD), '#');
    writeJson(path.join(project, '.lurus', 'hooks.json'), {
      PreToolUse: [{ hooks: [{ type: 'command', command: `sh ${GUARD} --new` }] }],
    });
    expect(consentOf(project, home)).toMatchObject({
      changed: [path.join(real(project), GUARD)],
      pending: [lurusFile(project)],
    });
    expect(await trustCommand({ project, home, yes: true }, captureIo(false).io)).toBe(0);
    const after = consentOf(project, home);
    expect(after).toMatchObject({ trusted: true, changed: [], pending: [] });
    expect(after.config.hooks.map((h) => h.name)).toEqual([`sh ${GUARD} --new`]);
  });

  it('[L-TRUST-2] no project hooks: nothing to approve, exit 0', async () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    mkdirSync(path.join(project, '.lurus'));
    writeFileSync(path.join(project, '.lurus', 'hooks.json'), '{}\n');
    const c = captureIo(true);
    expect(await trustCommand({ project, home }, c.io)).toBe(0);
    expect(c.out.join('\n')).toMatch(/no project hooks .*nothing to approve/);
    expect(c.err).toEqual([]);
    expect(c.asked).toEqual([]);
    expect(existsSync(trustStorePath(home))).toBe(false);
  });

  it('[L-TRUST-2] [G-PERM-1] a project policy of permission rules alone is reviewed rule by rule and approved; then they run', async () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    writeJson(path.join(project, '.hookwerk', 'policy.json'), {
      permissions: { deny: ['mcp__files__delete'], allow: ['Read'] },
    });
    const policyEngine = () => makeEngine(undefined, { projectDir: project, home, gateDialect: 'policy' });
    const call = { tool_name: 'mcp__files__delete', tool_input: {} };
    // Not approved: the rules do not run, and the project is not "without hooks".
    const before = await policyEngine();
    expect(before.gate.trust).toMatchObject({ trusted: false, reason: 'not approved' });
    expect((await before.decide('PreToolUse', call)).blocked).toBe(false);

    const c = captureIo(false);
    expect(await trustCommand({ project, home }, c.io)).toBe(1);
    expect(c.out).toContain(`project rules of ${realpathSync(project)} (checked before any hook):`);
    expect(c.out).toContain(
      '  - permissions.deny: mcp__files__delete  (.hookwerk/policy.json /permissions/deny/0)',
    );
    expect(c.out).toContain('  - permissions.allow: Read  (.hookwerk/policy.json /permissions/allow/0)');
    const yes = captureIo(false);
    expect(await trustCommand({ project, home, yes: true }, yes.io)).toBe(0);
    expect(yes.out.at(-1)).toMatch(/^approved: 0 project hooks and 2 rules of /);
    const after = await policyEngine();
    expect(after.gate.trust.trusted).toBe(true);
    expect(await after.decide('PreToolUse', call)).toMatchObject({
      blocked: true,
      reason: `${path.join(project, '.hookwerk', 'policy.json')}: permissions.deny: mcp__files__delete`,
    });
  });

  it('[L-TRUST-2] a broken project source is not approved (exit 1): its problems go to stderr, nothing is written', async () => {
    const project = tempDir('hw-proj-');
    const home = tempDir('hw-home-');
    mkdirSync(path.join(project, '.lurus'));
    writeFileSync(path.join(project, '.lurus', 'hooks.json'), '{ broken');
    const c = captureIo(true);
    expect(await trustCommand({ project, home, yes: true }, c.io)).toBe(1);
    expect(c.err).toHaveLength(2);
    expect(c.err[0]).toMatch(/hooks\.json: \$: invalid JSON/);
    expect(c.err[1]).toBe('not approved: fix the problems above first');
    expect(existsSync(trustStorePath(home))).toBe(false);
  });

  it('[L-TRUST-6] emptying an approved project and approving again removes its hooks (the empty version is approved)', async () => {
    const { project, home } = makeProject();
    approveProject(loadLurusConfig({ projectDir: project, home }));
    writeFileSync(path.join(project, '.lurus', 'hooks.json'), '{}\n');
    const c = captureIo(true);
    expect(await trustCommand({ project, home, yes: true }, c.io)).toBe(0);
    expect(c.out.join('\n')).toMatch(/approved: 0 project hooks/);
    const engine = loadLurusConfig({ projectDir: project, home, consent: { kind: 'store' } });
    expect(engine.hooks.filter((h) => h.origin.scope === 'project')).toEqual([]);
    expect(engine.consent.pending).toEqual([]);
  });
});
