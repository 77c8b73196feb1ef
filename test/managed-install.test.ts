/**
 * [T-MGD-2] `hookwerk install --agent A --system`, end to end: the real CLI as root in a mount
 * namespace where temp folders are /etc/hookwerk and each agent's administrator folder
 * (`managed-namespace.ts`); as the unprivileged account it is refused, and its dry run shows the
 * change. The entries written are the ones a project install writes (the per-agent install code,
 * checked against the agents elsewhere), in the agent's administrator file; uninstall gives every
 * folder back as it was.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClientProblem } from '../src/install/system-client.ts';
import type { CliResult } from './cli-runner.ts';
import { agentAccount, agentEnv, hookwerkIn, openTempDir, ownedDir } from './managed-namespace.ts';

/** Each test runs a dozen real processes in namespaces: minutes on a loaded 2-core machine, not 30 s. */
const SLOW = { timeout: 180_000 };

interface Setup {
  base: string;
  home: string;
  project: string;
  /** Target under /etc → temp folder. */
  binds: Record<string, string>;
}

const FOLDERS = [
  '/etc/hookwerk',
  '/etc/claude-code',
  '/etc/cursor',
  '/etc/gemini-cli',
  '/etc/github-copilot',
];

function setup(): Setup {
  const base = openTempDir('hw-minstall-');
  const home = path.join(base, 'root-home');
  const project = path.join(base, 'project');
  mkdirSync(home);
  mkdirSync(project, { mode: 0o755 });
  const binds: Record<string, string> = {};
  for (const target of FOLDERS) {
    const dir = path.join(base, `etc-${path.basename(target)}`);
    mkdirSync(dir, { mode: 0o755 });
    binds[target] = dir;
  }
  return { base, home, project, binds };
}

/** The temp folder standing for `file`'s place under /etc. */
function real(s: Setup, file: string): string {
  for (const [target, dir] of Object.entries(s.binds))
    if (file.startsWith(`${target}/`)) return path.join(dir, path.relative(target, file));
  throw new Error(`${file} is not under a bound folder`);
}

function asRoot(s: Setup, args: string[]): Promise<CliResult> {
  return hookwerkIn(args, { binds: s.binds, env: agentEnv(s.home), cwd: s.project });
}

/** Every file under the bound folders, with its text: what "as before" means. */
function snapshot(s: Setup): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) {
        out[`${p}/`] = '';
        walk(p);
      } else out[p] = readFileSync(p, 'utf8');
    }
  };
  for (const dir of Object.values(s.binds)) if (!dir.endsWith('etc-hookwerk')) walk(dir);
  return out;
}

const SYSTEM_FILES = {
  claude: '/etc/claude-code/managed-settings.d/hookwerk.json',
  cursor: '/etc/cursor/hooks.json',
  gemini: '/etc/gemini-cli/settings.json',
  copilot: '/etc/github-copilot/policy.d/hookwerk.json',
} as const;

const PROJECT_FILES = {
  claude: '.claude/settings.json',
  cursor: '.cursor/hooks.json',
  gemini: '.gemini/settings.json',
  copilot: '.github/hooks/hookwerk.json',
} as const;

