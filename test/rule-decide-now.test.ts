/**
 * [G-PERF-1] A gate whose selected hooks are all `rule` handlers is decided at once, beside the
 * permissions and guards, with no promise per rule — and with nothing observable changed [G-CEL-1,
 * G-CEL-2]: the same records (fields, order), the same merged answer (deny > ask > allow, the
 * reasons, the context), a failing rule still closed or open as its `failMode` says. The same
 * policy is decided three ways and compared field by field (all but the times): in this process
 * at once; in this process through the asynchronous gate (which a traced decide still takes, each
 * run a span, AD-OTEL-1); and by `hookwerk hook` through the daemon [R-HOOK-4], its records read
 * back from the journal [R-HOOK-3]. Real files, a real socket, a real client process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import { journalDir } from '../src/records/journal-segments.ts';
import { silentLogger } from '../src/records/logger.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { startCli } from './cli-process.ts';
import { BIN, cleanEnv, runProgram } from './cli-runner.ts';
import { openEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';

const rule = (when: string, extra: Record<string, unknown>) => ({ type: 'rule', when, ...extra });

/** Allowing, asking, denying, failing (open and closed), context-only and silent rules, and a permission rule. */
const POLICY = {
  permissions: { ask: ['Bash(npm publish *)'] },
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          rule('tool == "Bash"', { decision: 'allow', reason: 'a shell call' }),
          rule('input.command.contains("publish")', { decision: 'ask', reason: 'publishing?' }),
          rule('commands.exists(c, c.name == "git" && "force" in c.options)', {
            decision: 'deny',
            reason: 'no force push',
          }),
          // A missing key is an error [G-CEL-2]: open, it gives no opinion and is recorded.
          rule('input.missing == "x"', { decision: 'deny', reason: 'never', name: 'fails-open' }),
          // Errs only for `rm …`: closed, it denies then, with the cause.
          rule('input.command.startsWith("rm") && input.nope == 1', {
            decision: 'deny',
            reason: 'never either',
            failMode: 'closed',
            name: 'fails-closed',
          }),
          rule('true', { additionalContext: 'checked by rules' }),
          rule('input.command == "never run"', { decision: 'deny', reason: 'silent' }),
        ],
      },
    ],
  },
};

const COMMANDS = ['git push --force origin main', 'npm publish', 'npm test', 'rm -rf build'];

interface Setup {
  dir: string;
  home: string;
  project: string;
}

function setup(): Setup {
  const dir = tempDir('hw-rule-now-');
  const s = { dir, home: path.join(dir, 'home'), project: path.join(dir, 'project') };
  mkdirSync(path.join(s.home, '.hookwerk'), { recursive: true });
  mkdirSync(s.project, { recursive: true });
  writeFileSync(path.join(s.home, '.hookwerk', 'policy.json'), JSON.stringify(POLICY));
  return s;
}

/** The call as Claude Code sends it to `hookwerk hook`. */
function claudeInput(s: Setup, command: string) {
  return {
    hook_event_name: 'PreToolUse',
    session_id: 'sess-now',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command },
  };
}

function policyEngine(s: Setup) {
  return openEngine({
    projectDir: s.project,
    home: s.home,
    env: cleanEnv({ HOME: s.home }),
    gateDialect: 'policy',
    watch: false,
    plugins: false,
    logger: silentLogger,
  });
}

/** A record without its times (when it ran, how long it took): all the rest must be the same. */
function timeless(record: object): Record<string, unknown> {
  // `call`: the journal's first entry of a call also keeps the call, for `hookwerk test --record`.
  const times = new Set(['at', 'durationMs', 'call']);
  return Object.fromEntries(Object.entries(record).filter(([key]) => !times.has(key)));
}

/** The decision without its runs, as the agent reads it. */
function answerOf(d: AgentDecision): Omit<AgentDecision, 'runs'> {
  const { runs: _runs, ...rest } = d;
  return rest;
}

let provider: BasicTracerProvider | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await provider?.shutdown();
  provider = undefined;
  trace.disable();
});

