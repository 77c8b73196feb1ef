/**
 * Issue 28 item 7: an approved source renamed away or deleted keeps running its approved text,
 * with a newer version (none) waiting for consent [L-TRUST-6] — in every gate dialect of the
 * table. Before, Copilot's `.github/hooks/*.json` (found by listing the folder) dropped its closed
 * guard without a word. Real `/bin/sh` hooks, temp projects and HOMEs, approvals in the real trust
 * store, engines and `hookwerk decide --dialect copilot` from dist/.
 */
import { existsSync, mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { approveProject } from '../src/consent/project-consent.ts';
import type { GateDialect } from '../src/dialects/gate-dialects.ts';
import { readGateProject } from '../src/dialects/surfaces/gate-project.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';

const DENY = 'echo "guard says no" >&2; exit 2';
const closed = { type: 'command', command: DENY, failMode: 'closed' };
const claudeShaped = (event: string, matcher: string) =>
  JSON.stringify({ hooks: { [event]: [{ matcher, hooks: [closed] }] } });
const bash = { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };

interface Case {
  dialect: GateDialect;
  /** The approved source, relative to the project. */
  file: string;
  text: string;
  event: string;
  input: Record<string, unknown>;
}

const COPILOT: Case = {
  dialect: 'copilot',
  file: '.github/hooks/guard.json',
  text: JSON.stringify({
    version: 1,
    hooks: { preToolUse: [{ type: 'command', bash: DENY, failMode: 'closed' }] },
  }),
  event: 'preToolUse',
  input: { toolName: 'bash', toolArgs: { command: 'rm -rf /' } },
};

/** One closed guard in each dialect's own project source (two for Codex, which reads two). */
const CASES = {
  lurus: [
    {
      dialect: 'lurus',
      file: '.lurus/hooks.json',
      text: JSON.stringify({ PreToolUse: [{ hooks: [closed] }] }),
      event: 'PreToolUse',
      input: { toolName: 'Bash' },
    },
  ],
  claude: [
    {
      dialect: 'claude',
      file: '.claude/settings.json',
      text: claudeShaped('PreToolUse', 'Bash'),
      event: 'PreToolUse',
      input: bash,
    },
  ],
  gemini: [
    {
      dialect: 'gemini',
      file: '.gemini/settings.json',
      text: claudeShaped('BeforeTool', 'run_shell_command'),
      event: 'BeforeTool',
      input: { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } },
    },
  ],
  copilot: [COPILOT],
  cursor: [
    {
      dialect: 'cursor',
      file: '.cursor/hooks.json',
      text: JSON.stringify({
        version: 1,
        hooks: { beforeShellExecution: [{ command: DENY, failMode: 'closed' }] },
      }),
      event: 'beforeShellExecution',
      input: { command: 'rm -rf /', cwd: '/' },
    },
  ],
  codex: [
    {
      dialect: 'codex',
      file: '.codex/hooks.json',
      text: claudeShaped('PreToolUse', 'Bash'),
      event: 'PreToolUse',
      input: bash,
    },
    {
      dialect: 'codex',
      file: '.codex/config.toml',
      text: [
        '[[hooks.PreToolUse]]',
        'matcher = "Bash"',
        '[[hooks.PreToolUse.hooks]]',
        'type = "command"',
        `command = '${DENY}'`,
        'failMode = "closed"',
        '',
      ].join('\n'),
      event: 'PreToolUse',
      input: bash,
    },
  ],
  policy: [
    {
      dialect: 'policy',
      file: '.hookwerk/policy.json',
      text: claudeShaped('PreToolUse', 'Bash'),
      event: 'PreToolUse',
      input: bash,
    },
  ],
} satisfies Record<GateDialect, Case[]>;

interface Env {
  project: string;
  home: string;
  /** Machine-wide files of the dialects, pointed at an empty folder. */
  machine: string;
}

