/**
 * [T-MGD-2] `hookwerk install --agent codex --system`, end to end: the real CLI as root in a
 * mount namespace where temp folders are /etc/hookwerk and /etc/codex (`managed-namespace.ts`).
 * Codex's administrator file is TOML (`/etc/codex/requirements.toml`): the entries a project
 * install writes go in as one block of `[[hooks.<Event>]]` tables, every byte of the
 * administrator's text stays, and uninstall takes out exactly that block. A file install cannot
 * change safely is refused with one line, nothing written. That Codex runs these hooks is
 * checked against codex-cli 0.171 by `npm run differential -- install`
 * (differential/install-managed.js), not here.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { type CliResult, runProgram } from './cli-runner.ts';
import {
  agentAccount,
  agentEnv,
  hookwerkIn,
  namespaceArgv,
  openTempDir,
  ownedDir,
} from './managed-namespace.ts';

/** Each test runs several real processes in namespaces: minutes on a loaded 2-core machine, not 30 s. */
const SLOW = { timeout: 180_000 };

const FILE = '/etc/codex/requirements.toml';

interface Setup {
  base: string;
  home: string;
  project: string;
  binds: Record<string, string>;
  /** The temp file standing for /etc/codex/requirements.toml. */
  file: string;
  /** The temp folder standing for /etc/hookwerk/installs. */
  installs: string;
}

function setup(): Setup {
  const base = openTempDir('hw-mcodex-');
  const home = path.join(base, 'root-home');
  const project = path.join(base, 'project');
  mkdirSync(home);
  mkdirSync(project, { mode: 0o755 });
  const binds: Record<string, string> = {};
  for (const target of ['/etc/hookwerk', '/etc/codex']) {
    const dir = path.join(base, `etc-${path.basename(target)}`);
    mkdirSync(dir, { mode: 0o755 });
    binds[target] = dir;
  }
  return {
    base,
    home,
    project,
    binds,
    file: path.join(binds['/etc/codex'] ?? '', 'requirements.toml'),
    installs: path.join(binds['/etc/hookwerk'] ?? '', 'installs'),
  };
}

function asRoot(s: Setup, args: string[]): Promise<CliResult> {
  return hookwerkIn(args, { binds: s.binds, env: agentEnv(s.home), cwd: s.project });
}

function records(s: Setup): string[] {
  return existsSync(s.installs) ? readdirSync(s.installs) : [];
}

/** `hooks` of a parsed TOML or JSON text, as a plain object. */
function hooksOf(value: unknown): Record<string, unknown[]> {
  const hooks: unknown = Reflect.get(Object(value), 'hooks');
  return JSON.parse(JSON.stringify(hooks ?? {}));
}

/** An administrator's file: comments, switches, a managed hook of their own. */
const ADMIN = [
  '# Managed by the platform team: do not edit by hand.',
  'allow_managed_hooks_only = true',
  '',
  '[features]',
  'hooks = true # keep hooks on for everyone',
  '',
  '[hooks]',
  'managed_dir = "/etc/codex/hooks"',
  '',
  '[[hooks.PreToolUse]]',
  'matcher = "^Bash$"',
  '[[hooks.PreToolUse.hooks]]',
  'type = "command"',
  'command = "/etc/codex/hooks/audit.sh"',
  'timeout = 10',
  '',
].join('\n');

