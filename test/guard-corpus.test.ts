/**
 * [G-TEST-2, G-LIB-1, R-HOOK-1, R-MAP-1] Every shipped guard's corpus (`test/corpus/<guard>.json`),
 * each case run through the real decision path of `hookwerk hook --agent A` — `answerHookArgs`,
 * the fast path's policy index, the daemon's warm decider and engine — in every agent's own input
 * shape where the tool exists, on a real temp project, home and temp folder with a user policy that
 * turns on only that guard (with the corpus's `options`). Each answer is read back in the agent's
 * own protocol: a `stop` case must be denied (asked where the guard asks and the agent can ask;
 * denied where it cannot, R-HOOK-1), a `pass` case must get no objection.
 *
 * A corpus: `{"guard": NAME, "options"?: {…}, "world"?: {…}, "stop": [case…], "pass": [case…]}`.
 * A case is `{"command": "a shell line", "cwd"?: "relative/to/the/project", "decision"?: "ask"}`
 * or `{"tool": "Read"|"Write"|"Edit"|…, "input": {…Claude-shaped…}}` (also `read_many_files`
 * (Gemini), `view` (Copilot), `apply_patch` (Codex), `Delete` (Cursor) for one agent's own tool). In tool inputs
 * `$PROJECT`, `$HOME` and `$TMP` stand for the project, the home and the temp folder; in commands
 * `$PROJECT` and `$TMP` do (not followed by a name character), and `$HOME` is the shell's, which
 * the action view expands. The world every corpus runs in: the project holds `src/`, `build/`,
 * `dist/`, `node_modules/`, `sub/`, `packages/a/`, `.git/HEAD`, `README.md`, `package.json`,
 * `.env`, `.env.example`, and the symlinks `to-home` (→ the home) and `to-tmp` (→ the temp folder);
 * the home holds `.ssh/id_rsa`, `.ssh/id_rsa.pub`, `.aws/credentials`, `Documents/`; a corpus's
 * `world` adds `dirs`, `files` ({path: text}) and `links` ({path: target}), paths relative to the
 * project unless they start with a placeholder.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerHookArgs } from '../src/cli/hook.ts';
import { GUARD_TABLE } from '../src/guards/guard-table.ts';
import { WarmDecider } from '../src/hook/warm-decider.ts';
import { cleanEnv, REPO, runCli } from './cli-runner.ts';

const CASE = z.union([
  z.object({
    command: z.string(),
    cwd: z.string().optional(),
    decision: z.enum(['deny', 'ask']).optional(),
  }),
  z.object({
    tool: z.string(),
    input: z.record(z.string(), z.unknown()),
    decision: z.enum(['deny', 'ask']).optional(),
  }),
]);
type Case = z.infer<typeof CASE>;

const CORPUS = z.object({
  guard: z.string(),
  options: z.record(z.string(), z.unknown()).optional(),
  world: z
    .object({
      dirs: z.array(z.string()).optional(),
      files: z.record(z.string(), z.string()).optional(),
      links: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  stop: z.array(CASE),
  pass: z.array(CASE),
});
type Corpus = z.infer<typeof CORPUS>;

const DIR = path.join(REPO, 'test', 'corpus');
const corpora = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ file: f, corpus: CORPUS.parse(JSON.parse(readFileSync(path.join(DIR, f), 'utf8'))) }));

type Agent = 'claude' | 'gemini' | 'codex' | 'copilot' | 'cursor';
type Answer = 'deny' | 'ask' | 'allow' | 'none';

interface World {
  readonly root: string;
  readonly project: string;
  readonly home: string;
  readonly tmp: string;
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function placeholders(text: string, w: World, inCommand: boolean): string {
  const out = text.replace(/\$PROJECT(?![A-Za-z0-9_])/g, w.project).replace(/\$TMP(?![A-Za-z0-9_])/g, w.tmp);
  return inCommand ? out : out.replace(/\$HOME(?![A-Za-z0-9_])/g, w.home);
}

function deep(value: unknown, w: World): unknown {
  if (typeof value === 'string') return placeholders(value, w, false);
  if (Array.isArray(value)) return value.map((v) => deep(v, w));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v, w)]));
  return value;
}

function makeWorld(corpus: Corpus): World {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hw-corpus-')));
  roots.push(root);
  const w = {
    root,
    project: path.join(root, 'project'),
    home: path.join(root, 'home'),
    tmp: path.join(root, 'tmp'),
  };
  for (const d of ['src', 'build', 'dist', 'node_modules', 'sub', 'packages/a', '.git'])
    mkdirSync(path.join(w.project, d), { recursive: true });
  for (const d of ['.ssh', '.aws', 'Documents', '.hookwerk'])
    mkdirSync(path.join(w.home, d), { recursive: true });
  mkdirSync(w.tmp);
  const files: Record<string, string> = {
    [`${w.project}/.git/HEAD`]: 'ref: refs/heads/main\n',
    [`${w.project}/README.md`]: '# app\n',
    [`${w.project}/package.json`]: '{"name":"app"}\n',
    [`${w.project}/.env`]: 'SECRET=1\n',
    [`${w.project}/.env.example`]: 'SECRET=\n',
    [`${w.home}/.ssh/id_rsa`]: 'KEY\n',
    [`${w.home}/.ssh/id_rsa.pub`]: 'ssh-rsa AAAA\n',
    [`${w.home}/.aws/credentials`]: '[default]\n',
  };
  const at = (p: string) => {
    const t = placeholders(p, w, false);
    return path.isAbsolute(t) ? t : path.join(w.project, t);
  };
  for (const d of corpus.world?.dirs ?? []) mkdirSync(at(d), { recursive: true });
  for (const [p, text] of Object.entries(corpus.world?.files ?? {})) files[at(p)] = text;
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  symlinkSync(w.home, path.join(w.project, 'to-home'));
  symlinkSync(w.tmp, path.join(w.project, 'to-tmp'));
  for (const [p, target] of Object.entries(corpus.world?.links ?? {})) symlinkSync(at(target), at(p));
  const policy = { guards: { [corpus.guard]: corpus.options ?? true } };
  writeFileSync(path.join(w.home, '.hookwerk', 'policy.json'), JSON.stringify(policy));
  return w;
}

/** One agent's input shape: its hook arguments, the input of a case (undefined: no such tool there), and whether it can ask. */
interface Shape {
  readonly agent: Agent;
  readonly label: string;
  readonly event?: string;
  /** The agent enforces `ask` in this shape (else an ask is a deny, R-HOOK-1). */
  readonly asks: boolean;
  shell(command: string, cwd: string, w: World): Record<string, unknown>;
  tool(tool: string, input: Record<string, unknown>, w: World): Record<string, unknown> | undefined;
}

