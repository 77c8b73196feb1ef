/**
 * [§12, AD-ALL-1] The adapters as a user gets them, from the built `dist/`: the core and every
 * subpath load with none of the three frameworks installed (a resolve hook makes them
 * unresolvable in a real Node process), and a strict TypeScript project importing the public
 * types of `hookwerk/ai-sdk`, `hookwerk/claude-agent-sdk` and `hookwerk/openai-agents` through the
 * package's `exports` compiles without `skipLibCheck`, with no diagnostic in hookwerk's files.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const run = promisify(execFile);
const FRAMEWORKS = ['ai', '@anthropic-ai/claude-agent-sdk', '@openai/agents'];

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'adapters', 'ai-sdk', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build`');
});

async function exec(file: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return run(file, args, { cwd }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      out: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );
}

describe('[§12] the frameworks are optional peers', () => {
  it('hookwerk and its three adapters load, and a gated tool runs, with no framework resolvable', async () => {
    const dir = tempDir('hw-peers-');
    // Any import of a framework fails, as it would where it is not installed.
    const hook = `export async function resolve(specifier, context, next) {
  if (/^(ai|@anthropic-ai\\/claude-agent-sdk|@openai\\/agents)(\\/|$)/.test(specifier))
    throw new Error('framework loaded: ' + specifier);
  return next(specifier, context);
}`;
    writeFileSync(path.join(dir, 'block-hooks.mjs'), hook);
    writeFileSync(
      path.join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister('./block-hooks.mjs', import.meta.url);\n`,
    );
    const dist = (p: string) => JSON.stringify(path.join(REPO, 'dist', p));
    writeFileSync(
      path.join(dir, 'main.mjs'),
      `const { createHookEngine } = await import(${dist('index.js')});
const { gateTools } = await import(${dist('adapters/ai-sdk/index.js')});
const { claudeAgentHooks } = await import(${dist('adapters/claude-agent-sdk/index.js')});
const { gateAgent, toolInputGuardrail } = await import(${dist('adapters/openai-agents/index.js')});
const engine = await createHookEngine({ projectDir: ${JSON.stringify(dir)}, home: ${JSON.stringify(dir)}, watch: false });
engine.use('PreToolUse', { matcher: 'rm' }, () => ({ decision: 'deny', reason: 'no' }));
const tools = gateTools(engine, { echo: { inputSchema: {}, execute: async (i) => i.text }, rm: { inputSchema: {}, execute: async () => 'gone' } });
const said = await tools.echo.execute({ text: 'hi' }, { toolCallId: 'c1', messages: [] });
const refused = await tools.rm.execute({}, { toolCallId: 'c2', messages: [] }).catch((e) => e.message);
const guard = toolInputGuardrail(engine);
const verdict = await guard.run({ toolCall: { type: 'function_call', callId: 'c3', name: 'rm', arguments: '{}' } });
console.log(JSON.stringify({ said, refused, verdict: verdict.behavior, gate: typeof gateAgent, cas: typeof claudeAgentHooks }));
await engine.close();
`,
    );
    const result = await exec(process.execPath, ['--import', './register.mjs', 'main.mjs'], dir);
    expect(result.out).not.toContain('framework loaded');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out.trim().split('\n').at(-1) ?? '')).toEqual({
      said: 'hi',
      refused: 'no',
      verdict: { type: 'rejectContent', message: 'no' },
      gate: 'function',
      cas: 'function',
    });
  }, 60_000);
});

describe('[AD-ALL-1] the adapters types in a strict consumer', () => {
  it('a strict project using the three subpaths compiles without skipLibCheck: no diagnostic in its own file or in hookwerk', async () => {
    const dir = tempDir('hw-adapter-consumer-');
    const modules = path.join(dir, 'node_modules');
    mkdirSync(path.join(modules, '@anthropic-ai'), { recursive: true });
    mkdirSync(path.join(modules, '@openai'), { recursive: true });
    // The package by its name, so `exports` is what resolves the subpaths; the frameworks beside it.
    symlinkSync(REPO, path.join(modules, 'hookwerk'));
    for (const name of [...FRAMEWORKS, 'zod'])
      symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name));
    writeFileSync(
      path.join(dir, 'use.mts'),
      `import { query, type Options } from '@anthropic-ai/claude-agent-sdk';
import { Agent, Runner, tool as agentTool } from '@openai/agents';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { createHookEngine, type GateDecision } from 'hookwerk';
import {
  gateTools,
  hookStopped,
  hookwerkMiddleware,
  ToolDeniedError,
  type GateToolsOptions,
  type HookwerkMiddlewareOptions,
} from 'hookwerk/ai-sdk';
import {
  claudeAgentAnswer,
  claudeAgentHooks,
  claudeAgentSessionStart,
  CLAUDE_AGENT_EVENTS,
  type AgentDecision,
  type ClaudeAgentHooks,
  type ClaudeAgentHooksOptions,
  type ClaudeAgentSessionStart,
} from 'hookwerk/claude-agent-sdk';
import {
  gateAgent,
  observedModel,
  observedModelProvider,
  toolInputGuardrail,
  toolOutputGuardrail,
  type GateAgentOptions,
  type ObservedModelOptions,
  type ToolGuardrailOptions,
} from 'hookwerk/openai-agents';
import { z } from 'zod';

declare const model: Parameters<typeof wrapLanguageModel>[0]['model'];
const engine = await createHookEngine({ gateDialect: 'claude', watch: false });

const aiOptions: GateToolsOptions = { sessionId: 's1' };
const tools = gateTools(
  engine,
  { shell: tool({ inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => command }) },
  aiOptions,
);
const middlewareOptions: HookwerkMiddlewareOptions = {};
const result = await generateText({
  model: wrapLanguageModel({ model, middleware: hookwerkMiddleware(engine, middlewareOptions) }),
  tools,
  stopWhen: [stepCountIs(5), hookStopped()],
  prompt: 'hi',
});
for (const part of result.steps[0]?.content ?? []) {
  if (part.type === 'tool-error' && part.error instanceof ToolDeniedError) {
    const decision: GateDecision = part.error.decision;
    console.log(decision.reason, part.error.stop, part.error.tool);
  }
}

const casOptions: ClaudeAgentHooksOptions = { onEnv: (env, event) => console.log(env, event), timeout: 30 };
const hooks: ClaudeAgentHooks = claudeAgentHooks(engine, casOptions);
const start: ClaudeAgentSessionStart = await claudeAgentSessionStart(engine, { source: 'startup' });
const decision: AgentDecision = start.decision;
console.log(claudeAgentAnswer('PreToolUse', decision), CLAUDE_AGENT_EVENTS.length);
const options: Options = { hooks, settingSources: [], env: { ...process.env, ...start.env } };
for await (const message of query({ prompt: 'hi', options })) console.log(message.type);

const guardOptions: ToolGuardrailOptions = { sessionId: 's1' };
const shell = agentTool({
  name: 'shell',
  description: 'runs a command',
  parameters: z.object({ command: z.string() }),
  execute: async ({ command }) => command,
  inputGuardrails: [toolInputGuardrail(engine, guardOptions)],
  outputGuardrails: [toolOutputGuardrail(engine, guardOptions)],
});
const agentOptions: GateAgentOptions = { handoffs: true, provider: 'openai' };
const agent = gateAgent(new Agent({ name: 'a', tools: [shell] }), engine, agentOptions);
const modelOptions: ObservedModelOptions = { model: 'm' };
const provider = observedModelProvider(engine, { getModel: (name) => observedModel(engine, { getResponse: () => Promise.reject(new Error(name)), getStreamedResponse: () => { throw new Error('no'); } }, modelOptions) });
await new Runner({ modelProvider: provider }).run(agent, 'hi');
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
    const result = await exec(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], dir);
    const errors = result.out.split('\n').filter((line) => /error TS\d+/.test(line));
    const files = errors.map((line) => /^(.+?)\(\d+,\d+\): error /.exec(line)?.[1]);
    // The frameworks' own declarations do not all pass so strict a check (the AI SDK's need
    // @types/json-schema and fail exactOptionalPropertyTypes, as OpenAI Agents' do): that is
    // theirs. Nothing of hookwerk's, nor the user's file against it, may fail.
    const frameworks = /\/node_modules\/(ai|@ai-sdk\/[^/]+|@openai\/[^/]+|@anthropic-ai\/[^/]+)\//;
    const ours = errors.filter((_line, i) => {
      const file = files[i];
      return file === undefined || !frameworks.test(path.resolve(dir, file));
    });
    expect(ours, result.out).toEqual([]);
  }, 180_000);
});
