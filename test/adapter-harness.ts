/**
 * What the three adapter tests share (AD-AI-1, AD-CAS-1, AD-OAI-1): a temp project whose
 * `.claude/settings.json` holds a real guard script (run as a process, as Claude Code would), an
 * engine in the claude dialect over it with a temp HOME, and the observe events it emitted; and a
 * project and HOME with hookwerk policy files, under an engine of the policy dialect [G-PERM-1].
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { z } from 'zod';
import { trustCommand } from '../src/cli/trust.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeScript } from './helpers.ts';

export const DENY_REASON = 'no rm -rf here';
export const WITHHELD_REASON = 'the output holds a secret';
export const STOP_REASON = 'stopped by the policy';

/**
 * The PreToolUse guard, by the command in the tool's arguments: `rm -rf` is denied, `rewrite-me`
 * is rewritten to `echo rewritten`, `bad-rewrite` to a number (no tool's schema takes it),
 * `stop-me` stops the agent; anything else gets no opinion. Every input is logged.
 */
const GUARD = `input=$(cat)
printf '%s\\n' "$input" >> "$(dirname "$0")/pre.log"
case "$input" in
  *'rm -rf'*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"${DENY_REASON}"}}' ;;
  *rewrite-me*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten"}}}' ;;
  *bad-rewrite*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":42}}}' ;;
  *stop-me*) printf '%s' '{"continue":false,"stopReason":"${STOP_REASON}"}' ;;
esac`;

/** PostToolUse: logs; an output with SECRET in it is blocked (withheld from the model). */
const AFTER = `input=$(cat)
printf '%s\\n' "$input" >> "$(dirname "$0")/post.log"
case "$input" in
  *SECRET*) printf '%s' '{"decision":"block","reason":"${WITHHELD_REASON}"}' ;;
esac`;

/** SessionStart: a variable for the session, through CLAUDE_ENV_FILE [C-RUN-3]. */
const SESSION = `cat > /dev/null
echo 'export GREETING="hello from the hook"' >> "$CLAUDE_ENV_FILE"`;

export interface GuardedProject {
  project: string;
  home: string;
  engine: HookEngine;
  /** The inputs the PreToolUse / PostToolUse hooks got, parsed. */
  preInputs(): Record<string, unknown>[];
  postInputs(): Record<string, unknown>[];
}

const jsonObject = z.record(z.string(), z.unknown());

function readLog(file: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => jsonObject.parse(JSON.parse(l)));
}

/** A project guarded by the scripts above, and a claude-dialect engine over it (closed after the test). */
export async function guardedProject(opts: { sessionStart?: boolean } = {}): Promise<GuardedProject> {
  const project = realpathSync(tempDir('hw-adapter-'));
  const home = realpathSync(tempDir('hw-adapter-home-'));
  const hooksDir = path.join(project, '.claude', 'hooks');
  const guard = writeScript(hooksDir, 'guard.sh', GUARD);
  const after = writeScript(hooksDir, 'after.sh', AFTER);
  const hooks: Record<string, unknown> = {
    PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: guard }] }],
    PostToolUse: [{ hooks: [{ type: 'command', command: after }] }],
  };
  if (opts.sessionStart === true) {
    const session = writeScript(hooksDir, 'session.sh', SESSION);
    hooks.SessionStart = [{ hooks: [{ type: 'command', command: session }] }];
  }
  writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ hooks }, null, 2));
  const engine = await makeEngine(undefined, {
    projectDir: project,
    home,
    gateDialect: 'claude',
    claude: { managedSettings: path.join(home, 'managed-settings.json') },
    trust: () => ({ trusted: true, reason: 'test' }),
  });
  return {
    project,
    home,
    engine,
    preInputs: () => readLog(path.join(hooksDir, 'pre.log')),
    postInputs: () => readLog(path.join(hooksDir, 'post.log')),
  };
}

const envelope = z.object({
  event: z.string(),
  session_id: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type ObservedEvent = z.infer<typeof envelope>;

/** Every observe event the engine emits from now on, in order (read after `engine.drain()`). */
export function observeEvents(engine: HookEngine): ObservedEvent[] {
  const seen: ObservedEvent[] = [];
  engine.bus.subscribe('prx.lifecycle.*', (msg) => {
    seen.push(envelope.parse(msg.payload));
  });
  return seen;
}

/** The user policy's rule, and its reason as the agent (and the model) reads it. */
export const USER_RULE = 'Bash(rm -rf *)';
export const USER_REASON = `~/.hookwerk/policy.json: permissions.deny: ${USER_RULE}`;

export interface PolicyProject {
  project: string;
  home: string;
  engine: HookEngine;
  /** What the project policy's deny of the tool `deploy` answers. */
  projectReason: string;
}

/**
 * [G-PERM-1] `~/.hookwerk/policy.json` denying `Bash(rm -rf *)`, and a project policy (approved as
 * a user does, with `hookwerk trust --yes`) denying the tool `deploy`; an engine made as an adapter
 * user makes it: `gateDialect: 'policy'` with the project and home, nothing else.
 */
export async function policyProject(): Promise<PolicyProject> {
  const project = realpathSync(tempDir('hw-adapter-policy-'));
  const home = realpathSync(tempDir('hw-adapter-policy-home-'));
  const write = (dir: string, policy: object) => {
    const file = path.join(dir, '.hookwerk', 'policy.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(policy));
    return file;
  };
  write(home, { permissions: { deny: [USER_RULE] } });
  const projectFile = write(project, { permissions: { deny: ['deploy'] } });
  const said: string[] = [];
  const io = { out: (l: string) => said.push(l), err: (l: string) => said.push(l), ask: async () => false };
  expect(await trustCommand({ project, home, yes: true }, io), said.join('\n')).toBe(0);
  const engine = await makeEngine(undefined, { projectDir: project, home, gateDialect: 'policy' });
  return { project, home, engine, projectReason: `${projectFile}: permissions.deny: deploy` };
}
