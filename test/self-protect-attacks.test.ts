/**
 * [T-SELF-1, T-SELF-2, G-LIB-1, R-HOOK-1] Issue 30's attacks on hookwerk from inside the account,
 * one per attack, each through the real `bin/hookwerk.js hook --agent A` process (as the agent's
 * hook entry calls it) in a home where `hookwerk install --agent claude --user` really ran and no
 * policy file exists at all: `self-protect` is on by default. Claude Code's shape for each, and
 * Gemini CLI's, Codex's, Copilot's and Cursor's for the same attacks in their own tools. A user
 * policy's `"self-protect": false` is ignored (`validate` warns); reading and `hookwerk runs` pass.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

interface World {
  readonly home: string;
  readonly project: string;
  /** The install record `install` wrote (`~/.hookwerk/installs/<hash>.json`). */
  readonly record: string;
}

let w: World;
/** One world for the file (the helpers' temp folders go after each test). */
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hw-selfattack-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** Each attack spawns several real processes, one after another. */
const SLOW = 120_000;

beforeAll(async () => {
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(path.join(project, 'src'), { recursive: true });
  const installed = await runCli(['install', '--agent', 'claude', '--user'], { home, cwd: project });
  expect(installed.code, installed.stderr).toBe(0);
  const installs = path.join(home, '.hookwerk', 'installs');
  const [record] = readdirSync(installs);
  if (record === undefined) throw new Error('install wrote no record');
  w = { home, project, record: path.join(installs, record) };
}, 60_000);

type Agent = 'claude' | 'gemini' | 'codex' | 'copilot' | 'cursor';

function hook(agent: Agent, input: unknown, home = w.home): Promise<CliResult> {
  return runCli(['hook', '--agent', agent, ...(agent === 'copilot' ? ['--event', 'preToolUse'] : [])], {
    home,
    cwd: w.project,
    env: { CLAUDE_PROJECT_DIR: w.project },
    stdin: { text: JSON.stringify(input) },
  });
}

/** The agent's answer in its own protocol. */
function answer(agent: Agent, r: CliResult): { decision: string; reason: string } {
  expect(r.code, r.stderr).toBe(0);
  const out = r.stdout.trim() === '' ? {} : JSON.parse(r.stdout);
  if (agent === 'gemini') return { decision: out.decision ?? 'none', reason: out.reason ?? '' };
  if (agent === 'copilot')
    return { decision: out.permissionDecision ?? 'none', reason: out.permissionDecisionReason ?? '' };
  if (agent === 'cursor') return { decision: out.permission ?? 'none', reason: out.agent_message ?? '' };
  return {
    decision: out.hookSpecificOutput?.permissionDecision ?? 'none',
    reason: out.hookSpecificOutput?.permissionDecisionReason ?? '',
  };
}

const claude = (tool: string, input: Record<string, unknown>) => ({
  hook_event_name: 'PreToolUse',
  session_id: 's',
  cwd: w.project,
  tool_name: tool,
  tool_input: input,
});
const claudeBash = (command: string) => claude('Bash', { command });
const geminiCall = (tool: string, input: Record<string, unknown>) => ({
  hook_event_name: 'BeforeTool',
  session_id: 's',
  cwd: w.project,
  tool_name: tool,
  tool_input: input,
});

async function expectDenied(agent: Agent, input: unknown, saw: string): Promise<void> {
  const got = answer(agent, await hook(agent, input));
  expect(got.decision).toBe('deny');
  expect(got.reason).toContain('guards.self-protect: hookwerk protects its own files: ');
  expect(got.reason).toContain(saw);
}