function newEnv(): Env {
  return {
    project: realpathSync(tempDir('hw-kept-')),
    home: realpathSync(tempDir('hw-kept-home-')),
    machine: tempDir('hw-kept-machine-'),
  };
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Approves the project as it is now, as `hookwerk trust --yes` does. */
function approve(e: Env): void {
  const read = readGateProject(e.project, e.home);
  approveProject({ home: e.home, surface: read.surface, projectTexts: read.texts });
}

/** A fresh engine (as a new `decide` process would be) and one decision. */
async function decideOnce(e: Env, c: Case): Promise<{ blocked: boolean; runs: AgentDecision['runs'] }> {
  const engine = await makeEngine(undefined, {
    projectDir: e.project,
    home: e.home,
    gateDialect: c.dialect,
    claude: { managedSettings: path.join(e.machine, 'managed.json') },
    gemini: { systemSettings: path.join(e.machine, 'gemini.json') },
    cursor: { enterpriseFile: path.join(e.machine, 'cursor.json') },
    copilot: { copilotHome: path.join(e.home, '.copilot'), policyDir: e.machine },
    env: { ...process.env, CODEX_HOME: path.join(e.home, '.codex') },
  });
  return engine.decide(c.event, c.input);
}

const ALL: readonly Case[] = Object.values(CASES).flat();

describe('[L-TRUST-6] an approved source renamed away or deleted keeps running its approved text, in every dialect', () => {
  for (const c of ALL) {
    it(`[L-TRUST-6] ${c.dialect}: ${c.file} renamed beside itself, then out of its folder: the closed guard still denies, newer_version_pending`, async () => {
      const e = newEnv();
      const file = path.join(e.project, c.file);
      write(file, c.text);
      approve(e);
      expect(await decideOnce(e, c)).toMatchObject({ blocked: true });

      renameSync(file, `${file}.bak`);
      const beside = await decideOnce(e, c);
      expect(beside.blocked, JSON.stringify(beside.runs)).toBe(true);
      expect(beside.runs[0]).toMatchObject({ outcome: 'deny', consent: 'newer_version_pending' });

      const away = path.join(e.project, 'moved-away', path.basename(c.file));
      mkdirSync(path.dirname(away));
      renameSync(`${file}.bak`, away);
      const outside = await decideOnce(e, c);
      expect(outside.blocked, JSON.stringify(outside.runs)).toBe(true);
      expect(outside.runs[0]).toMatchObject({ outcome: 'deny', consent: 'newer_version_pending' });
    });
  }
});

describe('[L-TRUST-6] Copilot through `hookwerk decide --dialect copilot`', () => {
  beforeAll(() => {
    if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
    }
  });

  it('[L-TRUST-6] [L-TRUST-11] guard.json moved to guard.json.bak and out of .github/hooks/ still denies and says the approved version runs; a file renamed in is unapproved; a new approval ends the guard', async () => {
    const e = newEnv();
    const c = COPILOT;
    const hooks = path.join(e.project, '.github', 'hooks');
    write(path.join(hooks, 'guard.json'), c.text);
    const env = { COPILOT_HOME: path.join(e.home, '.copilot') };
    const cli = (...args: string[]) =>
      runCli(args, { cwd: e.project, home: e.home, env, stdin: { text: JSON.stringify(c.input) } });
    approve(e);

    renameSync(path.join(hooks, 'guard.json'), path.join(hooks, 'guard.json.bak'));
    // Renamed in: a file the approval never saw, which would allow and leave a mark.
    const mark = path.join(e.project, 'renamed-in.ran');
    write(
      path.join(e.project, 'elsewhere.json'),
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: `touch '${mark}'` }] } }),
    );
    renameSync(path.join(e.project, 'elsewhere.json'), path.join(hooks, 'renamed-in.json'));
    for (const step of ['beside', 'outside']) {
      if (step === 'outside')
        renameSync(path.join(hooks, 'guard.json.bak'), path.join(e.project, 'guard.json'));
      const r = await cli('decide', '--dialect', 'copilot', 'preToolUse');
      expect(r.stderr).not.toMatch(STACK);
      expect(r.code, `${step}: ${r.stdout}${r.stderr}`).toBe(2);
      const d = JSON.parse(r.stdout) as AgentDecision;
      const guard = d.runs.find((run) => run.source.startsWith(path.join(hooks, 'guard.json')));
      expect(guard).toMatchObject({ outcome: 'deny', consent: 'newer_version_pending' });
      const renamedIn = d.runs.find((run) => run.source.startsWith(path.join(hooks, 'renamed-in.json')));
      expect(renamedIn).toMatchObject({ outcome: 'skipped_untrusted', cause: 'untrusted' });
      expect(r.stderr).toContain(
        `${path.join(hooks, 'guard.json')} changed since approval: the approved version runs`,
      );
    }
    expect(existsSync(mark)).toBe(false);

    // Approving the project as it is now approves "no guard.json": the guard is gone by consent.
    renameSync(path.join(hooks, 'renamed-in.json'), path.join(e.project, 'renamed-in.json'));
    const again = await cli('trust', '--yes');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const after = await cli('decide', '--dialect', 'copilot', 'preToolUse');
    expect(after.code, after.stdout + after.stderr).toBe(0);
    expect((JSON.parse(after.stdout) as AgentDecision).runs).toEqual([]);
  });
});
