/**
 * Issue 19, [AD-ALL-1]: the shipped `.d.ts` compile in a consumer's strict project without
 * `skipLibCheck` (they did not: a string index signature of a zod schema clashed with `$schema`),
 * and every type a public signature uses, or an adapter needs, is importable from the package
 * entry — imported as a user does (`from 'hookwerk'`, `'hookwerk/mcp'`, through the package's `exports`), under the
 * TypeScript the project builds with and under TypeScript 5. Real `tsc`, real `dist/`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';

const run = promisify(execFile);

/** A consumer's module: the public types named, used as an adapter uses them. */
const USE = `import {
  AbortError,
  createHookEngine,
  HookwerkError,
  isHookwerkError,
  type AgentDecision,
  type AgentHook,
  type BusMessage,
  type ClaudeOptions,
  type CodexOptions,
  type CopilotOptions,
  type CursorOptions,
  type DecideOptions,
  type Decision,
  type DialectOptions,
  type EmitOptions,
  type EngineMetrics,
  type Explanation,
  type GateAnswer,
  type GateConfig,
  type GateDecision,
  type GateDialect,
  type GateView,
  type GeminiOptions,
  type HookEngine,
  type HookEngineOptions,
  type HookwerkErrorCode,
  type InProcessGateFn,
  type Logger,
  type LurusContext,
  type NatsStatus,
  type Permission,
  type PrxPayload,
  type RegistryEntry,
  type RunOutcome,
  type RunRecord,
  type UseOptions,
} from 'hookwerk';
import { createMcpGate, type McpGate, type McpRunRecord } from 'hookwerk/mcp';

const logger: Logger = { info() {}, warn() {}, error() {} };
const dialects: DialectOptions = {};
const claude: ClaudeOptions = { plugins: [] };
const gemini: GeminiOptions = {};
const codex: CodexOptions = {};
const copilot: CopilotOptions = {};
const cursor: CursorOptions = { claudeFiles: false };
const dialect: GateDialect = 'claude';
// The dialects' names and option keys are declared in their own modules (augmentation): seen here too.
const hookDialect: AgentHook['dialect'] = 'cursor';
const options: HookEngineOptions = { ...dialects, watch: false, logger, gateDialect: dialect, claude, gemini, codex, copilot, cursor };
const engine: HookEngine = await createHookEngine(options);

/** What an adapter does: one tool call asked of the gate, abortable, its verdict read. */
async function allowed(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<boolean> {
  const opts: DecideOptions = { signal, agent: 'my-runtime' };
  try {
    const d: GateDecision = await engine.decide('PreToolUse', { tool_name: name, tool_input: input }, opts);
    if ('continue' in d) {
      const agent: AgentDecision = d;
      const permission: Permission = agent.decision;
      return permission !== 'deny' && agent.updatedInput === undefined;
    }
    const lurus: Decision = d;
    return lurus.decision === 'allow';
  } catch (err) {
    if (err instanceof AbortError) {
      const stopped: RunRecord[] = err.runs.filter((r) => r.cause === 'aborted');
      const code: HookwerkErrorCode = err.code;
      console.log(err.name, code, stopped.map((r) => [r.toolName, r.sessionId, r.agent]));
      return false;
    }
    throw err;
  }
}

const guard: InProcessGateFn = async (ctx: LurusContext, { signal }): Promise<GateAnswer> =>
  signal.aborted ? undefined : { decision: ctx.toolName === 'Bash' ? 'deny' : 'allow', reason: 'no shell' };
const use: UseOptions = { matcher: 'Bash', timeout: 1000 };
const off = engine.use('PreToolUse', use, guard);
const controller = new AbortController();
console.log(await allowed('Bash', { command: 'ls' }, controller.signal));
off();

const emitOptions: EmitOptions = { sessionId: 's1' };
const payload: PrxPayload<'tool_call'> = { tool: 'shell', success: true, output: 'ok' };
engine.emit('tool_call', payload, emitOptions);
engine.bus.subscribe('hookwerk.run.*', (m: BusMessage) => console.log(m.topic));
const outcome: RunOutcome | undefined = engine.runs({ limit: 1 })[0]?.outcome;
const hooks: readonly RegistryEntry[] = engine.hooks('PreToolUse');
const explained: Explanation[] = engine.explain('PreToolUse', { tool_name: 'Bash' });
const view: GateView = engine.gate;
const config: GateConfig = view.config;
const metrics: EngineMetrics = engine.metrics;
const status: NatsStatus | undefined = engine.nats;
const mcp: McpGate = createMcpGate(engine, { name: 'notes', record: (r: readonly McpRunRecord[]) => r.length });
try {
  engine.emit('no_such_event', {});
} catch (err) {
  const code: HookwerkErrorCode | undefined = isHookwerkError(err) ? err.code : undefined;
  if (err instanceof HookwerkError) console.log(code, outcome, hooks.length, explained.length, config, metrics, status, hookDialect, mcp.name);
}
await engine.close();
`;

let consumer: string;

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'index.d.ts')))
    throw new Error('dist/ is missing: run `npm run build`');
  // One project for both compilers (helpers' tempDir is removed after each test).
  consumer = mkdtempSync(path.join(tmpdir(), 'hw-consumer-'));
  // Installed as a user's project has it: node_modules/hookwerk, resolved through its package.json.
  mkdirSync(path.join(consumer, 'node_modules'));
  symlinkSync(REPO, path.join(consumer, 'node_modules', 'hookwerk'), 'dir');
  writeFileSync(path.join(consumer, 'use.mts'), USE);
  writeFileSync(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        types: ['node'],
        typeRoots: [path.join(REPO, 'node_modules', '@types')],
      },
      files: ['use.mts'],
    }),
  );
});

afterAll(() => rmSync(consumer, { recursive: true, force: true }));

/** `tsc -p` of the consumer with the TypeScript in `node_modules/<pkg>`: its output and exit code. */
async function compile(pkg: string): Promise<{ code: number; out: string; version: string }> {
  const tsc = path.join(REPO, 'node_modules', pkg, 'bin', 'tsc');
  const version = (await run(process.execPath, [tsc, '--version'])).stdout.trim();
  return run(process.execPath, [tsc, '-p', consumer], { cwd: consumer }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr, version }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      out: `${e.stdout ?? ''}${e.stderr ?? ''}`,
      version,
    }),
  );
}

it('[issue 19] [AD-ALL-1] a strict consumer importing hookwerk compiles against dist/*.d.ts without skipLibCheck (the project’s TypeScript)', async () => {
  const result = await compile('typescript');
  expect(result.version).toMatch(/^Version 6\./);
  expect(result.out).toBe('');
  expect(result.code).toBe(0);
}, 120_000);

it('[AD-ALL-1] the same consumer compiles under TypeScript 5', async () => {
  const result = await compile('typescript5');
  expect(result.version).toMatch(/^Version 5\./);
  expect(result.out).toBe('');
  expect(result.code).toBe(0);
}, 120_000);