describe('[T-MGD-2] hookwerk install --agent codex --system', SLOW, () => {
  it('as root: the entries of a project install go into requirements.toml as one block; the administrator`s text stays byte for byte; twice = once; uninstall gives the file back', async () => {
    const s = setup();
    writeFileSync(s.file, ADMIN);
    const installed = await asRoot(s, ['install', '--agent', 'codex', '--system']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`Change ${FILE}: hookwerk's hooks for Codex CLI`);
    expect(installed.stdout).toContain('without its hook trust review');
    // The administrator pinned the feature and runs managed hooks only: nothing to warn about.
    expect(installed.stderr).toBe('');
    expect(installed.stdout).not.toContain('allow_managed_hooks_only = true in');
    const text = readFileSync(s.file, 'utf8');
    expect(text.startsWith(`${ADMIN}\n# >>> hookwerk: managed hooks written by`)).toBe(true);
    expect(text.endsWith('# <<< hookwerk\n')).toBe(true);
    const value = parse(text);
    expect(value.allow_managed_hooks_only).toBe(true);
    expect(value.features).toEqual({ hooks: true });
    expect(Reflect.get(Object(value.hooks), 'managed_dir')).toBe('/etc/codex/hooks');
    // Each event: the administrator's groups first, then exactly the entry a project install writes.
    const project = await asRoot(s, ['install', '--agent', 'codex', '--project', s.project]);
    expect(project.code, project.stderr).toBe(0);
    const projectHooks = hooksOf(
      JSON.parse(readFileSync(path.join(s.project, '.codex', 'hooks.json'), 'utf8')),
    );
    const systemHooks = hooksOf(value);
    expect(Object.keys(projectHooks).length).toBeGreaterThan(5);
    for (const [event, entries] of Object.entries(projectHooks)) {
      const admins = event === 'PreToolUse' ? (hooksOf(parse(ADMIN)).PreToolUse ?? []) : [];
      expect(systemHooks[event], event).toEqual([...admins, ...entries]);
    }
    expect(JSON.stringify(systemHooks)).toContain('--agent codex');
    expect(records(s)).toHaveLength(1);

    const again = await asRoot(s, ['install', '--agent', 'codex', '--system']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${FILE} already has hookwerk's hooks for Codex CLI: nothing to do`);
    expect(readFileSync(s.file, 'utf8')).toBe(text);

    const removed = await asRoot(s, ['uninstall', '--agent', 'codex', '--system']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Restore ${FILE} exactly as it was before install`);
    expect(readFileSync(s.file, 'utf8')).toBe(ADMIN);
    expect(records(s)).toEqual([]);
  });

  it('a new file is root`s, 0644: the agent`s account reads it but cannot write it or run install --system; uninstall removes it, or takes out only our block once the administrator added to it', async () => {
    const s = setup();
    const installed = await asRoot(s, ['install', '--agent', 'codex', '--system']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`Create ${FILE}: hookwerk's hooks for Codex CLI`);
    // Without the administrator's switches, install says what a user could still do.
    expect(installed.stderr).toContain(
      `hookwerk: warning: a user turns these hooks off with hooks = false under [features] in their config.toml, or codex --disable hooks: add hooks = true under [features] in ${FILE}`,
    );
    expect(installed.stdout).toContain(`allow_managed_hooks_only = true in ${FILE} runs managed hooks only`);
    const stat = statSync(s.file);
    expect(stat.uid).toBe(0);
    expect(stat.mode & 0o777).toBe(0o644);
    const text = readFileSync(s.file, 'utf8');

    const agent = agentAccount();
    const home = ownedDir(path.join(s.base, 'agent-home'), agent, 0o700);
    const asAgent = (command: string[]) =>
      runProgram('bwrap', namespaceArgv(command, { binds: s.binds, as: agent }), {
        env: agentEnv(home),
        cwd: s.project,
      });
    const read = await asAgent(['cat', FILE]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toBe(text);
    const write = await asAgent(['sh', '-c', `echo 'allow_managed_hooks_only = false' >> ${FILE}`]);
    expect(write.code).not.toBe(0);
    expect(write.stderr).toContain('Permission denied');
    const move = await asAgent(['mv', FILE, '/etc/codex/moved.toml']);
    expect(move.code).not.toBe(0);
    for (const verb of ['install', 'uninstall']) {
      const refused = await hookwerkIn([verb, '--agent', 'codex', '--system'], {
        binds: s.binds,
        as: agent,
        env: agentEnv(home),
        cwd: s.project,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `hookwerk: ${verb} --system changes files every user's agent reads: run it as root, or see the change with --dry-run; nothing was written\n`,
      );
    }
    expect(readFileSync(s.file, 'utf8')).toBe(text);

    const removed = await asRoot(s, ['uninstall', '--agent', 'codex', '--system']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Remove ${FILE} (install created it; nothing else is in it)`);
    expect(existsSync(s.file)).toBe(false);
    expect(records(s)).toEqual([]);

    // The administrator adds a switch of their own after install: uninstall leaves it.
    expect((await asRoot(s, ['install', '--agent', 'codex', '--system'])).code).toBe(0);
    const ours = readFileSync(s.file, 'utf8');
    writeFileSync(s.file, `# ours\nallow_managed_hooks_only = true\n\n${ours}`);
    const removedAgain = await asRoot(s, ['uninstall', '--agent', 'codex', '--system']);
    expect(removedAgain.code, removedAgain.stderr).toBe(0);
    expect(removedAgain.stdout).toContain(
      `Remove hookwerk's hooks for Codex CLI from ${FILE}; everything else stays`,
    );
    expect(readFileSync(s.file, 'utf8')).toBe('# ours\nallow_managed_hooks_only = true\n');
  });

  it('a file install cannot change safely: exit 1, one line with the file and the reason, nothing written', async () => {
    // [about, text, the line; uninstall refuses it too (else: nothing of ours in it, nothing to do)]
    const cases: Array<[string, string, string, boolean]> = [
      ['not TOML', '[hooks\nallow_managed_hooks_only = true\n', `${FILE}: $: not TOML (`, true],
      [
        'an event list written inline',
        '[hooks]\nPreToolUse = []\n',
        `${FILE}: hooks: install's [[hooks.<event>]] tables cannot be added to it as it is written`,
        false,
      ],
      [
        'hooks not a table',
        'hooks = 1\n',
        `${FILE}: hooks: must be a table of hook events; nothing was written`,
        true,
      ],
      [
        'an entry calling hookwerk written by hand',
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "hookwerk hook --agent codex"\n',
        `${FILE}: hooks.Stop: an entry calling hookwerk hook --agent codex outside hookwerk's block`,
        true,
      ],
      [
        'our block without its end line',
        'x = 1\n# >>> hookwerk: managed hooks\n[[hooks.Stop]]\n',
        `${FILE}: $: hookwerk's block has no "# <<< hookwerk" line`,
        true,
      ],
      [
        'an administrator`s hook inside our block',
        '# >>> hookwerk: managed hooks\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "/etc/codex/hooks/stop.sh"\n# <<< hookwerk\n',
        `${FILE}: $: hookwerk's block holds more than hookwerk's entries`,
        true,
      ],
    ];
    // Each case in a namespace of its own, side by side.
    await Promise.all(
      cases.map(async ([about, text, line, uninstallToo]) => {
        const s = setup();
        writeFileSync(s.file, text);
        for (const verb of uninstallToo ? ['install', 'uninstall'] : ['install']) {
          const r = await asRoot(s, [verb, '--agent', 'codex', '--system']);
          expect(r.code, `${about}: ${verb}`).toBe(1);
          expect(r.stderr.trim().split('\n'), about).toHaveLength(1);
          expect(r.stderr, about).toContain(line);
          expect(r.stderr, about).toMatch(/nothing was written\n$/);
          expect(readFileSync(s.file, 'utf8'), about).toBe(text);
        }
        if (!uninstallToo) {
          const r = await asRoot(s, ['uninstall', '--agent', 'codex', '--system']);
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout).toContain(`${FILE} has no hookwerk hooks for Codex CLI: nothing to do`);
          expect(readFileSync(s.file, 'utf8'), about).toBe(text);
        }
        expect(records(s), about).toEqual([]);
      }),
    );
  });

  it('--dry-run shows the block to anyone and writes nothing', async () => {
    const s = setup();
    writeFileSync(s.file, ADMIN);
    const agent = agentAccount();
    const home = ownedDir(path.join(s.base, 'agent-home'), agent, 0o700);
    const dry = await hookwerkIn(['install', '--agent', 'codex', '--system', '--dry-run'], {
      binds: s.binds,
      as: agent,
      env: agentEnv(home),
      cwd: s.project,
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`+++ ${FILE}`);
    expect(dry.stdout).toContain('+[[hooks.PreToolUse]]');
    expect(dry.stdout).toContain('dry run: nothing was written');
    expect(readFileSync(s.file, 'utf8')).toBe(ADMIN);
    expect(records(s)).toEqual([]);
  });
});