const claudeLike = (event: string, extra: Record<string, unknown> = {}) => ({
  shell: (command: string, cwd: string) => ({
    hook_event_name: event,
    session_id: 's',
    cwd,
    tool_name: 'Bash',
    tool_input: { command },
    ...extra,
  }),
});

/** A Codex patch for a Write or an Edit. */
function patchOf(tool: string, input: Record<string, unknown>): string | undefined {
  const file = input.file_path;
  if (typeof file !== 'string') return undefined;
  if (tool === 'Write') {
    const lines = String(input.content ?? '')
      .split('\n')
      .map((l) => `+${l}`);
    return `*** Begin Patch\n*** Add File: ${file}\n${lines.join('\n')}\n*** End Patch`;
  }
  if (tool === 'Edit')
    return `*** Begin Patch\n*** Update File: ${file}\n@@\n-${String(input.old_string ?? '')}\n+${String(input.new_string ?? '')}\n*** End Patch`;
  return undefined;
}

const SHAPES: readonly Shape[] = [
  {
    agent: 'claude',
    label: 'claude',
    asks: true,
    ...claudeLike('PreToolUse'),
    tool: (tool, input, w) =>
      ['read_many_files', 'view', 'apply_patch', 'Delete'].includes(tool)
        ? undefined
        : {
            hook_event_name: 'PreToolUse',
            session_id: 's',
            cwd: w.project,
            tool_name: tool,
            tool_input: input,
          },
  },
  {
    agent: 'gemini',
    label: 'gemini',
    asks: true,
    shell: (command, cwd) => ({
      hook_event_name: 'BeforeTool',
      session_id: 's',
      cwd,
      tool_name: 'run_shell_command',
      tool_input: { command },
    }),
    tool: (tool, input, w) => {
      const names: Record<string, string> = {
        Read: 'read_file',
        Write: 'write_file',
        Edit: 'replace',
        Glob: 'glob',
        Grep: 'grep_search',
        WebFetch: 'web_fetch',
        read_many_files: 'read_many_files',
      };
      const name = names[tool];
      return name === undefined
        ? undefined
        : {
            hook_event_name: 'BeforeTool',
            session_id: 's',
            cwd: w.project,
            tool_name: name,
            tool_input: input,
          };
    },
  },
  {
    agent: 'codex',
    label: 'codex',
    asks: false,
    ...claudeLike('PreToolUse', { turn_id: 't', tool_use_id: 'u' }),
    tool: (tool, input, w) => {
      const command = tool === 'apply_patch' ? input.command : patchOf(tool, input);
      return typeof command !== 'string'
        ? undefined
        : {
            hook_event_name: 'PreToolUse',
            session_id: 's',
            cwd: w.project,
            tool_name: 'apply_patch',
            tool_input: { command },
            turn_id: 't',
            tool_use_id: 'u',
          };
    },
  },
  {
    agent: 'copilot',
    label: 'copilot',
    event: 'preToolUse',
    asks: true,
    shell: (command, cwd) => ({
      sessionId: 's',
      cwd,
      toolName: 'bash',
      toolArgs: { command, description: 'x' },
    }),
    tool: (tool, input, w) => {
      const file = input.file_path;
      const call = (toolName: string, toolArgs: Record<string, unknown>) => ({
        sessionId: 's',
        cwd: w.project,
        toolName,
        toolArgs,
      });
      if (tool === 'view') return call('view', input);
      if (tool === 'Read') return call('view', { path: file });
      if (tool === 'Write') return call('create', { path: file, file_text: input.content });
      if (tool === 'Edit')
        return call('edit', { path: file, old_str: input.old_string, new_str: input.new_string });
      if (tool === 'Glob' || tool === 'Grep') return call(tool.toLowerCase(), input);
      return undefined;
    },
  },
  {
    agent: 'cursor',
    label: 'cursor (beforeShellExecution, beforeReadFile)',
    asks: true,
    shell: (command, cwd, w) => ({
      hook_event_name: 'beforeShellExecution',
      conversation_id: 's',
      workspace_roots: [w.project],
      command,
      cwd,
    }),
    tool: (tool, input, w) =>
      tool === 'Read'
        ? {
            hook_event_name: 'beforeReadFile',
            conversation_id: 's',
            workspace_roots: [w.project],
            file_path: input.file_path,
          }
        : undefined,
  },
  {
    agent: 'cursor',
    label: 'cursor (preToolUse)',
    asks: false,
    shell: (command, cwd, w) => ({
      hook_event_name: 'preToolUse',
      conversation_id: 's',
      workspace_roots: [w.project],
      cwd,
      tool_name: 'Shell',
      tool_input: { command },
    }),
    tool: (tool, input, w) =>
      ['Read', 'Write', 'Edit', 'Grep', 'Delete'].includes(tool)
        ? {
            hook_event_name: 'preToolUse',
            conversation_id: 's',
            workspace_roots: [w.project],
            cwd: w.project,
            tool_name: tool,
            tool_input: input,
          }
        : undefined,
  },
];

