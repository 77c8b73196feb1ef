/**
 * `hookwerk test [FILE|DIR]… [--policy FILE] [--agent A] [--project DIR] [--json]` and `hookwerk
 * test --record N [-o FILE]` [G-TEST-1]: a thin shell over `src/policy-test/` — parse, call,
 * print. One line per failing case and a last line `N passed, N failed` (exit 0 when all pass,
 * 1 otherwise); `--json`: one JSON object per case and a summary object. A test file that cannot
 * be used is one line per problem (file, JSON path, cause) and exit 1, before any case runs.
 */
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { homeFolder } from '../core/home.ts';
import { HOOK_AGENT_NAMES, type HookAgentName, isHookAgentName } from '../dialects/hook-agents.ts';
import { recordedCases } from '../policy-test/recorded-cases.ts';
import { type CaseResult, runPolicyTests } from '../policy-test/run-policy-tests.ts';
import { type PolicyTestFile, PolicyTestFileError, readTestFile } from '../policy-test/test-file.ts';
import { testFilesOf, testsFolder } from '../policy-test/test-files.ts';
import { CliError, resolveWorkspace } from './cli-error.ts';
import { wholeNumberOption } from './int-option.ts';

export interface TestCliOptions {
  policy?: string;
  agent?: string;
  project?: string;
  json?: boolean;
  record?: string;
  output?: string;
}

type Say = (line: string) => void;

export async function testCommand(
  given: readonly string[],
  opts: TestCliOptions,
  out: Say,
  err: Say,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<number> {
  const home = homeFolder(undefined, env);
  if (opts.record !== undefined) return record(given, opts, home, out, err, cwd);
  if (opts.output !== undefined) throw new CliError('-o/--output goes with --record N');
  const agent = agentOption(opts.agent);
  const projectDir = resolveWorkspace(opts.project === undefined ? cwd : path.resolve(cwd, opts.project));
  try {
    const files = testFilesOf(given, { cwd, projectDir, home });
    if (files.length === 0)
      throw new CliError(
        `no policy test files: none given, and none in ${testsFolder(projectDir)} or ${testsFolder(home)} (*.json)`,
      );
    const tests = readAll(files);
    const several = tests.length > 1;
    const shown = (r: CaseResult) =>
      several ? `${path.relative(cwd, r.file) || r.file} › ${r.name}` : r.name;
    const run = await runPolicyTests(
      tests,
      {
        projectDir,
        home,
        env,
        ...(opts.policy !== undefined ? { policy: path.resolve(cwd, opts.policy) } : {}),
        ...(agent !== undefined ? { agent } : {}),
      },
      {
        note: (line) => err(`hookwerk test: ${line}`),
        result: (r) => {
          if (opts.json === true) out(JSON.stringify({ type: 'case', ...r }));
          else if (!r.passed) out(`FAIL ${shown(r)}: ${r.why ?? `expected ${r.expect}, got ${r.got}`}`);
        },
      },
    );
    if (opts.json === true)
      out(JSON.stringify({ type: 'summary', passed: run.passed, failed: run.failed, notes: run.notes }));
    else out(`${run.passed} passed, ${run.failed} failed`);
    return run.failed > 0 ? 1 : 0;
  } catch (e) {
    if (!(e instanceof PolicyTestFileError)) throw e;
    for (const issue of e.issues) err(`hookwerk test: ${issue.file}: ${issue.path}: ${issue.message}`);
    return 1;
  }
}

function agentOption(agent: string | undefined): HookAgentName | undefined {
  if (agent === undefined) return undefined;
  if (!isHookAgentName(agent))
    throw new CliError(`--agent must be one of ${HOOK_AGENT_NAMES.join(', ')}, not "${agent}"`);
  return agent;
}

/** Every file read, and every problem of every file reported at once. */
function readAll(files: readonly string[]): PolicyTestFile[] {
  const tests: PolicyTestFile[] = [];
  const problems: PolicyTestFileError['issues'][number][] = [];
  for (const file of files) {
    try {
      tests.push(readTestFile(file));
    } catch (e) {
      if (!(e instanceof PolicyTestFileError)) throw e;
      problems.push(...e.issues);
    }
  }
  if (problems.length > 0) throw new PolicyTestFileError(problems);
  return tests;
}

/** `--record N [-o FILE]`: the journal's last N entries as a test file. */
function record(
  given: readonly string[],
  opts: TestCliOptions,
  home: string,
  out: Say,
  err: Say,
  cwd: string,
): number {
  if (given.length > 0 || opts.policy !== undefined || opts.agent !== undefined || opts.json === true)
    throw new CliError('--record N writes cases from the journal and runs none: it takes only -o FILE');
  const n = wholeNumberOption('--record', opts.record) ?? 1;
  const recorded = recordedCases(home, n);
  const text = `${JSON.stringify(recorded.file, null, 2)}\n`;
  if (opts.output !== undefined) writeFileAtomic(path.resolve(cwd, opts.output), text);
  else out(text.trimEnd());
  for (const line of recorded.notes) err(`hookwerk test: ${line}`);
  return 0;
}
