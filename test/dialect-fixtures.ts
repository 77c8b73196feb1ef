/**
 * The per-dialect facts the shared dialect suite (dialect-suite.test.ts) needs, one small object per
 * entry of the tables (issue 31): where the dialect's files are, how a hook and a tool call look in
 * its own shape, its timeout unit and its fail-closed switch. Everything else the suite asserts is
 * the same for every dialect; what is not is named in SKIPS with the reason.
 */
import path from 'node:path';
import type { GateDialect } from '../src/dialects/gate-dialects.ts';
import type { HookAgentName } from '../src/dialects/hook-agents.ts';
import type { HookEngineOptions } from '../src/engine-api.ts';

export type Input = Record<string, unknown>;
/** One command hook: its shell command and the dialect's own extra fields (timeout, fail mode). */
export interface Hook {
  command: string;
  extra?: Record<string, unknown>;
}

export interface Place {
  project: string;
  home: string;
  /** A folder of the test's for the dialect's system-wide files (never the real /etc). */
  system: string;
}

export interface GateFixture {
  /** The event before a tool runs. */
  pre: string;
  /** A tool call in the dialect's own input shape. */
  call(tool: string, command: string): Input;
  /** The shell tool's name in that shape, and another tool the shell matcher does not select. */
  shellTool: string;
  otherTool: string;
  /** A matcher that selects the shell tool only. */
  matcher: string;
  /** The project's hook file (relative to the project) and the user's (relative to home). */
  projectFile: string;
  userFile: string;
  /** The file's content holding `hooks` on `pre` under `matcher`. */
  file(hooks: readonly Hook[], matcher: string): unknown;
  /**
   * The hook fields of a 1 s timeout in the dialect's unit, and that timeout in ms: long enough for
   * a loaded machine to start the hook's shell and its child before the timeout stops them.
   */
  timeout: Record<string, unknown>;
  timeoutMs: number;
  /** The hook fields that make a failed hook deny. */
  closed: Record<string, unknown>;
  /** What a failed-closed denial's reason says, and the outcome its record gives. */
  closedReason: RegExp;
  closedOutcome: 'timeout' | 'deny';
  /** `hookwerk decide` takes the input as `--context JSON` (Lurus), not on stdin. */
  contextFlag?: true;
  /** The reason the agent gives for a guard that exits 2 with `stderr` on its stderr. */
  exit2Reason(stderr: string): string;
  /** A command printing the dialect's "no objection" answer. */
  allow: string;
  /** A command printing the dialect's deny answer (read only when the hook ends in time). */
  printedDeny: string;
  /** The hook field holding the timeout, and its JSON path in the project file (for validate). */
  timeoutPath: { field: string; path: string };
  /** A broken (not JSON) user file: skipped and named, or (a strict policy file) the gate denies [G-FAIL-1]. */
  brokenFile: 'skipped' | 'denies';
  /** The start of the one-line error for an event the dialect does not have. */
  unknownEvent: string;
  /** The engine's options for this dialect over `p`. */
  options(p: Place): HookEngineOptions;
  /** Extra environment of the CLI for this dialect. */
  cliEnv(p: Place): Record<string, string>;
}

const sh = (h: Hook) => ({ type: 'command', command: h.command, ...h.extra });
/** Claude Code's settings shape, which Gemini CLI, Codex and hookwerk's policy share. */
const claudeShape = (event: string) => (hooks: readonly Hook[], matcher: string) => ({
  hooks: { [event]: [{ matcher, hooks: hooks.map(sh) }] },
});
const claudeDeny = (event: string) =>
  `printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: 'printed' } })}'`;
const snakeCall = (tool: string, command: string): Input => ({ tool_name: tool, tool_input: { command } });
const asIs = (stderr: string) => stderr;
const withHome = (p: Place): NodeJS.ProcessEnv => ({ ...process.env, HOME: p.home });