describe('[T-MGD-2] hookwerk install --system', SLOW, () => {
  it('as root: each agent`s administrator file gets the entries a project install writes; uninstall leaves every folder as before', async () => {
    const s = setup();
    // An administrator's own Gemini CLI system settings, kept byte for byte.
    const geminiText = '{\n  // the admin\'s\n  "general": { "vimMode": true }\n}\n';
    writeFileSync(real(s, SYSTEM_FILES.gemini), geminiText);
    const before = snapshot(s);
    for (const agent of Object.keys(SYSTEM_FILES) as Array<keyof typeof SYSTEM_FILES>) {
      const installed = await asRoot(s, ['install', '--agent', agent, '--system']);
      expect(installed.code, installed.stderr).toBe(0);
      const file = real(s, SYSTEM_FILES[agent]);
      const value: unknown = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
      const project = await asRoot(s, ['install', '--agent', agent, '--project', s.project]);
      expect(project.code, project.stderr).toBe(0);
      const projectValue: unknown = JSON.parse(
        readFileSync(path.join(s.project, PROJECT_FILES[agent]), 'utf8'),
      );
      expect(Reflect.get(Object(value), 'hooks'), agent).toEqual(Reflect.get(Object(projectValue), 'hooks'));
      expect(JSON.stringify(value)).toContain(`--agent ${agent}`);
    }
    expect(
      Reflect.get(
        JSON.parse(readFileSync(real(s, SYSTEM_FILES.gemini), 'utf8').replace(/^\s*\/\/.*$/gm, '')),
        'general',
      ),
    ).toEqual({
      vimMode: true,
    });
    // The records are root's, under the managed policy's folder, which stays readable by every user.
    const records = s.binds['/etc/hookwerk'] ?? '';
    expect(readdirSync(path.join(records, 'installs'))).toHaveLength(4);
    expect(statSync(path.join(records, 'installs')).mode & 0o777).toBe(0o700);
    expect(statSync(records).mode & 0o777).toBe(0o755);
    // A second install changes nothing.
    const again = await asRoot(s, ['install', '--agent', 'claude', '--system']);
    expect(again.stdout).toContain('already has hookwerk');

    for (const agent of Object.keys(SYSTEM_FILES)) {
      const removed = await asRoot(s, ['uninstall', '--agent', agent, '--system']);
      expect(removed.code, removed.stderr).toBe(0);
    }
    expect(snapshot(s)).toEqual(before);
    expect(readFileSync(real(s, SYSTEM_FILES.gemini), 'utf8')).toBe(geminiText);
    expect(readdirSync(path.join(records, 'installs'))).toEqual([]);
  });

  it('an installation a user could replace is refused: its folder, its files, or a folder above them not root`s alone', () => {
    // The checkout seen at a root-owned path is accepted (the installs above); a copy in a folder
    // the agent owns is not.
    const agent = agentAccount();
    const base = openTempDir('hw-client-');
    const copy = ownedDir(path.join(base, 'hookwerk'), agent);
    for (const dir of ['bin', 'dist/native']) mkdirSync(path.join(copy, dir), { recursive: true });
    writeFileSync(path.join(copy, 'bin', 'hookwerk.js'), '');
    expect(systemClientProblem(copy)).toMatch(
      new RegExp(
        `^the hookwerk installation at ${copy} is not root's alone \\(${copy} is owned by uid ${agent.uid}, mode 0755\\)`,
      ),
    );
    // Root's folders under a world-writable one (/tmp's sticky 1777) are no better.
    const rootCopy = path.join(base, 'root-copy');
    for (const dir of ['bin', 'dist']) mkdirSync(path.join(rootCopy, dir), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(rootCopy, 'bin', 'hookwerk.js'), '');
    expect(systemClientProblem(rootCopy)).toMatch(/\(\/tmp is owned by uid 0, mode 01777\)/);
  });

  it('not as root: exit 1 with one line and nothing written; --dry-run shows the change to anyone', async () => {
    const s = setup();
    const agent = agentAccount();
    const home = ownedDir(path.join(s.base, 'agent-home'), agent, 0o700);
    const run = (args: string[]) =>
      hookwerkIn(args, { binds: s.binds, as: agent, env: agentEnv(home), cwd: s.project });
    const before = snapshot(s);
    for (const verb of ['install', 'uninstall']) {
      const refused = await run([verb, '--agent', 'claude', '--system']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `hookwerk: ${verb} --system changes files every user's agent reads: run it as root, or see the change with --dry-run; nothing was written\n`,
      );
    }
    const dry = await run(['install', '--agent', 'claude', '--system', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`Would create ${SYSTEM_FILES.claude}: hookwerk's hooks for Claude Code`);
    expect(dry.stdout).toContain('dry run: nothing was written');
    expect(snapshot(s)).toEqual(before);
    expect(existsSync(path.join(s.binds['/etc/hookwerk'] ?? '', 'installs'))).toBe(false);
  });
});