/** The agent's answer as the agent reads it, and the reason it is shown. */
function answerOf(agent: Agent, stdout: string): { answer: Answer; reason: string } {
  const out: unknown = stdout.trim() === '' ? {} : JSON.parse(stdout);
  const get = (o: unknown, ...keys: string[]): unknown =>
    keys.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? Reflect.get(v, k) : undefined), o);
  const [answer, reason] =
    agent === 'claude' || agent === 'codex'
      ? [
          get(out, 'hookSpecificOutput', 'permissionDecision'),
          get(out, 'hookSpecificOutput', 'permissionDecisionReason'),
        ]
      : agent === 'gemini'
        ? [get(out, 'decision'), get(out, 'reason')]
        : agent === 'copilot'
          ? [get(out, 'permissionDecision'), get(out, 'permissionDecisionReason')]
          : [get(out, 'permission'), get(out, 'agent_message')];
  const known: readonly Answer[] = ['deny', 'ask', 'allow'];
  const a = known.find((k) => k === answer) ?? 'none';
  return { answer: a, reason: typeof reason === 'string' ? reason : '' };
}

/** The input of `c` in `shape`, or undefined when the agent has no such tool. */
function inputOf(shape: Shape, c: Case, w: World): Record<string, unknown> | undefined {
  if ('command' in c) {
    const cwd = c.cwd === undefined ? w.project : path.join(w.project, c.cwd);
    return shape.shell(placeholders(c.command, w, true), cwd, w);
  }
  const input = deep(c.input, w);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return shape.tool(c.tool, Object.fromEntries(Object.entries(input)), w);
}

function label(c: Case): string {
  return 'command' in c
    ? `${c.command}${c.cwd !== undefined ? ` (in ${c.cwd})` : ''}`
    : `${c.tool} ${JSON.stringify(c.input)}`;
}

describe('[G-TEST-2] the corpora', () => {
  it('every shipped guard has a corpus of at least 40 stop and 40 pass cases, naming a shipped guard', () => {
    const names = corpora.map(({ corpus }) => corpus.guard);
    for (const guard of GUARD_TABLE) expect(names, `test/corpus/${guard.name}.json`).toContain(guard.name);
    for (const { file, corpus } of corpora) {
      expect(file).toBe(`${corpus.guard}.json`);
      expect(corpus.stop.length, `${file} stop`).toBeGreaterThanOrEqual(40);
      expect(corpus.pass.length, `${file} pass`).toBeGreaterThanOrEqual(40);
    }
  });
});