export const GATE_FIXTURES: Record<GateDialect, GateFixture> = {
  lurus: {
    pre: 'PreToolUse',
    call: (tool, command) => ({ toolName: tool, toolInput: { command } }),
    shellTool: 'Bash',
    otherTool: 'Write',
    matcher: '^Bash$',
    projectFile: '.lurus/hooks.json',
    userFile: '.lurus/hooks.json',
    file: (hooks, matcher) => ({ PreToolUse: [{ matcher, hooks: hooks.map(sh) }] }),
    timeout: { timeout: 1000 },
    timeoutMs: 1000,
    closed: { failMode: 'closed' },
    closedReason: /^timed out; process group stopped$/,
    closedOutcome: 'timeout',
    contextFlag: true,
    exit2Reason: asIs,
    allow: `echo '{"decision":"allow"}'`,
    printedDeny: `echo '{"decision":"deny","reason":"printed"}'`,
    timeoutPath: { field: 'timeout', path: '$.PreToolUse[0].hooks[0].timeout' },
    brokenFile: 'skipped',
    unknownEvent: 'event "NoSuchEvent"; expected one of SessionStart,',
    options: (p) => ({ projectDir: p.project, home: p.home, env: withHome(p) }),
    cliEnv: () => ({}),
  },
  claude: {
    pre: 'PreToolUse',
    call: snakeCall,
    shellTool: 'Bash',
    otherTool: 'Write',
    matcher: 'Bash',
    projectFile: '.claude/settings.json',
    userFile: '.claude/settings.json',
    file: claudeShape('PreToolUse'),
    timeout: { timeout: 1 },
    timeoutMs: 1000,
    closed: { failMode: 'closed' },
    closedReason: /failMode "closed" blocks/,
    closedOutcome: 'timeout',
    exit2Reason: asIs,
    allow: 'exit 0',
    printedDeny: claudeDeny('PreToolUse'),
    timeoutPath: { field: 'timeout', path: '$.hooks.PreToolUse[0].hooks[0].timeout' },
    brokenFile: 'skipped',
    unknownEvent: '',
    options: (p) => ({
      projectDir: p.project,
      home: p.home,
      env: withHome(p),
      gateDialect: 'claude',
      claude: { managedSettings: path.join(p.system, 'managed-settings.json'), plugins: [] },
    }),
    cliEnv: () => ({}),
  },
  gemini: {
    pre: 'BeforeTool',
    call: snakeCall,
    shellTool: 'run_shell_command',
    otherTool: 'write_file',
    matcher: 'run_shell_command',
    projectFile: '.gemini/settings.json',
    userFile: '.gemini/settings.json',
    file: claudeShape('BeforeTool'),
    timeout: { timeout: 1000 },
    timeoutMs: 1000,
    closed: { failMode: 'closed' },
    closedReason: /^timed out; process group stopped$/,
    closedOutcome: 'timeout',
    exit2Reason: asIs,
    allow: 'exit 0',
    printedDeny: `echo '{"decision":"deny","reason":"printed"}'`,
    timeoutPath: { field: 'timeout', path: '$.hooks.BeforeTool[0].hooks[0].timeout' },
    brokenFile: 'skipped',
    unknownEvent: 'unknown Gemini CLI event "NoSuchEvent"; expected one of BeforeTool,',
    options: (p) => ({
      projectDir: p.project,
      home: p.home,
      env: withHome(p),
      gateDialect: 'gemini',
      gemini: { systemSettings: path.join(p.system, 'gemini-settings.json') },
    }),
    cliEnv: () => ({}),
  },
  copilot: {
    pre: 'preToolUse',
    call: (tool, command) => ({ toolName: tool, toolArgs: { command, description: command } }),
    shellTool: 'bash',
    otherTool: 'view',
    matcher: 'bash',
    projectFile: '.github/hooks/hooks.json',
    userFile: '.copilot/hooks/hooks.json',
    file: (hooks, matcher) => ({
      version: 1,
      hooks: { preToolUse: hooks.map((h) => ({ type: 'command', bash: h.command, matcher, ...h.extra })) },
    }),
    timeout: { timeoutSec: 1 },
    timeoutMs: 1000,
    closed: { failMode: 'closed' },
    closedReason: /^preToolUse hook errored \(timed out/,
    // [A-COP-1] Its record reads the failed-closed timeout as the deny it becomes.
    closedOutcome: 'deny',
    // [A-COP-1] Copilot CLI reads neither stream of an exit 2: the reason is fixed.
    exit2Reason: () => 'hook exited with code 2',
    allow: 'exit 0',
    printedDeny: `echo '{"permissionDecision":"deny","permissionDecisionReason":"printed"}'`,
    timeoutPath: { field: 'timeoutSec', path: '$.hooks.preToolUse[0].timeoutSec' },
    brokenFile: 'skipped',
    unknownEvent: 'unknown Copilot CLI event "NoSuchEvent"; expected one of sessionStart,',
    options: (p) => ({
      projectDir: p.project,
      home: p.home,
      env: withHome(p),
      gateDialect: 'copilot',
      copilot: {
        policyDir: path.join(p.system, 'copilot-policy'),
        copilotHome: path.join(p.home, '.copilot'),
      },
    }),
    cliEnv: (p) => ({ COPILOT_HOME: path.join(p.home, '.copilot') }),
  },
  cursor: {
    pre: 'preToolUse',
    call: (tool, command) => ({ tool_name: tool, tool_input: { command } }),
    shellTool: 'Shell',
    otherTool: 'Write',
    matcher: 'Shell',
    projectFile: '.cursor/hooks.json',
    userFile: '.cursor/hooks.json',
    file: (hooks, matcher) => ({
      version: 1,
      hooks: { preToolUse: hooks.map((h) => ({ command: h.command, matcher, ...h.extra })) },
    }),
    timeout: { timeout: 1 },
    timeoutMs: 1000,
    closed: { failClosed: true },
    closedReason: /failClosed/,
    closedOutcome: 'timeout',
    exit2Reason: asIs,
    // [A-CUR-1] On preToolUse an empty stdout blocks: "no objection" is `{}`.
    allow: `echo '{}'`,
    printedDeny: `echo '{"permission":"deny","agent_message":"printed"}'`,
    timeoutPath: { field: 'timeout', path: '$.hooks.preToolUse[0].timeout' },
    brokenFile: 'skipped',
    unknownEvent: 'unknown Cursor hook event "NoSuchEvent"; expected one of sessionStart,',
    options: (p) => ({
      projectDir: p.project,
      home: p.home,
      env: withHome(p),
      gateDialect: 'cursor',
      cursor: { enterpriseFile: path.join(p.system, 'cursor-hooks.json') },
    }),
    cliEnv: () => ({}),
  },
  codex: {
    pre: 'PreToolUse',
    call: snakeCall,
    shellTool: 'Bash',
    otherTool: 'Write',
    matcher: 'Bash',
    projectFile: '.codex/hooks.json',
    userFile: '.codex/hooks.json',
    file: claudeShape('PreToolUse'),
    timeout: { timeout: 1 },
    timeoutMs: 1000,
    closed: { failMode: 'closed' },
    closedReason: /failMode "closed" blocks/,
    closedOutcome: 'timeout',
    exit2Reason: asIs,
    allow: 'exit 0',
    printedDeny: claudeDeny('PreToolUse'),
    timeoutPath: { field: 'timeout', path: '$.hooks.PreToolUse[0].hooks[0].timeout' },
    brokenFile: 'skipped',
    unknownEvent: 'unknown Codex CLI event "NoSuchEvent"; expected one of SessionStart,',
    options: (p) => ({ projectDir: p.project, home: p.home, env: withHome(p), gateDialect: 'codex' }),
    cliEnv: () => ({}),
  },
  policy: {
    pre: 'PreToolUse',
    call: snakeCall,
    shellTool: 'Bash',
    otherTool: 'Write',
    matcher: 'Bash',
    projectFile: '.hookwerk/policy.json',
    userFile: '.hookwerk/policy.json',
    file: claudeShape('PreToolUse'),
    timeout: { timeout: 1 },
    timeoutMs: 1000,
    closed: { failMode: 'closed' },
    closedReason: /failMode "closed" blocks/,
    closedOutcome: 'timeout',
    exit2Reason: asIs,
    allow: 'exit 0',
    printedDeny: claudeDeny('PreToolUse'),
    timeoutPath: { field: 'timeout', path: '$.hooks.PreToolUse[0].hooks[0].timeout' },
    brokenFile: 'denies',
    unknownEvent: '',
    options: (p) => ({
      projectDir: p.project,
      home: p.home,
      env: withHome(p),
      gateDialect: 'policy',
      policy: {},
    }),
    cliEnv: () => ({}),
  },
};

/** The shared cases, by the names SKIPS uses. */
export const GATE_CASES = [
  'guard',
  'matcher',
  'timeout',
  'fail-closed',
  'invalid config',
  'unknown event',
  'consent',
  'explain',
] as const;
export type GateCase = (typeof GATE_CASES)[number];

/** What a dialect does not have, and why: each is listed by the suite as a test of its own. */
export const SKIPS: ReadonlyArray<{ dialect: GateDialect; case: GateCase; because: string }> = [
  {
    dialect: 'claude',
    case: 'unknown event',
    because: 'Claude Code runs no hooks for an event it does not know and never refuses one [C-EV-1]',
  },
  {
    dialect: 'policy',
    case: 'unknown event',
    because:
      "the policy speaks Claude Code's events, with Claude Code's leniency for new ones [R-POL-1, C-EV-1]",
  },
];

/** An agent `hookwerk hook --agent NAME` answers: one tool call in its own input shape. */
export interface HookFixture {
  call(command: string): Input;
}

export const HOOK_FIXTURES: Record<HookAgentName, HookFixture> = {
  claude: { call: (command) => snakeCall('Bash', command) },
  gemini: { call: (command) => snakeCall('run_shell_command', command) },
  codex: { call: (command) => ({ ...snakeCall('Bash', command), turn_id: 't1', tool_use_id: 'u1' }) },
  copilot: { call: (command) => ({ toolName: 'bash', toolArgs: { command, description: 'run it' } }) },
  cursor: { call: (command) => ({ ...snakeCall('Shell', command), tool_use_id: 'u1' }) },
};
