/**
 * Running one Claude Code [§5] or Gemini CLI [§6] hook: the input object on stdin (or as the HTTP
 * body), the environment those tools give (plus `CLAUDE_ENV_FILE`, plugin folders, Gemini's
 * variables), and the answer read by the dialect's own rules. The runners run; this file only
 * builds the request and reads the answer.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readSourceFile } from '../../core/read-source.ts';
import type { AgentAnswer, AgentRun } from '../../dispatch/agent-answer.ts';
import type { GateRunContext } from '../../dispatch/gate-parallel.ts';
import { readAnswer } from '../../dispatch/hook-verdict.ts';
import { runFolderOf } from '../../dispatch/run-folder.ts';
import type { LurusContext } from '../../events/lurus-events.ts';
import type {
  AgentCommandHook,
  AgentExternalHook,
  InProcessGateHook,
} from '../../registry/hook-definition.ts';
import { HookCallInfo, runInProcess } from '../../runners/in-process-runner.ts';
import type { ProcessSpec } from '../../runners/process-types.ts';
import { withinDeadline } from '../../runners/run-budget.ts';
import { readClaudeAnswer } from './claude-answer.ts';
import type { AgentProtocol } from './protocol.ts';

/**
 * Runs one hook for one event with `input` (already filled in [C-IN-1]); `signal` (the decide's)
 * stops it [AD-ALL-1]; it has ended by `deadline`, the decide's budget [G-FAIL-4]. Never rejects.
 */
export async function runAgentHook(
  hook: AgentExternalHook,
  event: string,
  input: Record<string, unknown>,
  ctx: Pick<GateRunContext, 'runners' | 'tmpDir'>,
  protocol: AgentProtocol,
  signal?: AbortSignal,
  deadline?: number,
): Promise<AgentRun> {
  const opts = signal === undefined ? undefined : { signal };
  const budget = withinDeadline(hook.timeoutMs, deadline);
  if (hook.kind === 'http') {
    const result = await ctx.runners.http.run(
      {
        url: hook.url,
        method: 'POST',
        headers: hook.headers,
        body: inputText(input),
        timeoutMs: budget.timeoutMs,
        ...(hook.allowLinkLocal === true ? { allowLinkLocal: true } : {}),
      },
      opts,
    );
    return { answer: protocol.readAnswer(event, result, hook.failMode, { hook, input }) };
  }
  const envFile = protocol.envFile(event) ? newEnvFile(ctx.tmpDir.path()) : undefined;
  try {
    const result = await ctx.runners.process.run(
      Object.assign(processSpec(hook, input, protocol, envFile), budget),
      opts,
    );
    const run: AgentRun = { answer: protocol.readAnswer(event, result, hook.failMode, { hook, input }) };
    if (envFile !== undefined) {
      const env = readEnvFile(envFile);
      if (env !== undefined) run.env = env;
    }
    return run;
  } finally {
    if (envFile !== undefined) removeQuietly(envFile);
  }
}

/**
 * The input as its hooks get it, written once per decide, not once per hook (issue 19): the gate
 * hands every hook of one event the same object, and never changes it (a sequential run folds an
 * answer into a new one).
 */
const inputTexts = new WeakMap<Record<string, unknown>, string>();

function inputText(input: Record<string, unknown>): string {
  let text = inputTexts.get(input);
  if (text === undefined) {
    text = JSON.stringify(input);
    inputTexts.set(input, text);
  }
  return text;
}

/** [C-RUN-1, C-RUN-3, G-RUN-1] The process request for one run. */
function processSpec(
  hook: AgentCommandHook,
  input: Record<string, unknown>,
  protocol: AgentProtocol,
  envFile?: string,
): ProcessSpec {
  const env: Record<string, string> = { ...hook.env };
  const cwd = runFolderOf(hook, input);
  if (hook.pluginRoot !== undefined) env.CLAUDE_PLUGIN_ROOT = hook.pluginRoot;
  if (hook.pluginData !== undefined) {
    // Created on demand, private: a plugin keeps its state there across sessions.
    mkdirSync(hook.pluginData, { recursive: true, mode: 0o700 });
    env.CLAUDE_PLUGIN_DATA = hook.pluginData;
  }
  if (envFile !== undefined) env.CLAUDE_ENV_FILE = envFile;
  const command = protocol.prepare(hook, input, env, cwd);
  const spec: ProcessSpec =
    hook.exec !== undefined
      ? { command: hook.exec.program, args: hook.exec.args, env, cwd, timeoutMs: hook.timeoutMs }
      : {
          command: hook.shell,
          args: [...(hook.shellArgs ?? ['-c']), command],
          env,
          cwd,
          timeoutMs: hook.timeoutMs,
        };
  spec.stdin = `${inputText(input)}\n`;
  if (hook.keepChildren === true) spec.keepChildren = true;
  return spec;
}

/**
 * An in-process hook (`use()`) in an agent dialect: its allow/deny answer, and its failures read
 * as Claude Code reads a hook's (Claude's contract is what these agents share).
 */
export async function runInProcessAgentHook(
  hook: InProcessGateHook,
  input: Record<string, unknown>,
  cwd: string,
  signal?: AbortSignal,
  deadline?: number,
): Promise<AgentAnswer> {
  const info = Object.assign(new HookCallInfo(), { event: hook.event, cwd });
  const context: LurusContext = { ...input };
  const timeoutMs = withinDeadline(hook.timeoutMs, deadline).timeoutMs;
  const r = await runInProcess(hook.fn, context, info, timeoutMs, undefined, signal);
  const base = { outcome: 'ok' as const, durationMs: r.durationMs };
  if (r.reason !== 'returned') {
    return readClaudeAnswer(hook.event, r, hook.failMode);
  }
  if (r.value === undefined) return { ending: base };
  const answer = readAnswer(r.value);
  if ('invalid' in answer) return readClaudeAnswer(hook.event, r, hook.failMode);
  const out: AgentAnswer = { ending: { ...base, outcome: answer.decision === 'deny' ? 'deny' : 'ok' } };
  if (answer.decision === 'deny') {
    out.block = true;
    out.permission = 'deny';
    out.reason = answer.reason ?? 'denied';
    out.ending.reason = out.reason;
  }
  if (answer.additionalContext !== undefined) out.additionalContext = answer.additionalContext;
  return out;
}

function newEnvFile(dir: string): string {
  const file = path.join(dir, `claude-env-${randomBytes(6).toString('hex')}`);
  writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
  return file;
}

/**
 * [C-RUN-3] `export NAME=VALUE` lines a hook wrote to its `CLAUDE_ENV_FILE`: NAME → VALUE in file
 * order, later lines win, one pair of surrounding quotes removed. Read bounded (1 MiB).
 */
function readEnvFile(file: string): Record<string, string> | undefined {
  const read = readSourceFile(file, 1024 * 1024);
  if (read.kind !== 'text') return undefined;
  return parseEnvLines(read.text);
}

function parseEnvLines(text: string): Record<string, string> | undefined {
  const env: Record<string, string> = {};
  let any = false;
  for (const line of text.split('\n')) {
    const m = /^\s*export\s+([A-Za-z_][A-Za-z0-9_]*)=(.*?)\s*$/.exec(line);
    if (m === null) continue;
    const name = m[1] ?? '';
    let value = m[2] ?? '';
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]))
      value = value.slice(1, -1);
    env[name] = value;
    any = true;
  }
  return any ? env : undefined;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
