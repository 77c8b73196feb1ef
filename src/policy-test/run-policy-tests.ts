/**
 * [G-TEST-1] `hookwerk test`'s engine side: each case runs through exactly what `hookwerk hook
 * --agent A` runs — `answerHookCall` with the agent's input mapping, the policy dialect and the
 * cold decider — and the verdict is read back from the agent's own reply (stdout and exit code)
 * with that agent's reader (`readReply`), so a test says what the agent would do. What differs
 * from a real call, and why:
 *
 * - The runs go to the case's result, never to the journal (`~/.hookwerk/records/` holds what
 *   agents did, not test runs); the fast path's index is never written (with `--policy` it is not
 *   even read: it describes other files); the agent's `CLAUDE_ENV_FILE` is not passed on, so a
 *   SessionStart case never writes into the session of the agent that runs the tests.
 * - Everything else is real: the user's home (its policy, trust store and consent), the project,
 *   and the hook commands, which run as they would for the agent — they are the guards under test.
 */
import { statSync } from 'node:fs';
import type { ClaudeCall, ReplyVerdict, VerdictName } from '../dialects/agent/hook-agent.ts';
import { agentEventOf, HOOK_AGENTS, type HookAgentName } from '../dialects/hook-agents.ts';
import { coldDeciderOf } from '../hook/cold-decider.ts';
import { type AgentRunRecord, answerHookCall } from '../hook/hook-call.ts';
import type { PolicyDecider } from '../hook/policy-decider.ts';
import type { RunRecord } from '../records/run-record.ts';
import { decidingRuns, madeBy, runName } from './decided-by.ts';
import { policyInForce } from './policy-in-force.ts';
import { type PolicyCase, type PolicyTestFile, PolicyTestFileError } from './test-file.ts';

export interface PolicyTestOptions {
  /** The project the cases run in (the input's own project wins, as in `hookwerk hook`). */
  projectDir: string;
  home: string;
  /** The environment hook commands inherit (the agent's, in a real call). */
  env: NodeJS.ProcessEnv;
  /** `--policy FILE` (absolute): the policy in force for every file, over a file's own `policy`. */
  policy?: string;
  /** `--agent A`: every case is this agent's, whatever it says. */
  agent?: HookAgentName;
}

/** What one case did. */
export interface CaseResult {
  readonly file: string;
  readonly name: string;
  readonly agent: HookAgentName;
  /** The event passed as `--event` (the input's own wins). */
  readonly event: string;
  readonly expect: VerdictName;
  readonly got: VerdictName;
  /** The reason the agent was given, if any. */
  readonly reason?: string;
  /** The names of the runs that made the verdict. */
  readonly by: readonly string[];
  readonly passed: boolean;
  /** Why it failed, in one line. */
  readonly why?: string;
}

export interface PolicyTestRun {
  readonly results: readonly CaseResult[];
  readonly passed: number;
  readonly failed: number;
  /** Per policy in force: what it is, and what may surprise (an unapproved project policy…). */
  readonly notes: readonly string[];
}

/** The policy files a test file runs against: `--policy`, else its own `policy`, else the user's and project's. */
function policyFilesOf(file: PolicyTestFile, opts: PolicyTestOptions): readonly string[] | undefined {
  const chosen = opts.policy ?? file.policy;
  if (chosen === undefined) return undefined;
  let regular = false;
  try {
    regular = statSync(chosen).isFile();
  } catch {
    // Reported below: a policy that is not there must not be tested as "no policy".
  }
  if (!regular)
    throw new PolicyTestFileError([
      {
        file: opts.policy !== undefined ? chosen : file.file,
        path: opts.policy !== undefined ? '$' : '$.policy',
        message: `the policy file ${chosen} does not exist or is not a file`,
      },
    ]);
  return [chosen];
}

/**
 * The environment of a test's hook call: the agent's, without the session file of the agent
 * that may be running the tests (see the file comment), and with the project root every agent
 * names to its hooks (`CLAUDE_PROJECT_DIR`, which each agent's reader falls back to): the
 * project the tests run for, so a case whose `cwd` is a sub-folder is still inside it.
 */
function caseEnv(env: NodeJS.ProcessEnv, projectDir: string): NodeJS.ProcessEnv {
  const {
    CLAUDE_ENV_FILE: _session,
    GEMINI_PROJECT_DIR: _gemini,
    COPILOT_PROJECT_DIR: _copilot,
    CURSOR_PROJECT_DIR: _cursor,
    ...rest
  } = env;
  return { ...rest, CLAUDE_PROJECT_DIR: projectDir };
}

/** Who hears of a run as it goes: each note (before the cases it concerns), each case as it ends. */
export interface PolicyTestListener {
  note?(line: string): void;
  result?(result: CaseResult): void;
}