/** Decides every command in this process, optionally traced (then the asynchronous gate runs). */
async function decideAll(s: Setup, traced: boolean): Promise<AgentDecision[]> {
  if (traced) {
    provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())],
    });
    trace.setGlobalTracerProvider(provider);
  }
  const engine = await policyEngine(s);
  const out: AgentDecision[] = [];
  for (const command of COMMANDS) {
    const { hook_event_name: _event, ...context } = claudeInput(s, command);
    const d = await engine.decide('PreToolUse', context, { agent: 'claude' });
    if (!('continue' in d)) throw new Error('not a policy decision');
    out.push(d);
  }
  if (traced) {
    await provider?.shutdown();
    provider = undefined;
    trace.disable();
  }
  return out;
}

describe('[G-PERF-1] rules alone are decided at once, and nothing observable changes [G-CEL-1, G-CEL-2]', () => {
  it('their records are in the run log when decide() returns, before its promise settles', async () => {
    const s = setup();
    const engine = await policyEngine(s);
    const { hook_event_name: _event, ...context } = claudeInput(s, 'npm test');
    const before = engine.runs().length;
    const pending = engine.decide('PreToolUse', context);
    // Nothing awaited yet: a gate that gave each rule a promise had recorded none of them here.
    expect(engine.runs().length - before).toBe(7);
    expect((await pending).runs).toHaveLength(7);
  });

  it('the same records and answers at once, through the asynchronous gate, and through the daemon', async () => {
    const s = setup();
    const now = await decideAll(s, false);
    const traced = await decideAll(s, true);

    // What each command decides, so that the comparison below compares something.
    expect(now.map((d) => [d.decision, d.blocked])).toEqual([
      ['deny', true],
      ['ask', false],
      ['allow', false],
      ['deny', true],
    ]);
    expect(now[0]?.reason).toBe('no force push');
    expect(now[1]?.reason).toContain('publishing?');
    expect(now[3]?.runs.find((r) => r.hook === 'fails-closed')).toMatchObject({
      outcome: 'error',
      cause: 'rule_error',
      failed: 'closed',
      decision: 'deny',
    });
    expect(now[2]?.runs.find((r) => r.hook === 'fails-open')).toMatchObject({
      outcome: 'error',
      cause: 'rule_error',
      failed: 'open',
      decision: 'allow',
    });
    expect(now[2]?.additionalContext).toBe('checked by rules');
    // The permission rule's record comes first, then every rule's, in configuration order.
    expect(now[1]?.runs.map((r) => r.cause ?? r.hook)[0]).toBe('permission');
    expect(now.every((d) => d.runs.filter((r) => r.source.includes('#/hooks/')).length === 7)).toBe(true);
    // One time for the rules of a decide.
    for (const d of now)
      expect(new Set(d.runs.filter((r) => r.cause !== 'permission').map((r) => r.at)).size).toBe(1);

    for (const [i, d] of now.entries()) {
      const t = traced[i];
      if (t === undefined) throw new Error('missing');
      expect(answerOf(d)).toEqual(answerOf(t));
      expect(d.runs.map(timeless)).toEqual(t.runs.map(timeless));
    }

    // Through the daemon: the Node client and a real `hookwerk daemon` process on a real socket.
    const socket = path.join(s.dir, 'd.sock');
    const daemon = startCli(['daemon', '--socket', socket, '--idle', '0'], { home: s.home });
    await daemon.waitForOutput(/^ready$/m);
    const env = cleanEnv({ HOME: s.home, HOOKWERK_DAEMON_SOCKET: socket });
    const journal = new RunJournal(journalDir(s.home));
    const seen = journal.read({}).entries.length;
    const answers: string[] = [];
    for (const command of COMMANDS) {
      const input = JSON.stringify(claudeInput(s, command));
      const r = await runProgram(process.execPath, [BIN, 'hook', '--agent', 'claude'], {
        env,
        cwd: s.project,
        stdin: { text: input },
      });
      expect(r.code).toBe(0);
      answers.push(r.stdout === '' ? 'none' : JSON.parse(r.stdout).hookSpecificOutput.permissionDecision);
    }
    expect(answers).toEqual(['deny', 'ask', 'allow', 'deny']);
    // Newest first in the journal: read back in the order they were written.
    const all = journal.read({}).entries;
    const written = all.slice(0, all.length - seen).reverse();
    const expected: RunRecord[] = now.flatMap((d) => d.runs);
    expect(written.map(timeless)).toEqual(expected.map(timeless));
  });
});