describe('[T-SELF-1] the attacks of issue 30, each stopped by self-protect with no policy file at all', () => {
  it(
    'an agent that approves its own edits: `hookwerk trust --yes --project .` by a shell call',
    async () => {
      expect(readdirSync(path.join(w.home, '.hookwerk'))).not.toContain('policy.json');
      await expectDenied(
        'claude',
        claudeBash('hookwerk trust --yes --project .'),
        'runs hookwerk trust, which only a person may run',
      );
      await expectDenied(
        'gemini',
        geminiCall('run_shell_command', { command: "bash -c 'npx hookwerk trust --yes --project .'" }),
        'runs hookwerk trust',
      );
      await expectDenied(
        'cursor',
        {
          hook_event_name: 'beforeShellExecution',
          conversation_id: 's',
          workspace_roots: [w.project],
          command: "script -qc 'hookwerk trust --yes' /dev/null",
          cwd: w.project,
        },
        'runs hookwerk trust',
      );
    },
    SLOW,
  );

  it(
    'an edit of ~/.hookwerk/policy.json: by Write, by sed -i, by echo >',
    async () => {
      const policy = path.join(w.home, '.hookwerk', 'policy.json');
      await expectDenied('claude', claude('Write', { file_path: policy, content: '{}' }), 'Write writes');
      await expectDenied(
        'claude',
        claudeBash(`sed -i 's/deny/allow/' ~/.hookwerk/policy.json`),
        "sed -i 's/deny/allow/' ~/.hookwerk/policy.json writes ~/.hookwerk/policy.json",
      );
      await expectDenied(
        'claude',
        claudeBash(`echo '{}' > ~/.hookwerk/policy.json`),
        "echo '{}' > ~/.hookwerk/policy.json writes ~/.hookwerk/policy.json",
      );
      await expectDenied('gemini', geminiCall('write_file', { file_path: policy, content: '{}' }), 'writes');
      await expectDenied(
        'copilot',
        { sessionId: 's', cwd: w.project, toolName: 'create', toolArgs: { path: policy, file_text: '{}' } },
        'writes ~/.hookwerk/policy.json',
      );
    },
    SLOW,
  );

  it(
    "an edit of the entry install wrote into ~/.claude/settings.json: by Edit, by a Codex patch, by jq's rewrite",
    async () => {
      const settings = path.join(w.home, '.claude', 'settings.json');
      const entry = readFileSync(settings, 'utf8');
      expect(entry).toContain('--agent claude');
      await expectDenied(
        'claude',
        claude('Edit', { file_path: settings, old_string: '--agent claude', new_string: '--version' }),
        'Edit writes ~/.claude/settings.json',
      );
      await expectDenied(
        'codex',
        {
          hook_event_name: 'PreToolUse',
          session_id: 's',
          turn_id: 't',
          tool_use_id: 'u',
          cwd: w.project,
          tool_name: 'apply_patch',
          tool_input: {
            command: `*** Begin Patch\n*** Update File: ${settings}\n@@\n-a\n+b\n*** End Patch\n`,
          },
        },
        'writes ~/.claude/settings.json',
      );
      await expectDenied(
        'claude',
        claudeBash('jq "del(.hooks)" ~/.claude/settings.json > /tmp/s && mv /tmp/s ~/.claude/settings.json'),
        'mv /tmp/s ~/.claude/settings.json writes ~/.claude/settings.json',
      );
      expect(readFileSync(settings, 'utf8')).toBe(entry);
    },
    SLOW,
  );

  it(
    'a write into ~/.hookwerk/installs/* (to steer a later uninstall)',
    async () => {
      await expectDenied('claude', claude('Write', { file_path: w.record, content: '{}' }), 'Write writes');
      await expectDenied(
        'claude',
        claudeBash(`cp evil.json ${w.record}`),
        `writes ~/.hookwerk/installs/${path.basename(w.record)}`,
      );
      await expectDenied('claude', claudeBash('rm -rf ~/.hookwerk/installs'), 'deletes or moves');
    },
    SLOW,
  );

  it(
    'stopping hookwerk: daemon stop, pkill, uninstall',
    async () => {
      await expectDenied('claude', claudeBash('hookwerk daemon stop'), 'runs hookwerk daemon stop');
      await expectDenied('claude', claudeBash('pkill -f hookwerk'), 'stops hookwerk');
      await expectDenied(
        'claude',
        claudeBash('node ./node_modules/hookwerk/bin/hookwerk.js uninstall --agent claude --user'),
        'runs hookwerk uninstall',
      );
    },
    SLOW,
  );

  it(
    '[T-SELF-2] reading the trust token; reading the rest and `hookwerk runs` pass',
    async () => {
      await expectDenied('claude', claudeBash('cat ~/.hookwerk/trust-token'), 'reads the trust token');
      await expectDenied(
        'claude',
        claude('Read', { file_path: path.join(w.home, '.hookwerk', 'trust-token') }),
        'reads the trust token',
      );
      for (const command of [
        'cat ~/.claude/settings.json',
        'ls -la ~/.hookwerk',
        'hookwerk runs',
        'hookwerk validate',
      ])
        expect(answer('claude', await hook('claude', claudeBash(command))).decision, command).toBe('none');
      const read = claude('Read', { file_path: path.join(w.home, '.claude', 'settings.json') });
      expect(answer('claude', await hook('claude', read)).decision).toBe('none');
    },
    SLOW,
  );
});

describe('[T-SELF-1] a user policy cannot turn self-protect off', () => {
  it(
    '"self-protect": false in the user policy is ignored: validate warns, the hook still denies',
    async () => {
      const home = path.join(tempDir('hw-selfoff-'), 'home');
      mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
      const policy = path.join(home, '.hookwerk', 'policy.json');
      writeFileSync(policy, JSON.stringify({ guards: { 'self-protect': false, publish: true } }));
      const validate = await runCli(['validate', '--dialect', 'policy'], { home, cwd: w.project });
      expect(validate.stdout + validate.stderr).toContain(
        '"self-protect": false is ignored: only a managed policy turns this guard off',
      );
      const got = answer('claude', await hook('claude', claudeBash(`echo '{}' > ${policy}`), home));
      expect(got.decision).toBe('deny');
      expect(got.reason).toContain('hookwerk: guards.self-protect: ');
      expect(got.reason).toContain(
        '("self-protect": false in ~/.hookwerk/policy.json is ignored: only a managed policy turns it off)',
      );
    },
    SLOW,
  );
});