/** Runs every case of `files`, in order. */
export async function runPolicyTests(
  files: readonly PolicyTestFile[],
  opts: PolicyTestOptions,
  listen: PolicyTestListener = {},
): Promise<PolicyTestRun> {
  const plans = files.map((file) => ({ file, policyFiles: policyFilesOf(file, opts) }));
  const env = caseEnv(opts.env, opts.projectDir);
  const notes: string[] = [];
  const told = new Set<string>();
  const results: CaseResult[] = [];
  for (const { file, policyFiles } of plans) {
    const key = JSON.stringify(policyFiles ?? null);
    if (!told.has(key)) {
      told.add(key);
      const agent = opts.agent ?? file.cases[0]?.agent ?? 'claude';
      const force = await policyInForce({
        projectDir: opts.projectDir,
        home: opts.home,
        agent,
        env,
        ...(policyFiles !== undefined ? { files: policyFiles } : {}),
      });
      for (const line of force.notes) listen.note?.(line);
      notes.push(...force.notes);
    }
    const decider = testDecider(policyFiles);
    for (const c of file.cases) {
      const result = await runCase(file.file, c, { ...opts, env }, decider, policyFiles);
      results.push(result);
      listen.result?.(result);
    }
  }
  const passed = results.filter((r) => r.passed).length;
  return { results, passed, failed: results.length - passed, notes };
}

/**
 * The cold decider of `hookwerk hook`, over the files under test when given; never writing the
 * fast path's index (a test run writes nothing under the home).
 */
function testDecider(files: readonly string[] | undefined): PolicyDecider {
  const cold = coldDeciderOf(files);
  return { decide: (q) => cold.decide({ ...q, indexStale: false }) };
}

async function runCase(
  file: string,
  c: PolicyCase,
  opts: PolicyTestOptions,
  decider: PolicyDecider,
  policyFiles: readonly string[] | undefined,
): Promise<CaseResult> {
  const agentName = opts.agent ?? c.agent ?? 'claude';
  const agent = HOOK_AGENTS[agentName];
  const event = agentEventOf(agent, c.event ?? 'PreToolUse');
  const runs: AgentRunRecord[] = [];
  let call: ClaudeCall | undefined;
  const reply = await answerHookCall(
    {
      agent: agentName,
      stdin: JSON.stringify(c.input),
      event,
      project: opts.projectDir,
      cwd: opts.projectDir,
      env: opts.env,
      home: opts.home,
    },
    {
      decider,
      record: (recorded) => {
        runs.push(...recorded);
      },
      onCall: (read) => {
        call = read;
      },
      ...(policyFiles !== undefined ? { policyFiles } : {}),
    },
  );
  const read: ReplyVerdict = call !== undefined ? await agent.readReply(call, reply) : { verdict: 'none' };
  const deciders = decidingRuns(runs, read.verdict);
  const said = reply.stderr
    .trim()
    .split('\n')
    .filter((l) => l !== '');
  const why = failure(c, read, deciders, runs, said);
  return {
    file,
    name: c.name,
    agent: agentName,
    event,
    expect: c.expect,
    got: read.verdict,
    ...(read.reason !== undefined ? { reason: read.reason } : {}),
    by: [...new Set(deciders.map(runName))],
    passed: why === undefined,
    ...(why !== undefined ? { why } : {}),
  };
}

const names = (runs: readonly RunRecord[]) =>
  [...new Set(runs.map(runName))].map((n) => JSON.stringify(n)).join(', ');

/** Why the case failed, in one line; undefined when it passed. */
function failure(
  c: PolicyCase,
  read: ReplyVerdict,
  deciders: readonly RunRecord[],
  runs: readonly RunRecord[],
  stderr: readonly string[],
): string | undefined {
  const got = `got ${read.verdict} (${because(read, deciders, runs, stderr)})`;
  if (read.verdict !== c.expect) return `expected ${c.expect}, ${got}`;
  if (c.reason !== undefined && !(read.reason ?? '').includes(c.reason))
    return `expected ${c.expect} with a reason containing ${JSON.stringify(c.reason)}, ${got}`;
  if (c.by !== undefined && !madeBy(deciders, c.by))
    return `expected ${c.expect} by ${JSON.stringify(c.by)}, ${got}`;
  return undefined;
}

/** What the agent was told and by whom; for no objection, what ran and what hookwerk said on stderr. */
function because(
  read: ReplyVerdict,
  deciders: readonly RunRecord[],
  runs: readonly RunRecord[],
  stderr: readonly string[],
): string {
  if (read.verdict !== 'none') {
    const reason = read.reason !== undefined ? `reason: ${JSON.stringify(read.reason)}` : 'no reason given';
    return deciders.length > 0 ? `${reason}; by ${names(deciders)}` : reason;
  }
  const what = runs.length === 0 ? 'no policy hook ran for this call' : `ran ${names(runs)}, none objected`;
  return [what, ...stderr].join('; ');
}