for (const { corpus } of corpora) {
  const guard = GUARD_TABLE.find((g) => g.name === corpus.guard);
  // A corpus of a guard this build does not ship is checked by the test above, not run.
  if (guard === undefined) continue;
  const configured = corpus.options?.decision;
  const decision = configured === 'ask' || configured === 'deny' ? configured : guard.defaultDecision;

  describe(`[G-TEST-2, G-LIB-1] ${corpus.guard}: ${corpus.stop.length} stop, ${corpus.pass.length} pass, through hookwerk hook`, () => {
    const world = makeWorld(corpus);
    const decider = new WarmDecider();
    afterAll(() => decider.close());
    const env = cleanEnv({ HOME: world.home, TMPDIR: world.tmp, CLAUDE_PROJECT_DIR: world.project });
    for (const key of ['GEMINI_PROJECT_DIR', 'COPILOT_PROJECT_DIR', 'CURSOR_PROJECT_DIR', 'HOOKWERK_DAEMON'])
      delete env[key];

    async function ask(shape: Shape, input: Record<string, unknown>) {
      const args = ['--agent', shape.agent, ...(shape.event !== undefined ? ['--event', shape.event] : [])];
      const reply = await answerHookArgs(
        args,
        { stdin: Buffer.from(JSON.stringify(input)), cwd: world.project, env },
        { decider, record: () => undefined },
      );
      expect(reply.exitCode, reply.stderr).toBe(0);
      return answerOf(shape.agent, reply.stdout);
    }

    for (const shape of SHAPES) {
      const stops = corpus.stop.filter((c) => inputOf(shape, c, world) !== undefined);
      const passes = corpus.pass.filter((c) => inputOf(shape, c, world) !== undefined);
      it(`[R-HOOK-1, R-MAP-1] ${shape.label}: ${stops.length} stopped, ${passes.length} let through`, async () => {
        // All cases at once: the engine decides each on its own (no case depends on another).
        const stopped = await Promise.all(
          stops.map(async (c) => {
            const input = inputOf(shape, c, world);
            if (input === undefined) return undefined;
            const want = (c.decision ?? decision) === 'ask' && shape.asks ? 'ask' : 'deny';
            const got = await ask(shape, input);
            if (got.answer !== want)
              return `stop ${label(c)}: expected ${want}, got ${got.answer} ${got.reason}`;
            if (!got.reason.includes(`guards.${corpus.guard}: `))
              return `stop ${label(c)}: the reason does not name the guard: ${got.reason}`;
            return undefined;
          }),
        );
        const passed = await Promise.all(
          passes.map(async (c) => {
            const input = inputOf(shape, c, world);
            if (input === undefined) return undefined;
            const got = await ask(shape, input);
            return got.answer === 'none'
              ? undefined
              : `pass ${label(c)}: expected no objection, got ${got.answer} ${got.reason}`;
          }),
        );
        const wrong = [...stopped, ...passed].filter((w) => w !== undefined);
        expect(wrong).toEqual([]);
      });
    }

    // [G-TEST-1] The same inputs as a team's test file, run by `hookwerk test` (a real process).
    it('[G-TEST-1] the corpus as a test file: hookwerk test passes it in the claude and gemini shapes', async () => {
      const cases = SHAPES.filter((sh) => sh.agent === 'claude' || sh.agent === 'gemini').flatMap((shape) => [
        ...corpus.stop.flatMap((c) => {
          const input = inputOf(shape, c, world);
          const want = (c.decision ?? decision) === 'ask' && shape.asks ? 'ask' : 'deny';
          return input === undefined
            ? []
            : [
                {
                  name: `${shape.label}: stop ${label(c)}`,
                  agent: shape.agent,
                  input,
                  expect: want,
                  by: `guards.${corpus.guard}`,
                },
              ];
        }),
        ...corpus.pass.flatMap((c) => {
          const input = inputOf(shape, c, world);
          return input === undefined
            ? []
            : [{ name: `${shape.label}: pass ${label(c)}`, agent: shape.agent, input, expect: 'none' }];
        }),
      ]);
      const file = path.join(world.root, `${corpus.guard}.test.json`);
      writeFileSync(
        file,
        JSON.stringify({ policy: path.join(world.home, '.hookwerk', 'policy.json'), cases }),
      );
      const r = await runCli(['test', file], {
        home: world.home,
        cwd: world.project,
        env: { TMPDIR: world.tmp },
      });
      expect(r.stdout).toBe(`${cases.length} passed, 0 failed\n`);
      expect(r.code).toBe(0);
    }, 120_000);
  });
}
