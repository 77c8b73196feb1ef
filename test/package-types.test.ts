/**
 * Issue 19: the shipped `.d.ts` compile in a consumer's strict project without `skipLibCheck`
 * (they did not: a string index signature of a zod schema clashed with `$schema`), and every
 * type a public signature uses is importable from the package entry. Real `tsc`, real `dist/`.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const run = promisify(execFile);

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'index.d.ts')))
    throw new Error('dist/ is missing: run `npm run build`');
});

it('[issue 19] a strict consumer compiles against dist/*.d.ts without skipLibCheck', async () => {
  const dir = tempDir('hw-consumer-');
  const entry = JSON.stringify(path.join(REPO, 'dist', 'index.js'));
  const mcpEntry = JSON.stringify(path.join(REPO, 'dist', 'mcp', 'index.js'));
  writeFileSync(
    path.join(dir, 'use.mts'),
    `import {
  createHookEngine,
  HookwerkError,
  isHookwerkError,
  type GateDecision,
  type HookEngine,
  type HookEngineOptions,
  type HookwerkErrorCode,
  type NatsStatus,
  type RegistryEntry,
  type RunRecord,
} from ${entry};
import { createMcpGate, type McpGate, type McpRunRecord } from ${mcpEntry};

const options: HookEngineOptions = { watch: false };
const engine: HookEngine = await createHookEngine(options);
const decision: GateDecision = await engine.decide('PreToolUse', { toolName: 'Bash' });
const runs: RunRecord[] = decision.runs;
const hooks: readonly RegistryEntry[] = engine.hooks('PreToolUse');
const status: NatsStatus | undefined = engine.nats;
const mcp: McpGate = createMcpGate(engine, { name: 'notes', record: (r: readonly McpRunRecord[]) => r.length });
try {
  engine.emit('no_such_event', {});
} catch (err) {
  const code: HookwerkErrorCode | undefined = isHookwerkError(err) ? err.code : undefined;
  if (err instanceof HookwerkError) console.log(code, runs.length, hooks.length, status, mcp.name);
}
await engine.close();
`,
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
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
  const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      out: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );
  expect(result.out).toBe('');
  expect(result.code).toBe(0);
}, 120_000);
