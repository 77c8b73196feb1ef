/**
 * [AD-AI-1] `hookwerk/ai-sdk` against the real AI SDK 6: `generateText` / `streamText` driving a
 * `MockLanguageModelV3` that calls a tool; the gate is a real Claude Code guard script (a process)
 * in a temp project, and a Lurus in-process hook for the other vocabulary. What the model's next
 * call was told, whether the tool ran and with what, the records and the observe events are read
 * from the real objects.
 */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gateTools, hookStopped, hookwerkMiddleware, ToolDeniedError } from '../src/adapters/ai-sdk/index.ts';
import {
  DENY_REASON,
  guardedProject,
  type ObservedEvent,
  observeEvents,
  policyProject,
  STOP_REASON,
  USER_REASON,
  WITHHELD_REASON,
} from './adapter-harness.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Prompt = MockLanguageModelV3['doGenerateCalls'][number]['prompt'];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const callTool = (toolName: string, input: unknown, toolCallId = 'call-1'): GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: undefined },
  usage,
  warnings: [],
});
const say = (text: string): GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: undefined },
  usage,
  warnings: [],
});

/** A model that calls `shell` with `input` once, then answers; the prompts it got are kept. */
function scriptedModel(input: unknown, toolName = 'shell') {
  return new MockLanguageModelV3({ doGenerate: [callTool(toolName, input), say('done')] });
}

/** What the tool's result in the model's last prompt says: its output or error text. */
function lastToolResult(prompt: Prompt): unknown {
  for (const message of prompt.toReversed()) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') return part.output;
  }
  return undefined;
}

/** A shell tool that records every call instead of running anything. */
function shellTool() {
  const ran: Array<{ command: string }> = [];
  const shell = tool({
    description: 'Runs a shell command',
    inputSchema: z.object({ command: z.string() }),
    execute: async (input) => {
      ran.push(input);
      return input.command.includes('secret') ? 'SECRET=hunter2' : `ran: ${input.command}`;
    },
  });
  return { ran, tools: { shell } };
}

const ofEvent = (events: ObservedEvent[], name: string) => events.filter((e) => e.event === name);

describe('[AD-AI-1] gateTools: the tools of the AI SDK, gated by the engine', () => {
  it('a deny never runs the tool; the model gets the reason as the tool error; records and events say so', async () => {
    const g = await guardedProject();
    const events = observeEvents(g.engine);
    const { ran, tools } = shellTool();
    const model = scriptedModel({ command: 'rm -rf /' });
    const result = await generateText({
      model,
      prompt: 'clean up',
      tools: gateTools(g.engine, tools, { sessionId: 'sess-ai' }),
      stopWhen: stepCountIs(3),
    });
    await g.engine.drain();

    expect(ran).toEqual([]);
    const failed = result.steps[0]?.content.find((p) => p.type === 'tool-error');
    expect(failed?.type === 'tool-error' && failed.error).toBeInstanceOf(ToolDeniedError);
    expect(
      failed?.type === 'tool-error' && failed.error instanceof ToolDeniedError && failed.error.message,
    ).toBe(DENY_REASON);
    // The model's next call sees the refusal as the tool's error text.
    expect(lastToolResult(model.doGenerateCalls[1]!.prompt)).toEqual({
      type: 'error-text',
      value: DENY_REASON,
    });
    // The hook got Claude Code's input: the tool's key, its arguments, the call id and the session.
    expect(g.preInputs()).toMatchObject([
      {
        hook_event_name: 'PreToolUse',
        tool_name: 'shell',
        tool_input: { command: 'rm -rf /' },
        tool_use_id: 'call-1',
        session_id: 'sess-ai',
      },
    ]);
    expect(g.postInputs()).toEqual([]);
    expect(g.engine.runs({ event: 'PreToolUse' })).toMatchObject([{ outcome: 'deny', dialect: 'claude' }]);
    // A tool that never started has no tool events.
    expect(ofEvent(events, 'tool_call_start')).toEqual([]);
    expect(ofEvent(events, 'tool_call')).toEqual([]);
  });

  it('no objection: the tool runs with the model arguments, PostToolUse follows with its output, both events are emitted', async () => {
    const g = await guardedProject();
    const events = observeEvents(g.engine);
    const { ran, tools } = shellTool();
    const model = scriptedModel({ command: 'ls' });
    await generateText({
      model,
      prompt: 'list',
      tools: gateTools(g.engine, tools, { sessionId: 'sess-ai' }),
      stopWhen: stepCountIs(3),
    });
    await g.engine.drain();

    expect(ran).toEqual([{ command: 'ls' }]);
    expect(lastToolResult(model.doGenerateCalls[1]!.prompt)).toEqual({ type: 'text', value: 'ran: ls' });
    expect(g.postInputs()).toMatchObject([
      {
        hook_event_name: 'PostToolUse',
        tool_name: 'shell',
        tool_input: { command: 'ls' },
        tool_response: 'ran: ls',
      },
    ]);
    expect(g.engine.runs({ event: 'PreToolUse' })).toMatchObject([{ outcome: 'ok' }]);
    expect(g.engine.runs({ event: 'PostToolUse' })).toMatchObject([{ outcome: 'ok' }]);
    expect(ofEvent(events, 'tool_call_start')).toEqual([
      expect.objectContaining({
        session_id: 'sess-ai',
        payload: { tool: 'shell', arguments: { command: 'ls' } },
      }),
    ]);
    expect(ofEvent(events, 'tool_call')).toEqual([
      expect.objectContaining({ payload: { tool: 'shell', success: true, output: 'ran: ls' } }),
    ]);
  });

  it('updatedInput replaces the arguments: the tool gets the new ones, and so do PostToolUse and the events', async () => {
    const g = await guardedProject();
    const events = observeEvents(g.engine);
    const { ran, tools } = shellTool();
    await generateText({
      model: scriptedModel({ command: 'rewrite-me' }),
      prompt: 'go',
      tools: gateTools(g.engine, tools),
      stopWhen: stepCountIs(3),
    });
    await g.engine.drain();
    expect(ran).toEqual([{ command: 'echo rewritten' }]);
    expect(g.postInputs()).toMatchObject([{ tool_input: { command: 'echo rewritten' } }]);
    expect(ofEvent(events, 'tool_call_start')[0]?.payload).toEqual({
      tool: 'shell',
      arguments: { command: 'echo rewritten' },
    });
  });

  it('a rewrite that does not fit the tool input schema is refused, not run', async () => {
    const g = await guardedProject();
    const { ran, tools } = shellTool();
    const model = scriptedModel({ command: 'bad-rewrite' });
    await generateText({ model, prompt: 'go', tools: gateTools(g.engine, tools), stopWhen: stepCountIs(3) });
    expect(ran).toEqual([]);
    const told = lastToolResult(model.doGenerateCalls[1]!.prompt);
    expect(told).toMatchObject({ type: 'error-text' });
    expect(JSON.stringify(told)).toContain('does not fit the input schema of shell');
  });

  it('a PostToolUse block withholds the output: the model gets the reason instead', async () => {
    const g = await guardedProject();
    const { ran, tools } = shellTool();
    const model = scriptedModel({ command: 'cat secret' });
    await generateText({ model, prompt: 'go', tools: gateTools(g.engine, tools), stopWhen: stepCountIs(3) });
    expect(ran).toEqual([{ command: 'cat secret' }]);
    const told = lastToolResult(model.doGenerateCalls[1]!.prompt);
    expect(told).toEqual({ type: 'error-text', value: WITHHELD_REASON });
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).not.toContain('hunter2');
  });

  it('continue: false refuses the call with its stopReason, and hookStopped ends the loop after that step', async () => {
    const g = await guardedProject();
    const { ran, tools } = shellTool();
    const model = scriptedModel({ command: 'stop-me' });
    const result = await generateText({
      model,
      prompt: 'go',
      tools: gateTools(g.engine, tools),
      stopWhen: [stepCountIs(5), hookStopped()],
    });
    expect(ran).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
    const failed = result.steps[0]?.content.find((p) => p.type === 'tool-error');
    const error = failed?.type === 'tool-error' ? failed.error : undefined;
    expect(error instanceof ToolDeniedError && { message: error.message, stop: error.stop }).toEqual({
      message: STOP_REASON,
      stop: true,
    });
  });

  it('a tool without execute is handed back as it is; the others are new objects, the originals untouched', async () => {
    const g = await guardedProject();
    const { tools } = shellTool();
    const clientSide = tool({ description: 'asks the user', inputSchema: jsonSchema({ type: 'object' }) });
    const gated = gateTools(g.engine, { ...tools, clientSide });
    expect(gated.clientSide).toBe(clientSide);
    expect(gated.shell).not.toBe(tools.shell);
    expect(gated.shell.execute).not.toBe(tools.shell.execute);
    expect(gated.shell.inputSchema).toBe(tools.shell.inputSchema);
  });

  it('a streaming tool (async generator) stays one: its preliminary outputs stream when allowed, none when denied', async () => {
    const g = await guardedProject();
    let iterated = 0;
    const tools = gateTools(g.engine, {
      shell: tool({
        inputSchema: z.object({ command: z.string() }),
        async *execute({ command }) {
          iterated++;
          yield `starting ${command}`;
          yield `finished ${command}`;
        },
      }),
    });
    const streamOf = (command: string) =>
      streamText({
        model: new MockLanguageModelV3({
          doStream: {
            stream: simulateReadableStream({
              chunks: [
                { type: 'stream-start', warnings: [] },
                {
                  type: 'tool-call',
                  toolCallId: 'c1',
                  toolName: 'shell',
                  input: JSON.stringify({ command }),
                },
                { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
              ],
            }),
          },
        }),
        prompt: 'go',
        tools,
      });
    const allowed = streamOf('ls');
    const parts: unknown[] = [];
    for await (const part of allowed.fullStream) if (part.type === 'tool-result') parts.push(part.output);
    expect(parts).toEqual(['starting ls', 'finished ls', 'finished ls']);
    expect(iterated).toBe(1);

    const denied = streamOf('rm -rf /');
    const errors: unknown[] = [];
    for await (const part of denied.fullStream) if (part.type === 'tool-error') errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ToolDeniedError);
    expect(iterated).toBe(1);
  });
});

describe('[AD-AI-1] gateTools in the Lurus dialect: toolName / toolInput', () => {
  it('asks PreToolUse with toolName, toolInput, toolUseId and sessionId; PostToolUse gets toolOutput; a failure gives PostToolUseFailure and the events', async () => {
    const engine = await makeEngine(undefined, {
      projectDir: tempDir('hw-ai-lurus-'),
      home: tempDir('hw-ai-home-'),
    });
    const events = observeEvents(engine);
    const seen: Array<{ event: string; context: Record<string, unknown> }> = [];
    for (const event of ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const) {
      engine.use(event, { matcher: 'fetch' }, (context, info) => {
        seen.push({ event: info.event, context });
        return undefined;
      });
    }
    engine.use('PreToolUse', { matcher: 'delete' }, () => ({ decision: 'deny', reason: 'lurus says no' }));
    const tools = gateTools(
      engine,
      {
        fetch: tool({
          inputSchema: z.object({ url: z.string() }),
          execute: async ({ url }) =>
            url.includes('down') ? Promise.reject(new Error('host is down')) : { status: 200 },
        }),
        delete: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'deleted' }),
      },
      { sessionId: 'sess-l' },
    );
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          ...callTool('fetch', { url: 'https://up.example' }, 'f1'),
          content: [
            { type: 'tool-call', toolCallId: 'f1', toolName: 'fetch', input: '{"url":"https://up.example"}' },
            {
              type: 'tool-call',
              toolCallId: 'f2',
              toolName: 'fetch',
              input: '{"url":"https://down.example"}',
            },
            { type: 'tool-call', toolCallId: 'd1', toolName: 'delete', input: '{"path":"/etc"}' },
          ],
        },
        say('done'),
      ],
    });
    await generateText({ model, prompt: 'go', tools, stopWhen: stepCountIs(3) });
    await engine.drain();

    const byCall = (id: string) => seen.filter((s) => s.context.toolUseId === id).map((s) => s.event);
    expect(byCall('f1')).toEqual(['PreToolUse', 'PostToolUse']);
    expect(byCall('f2')).toEqual(['PreToolUse', 'PostToolUseFailure']);
    expect(seen.find((s) => s.context.toolUseId === 'f1' && s.event === 'PreToolUse')?.context).toEqual({
      toolName: 'fetch',
      toolInput: { url: 'https://up.example' },
      toolUseId: 'f1',
      sessionId: 'sess-l',
    });
    expect(seen.find((s) => s.event === 'PostToolUse')?.context.toolOutput).toEqual({ status: 200 });
    expect(seen.find((s) => s.event === 'PostToolUseFailure')?.context.error).toBe('host is down');
    expect(lastToolResult(model.doGenerateCalls[1]!.prompt)).toBeDefined();
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('lurus says no');

    const ends = ofEvent(events, 'tool_call').map((e) => e.payload);
    expect(ends).toEqual(
      expect.arrayContaining([
        { tool: 'fetch', success: true, output: '{"status":200}' },
        { tool: 'fetch', success: false, output: 'host is down' },
      ]),
    );
    expect(ends).toHaveLength(2);
    expect(ofEvent(events, 'error').map((e) => e.payload)).toEqual([
      { component: 'tool', message: 'fetch: host is down' },
    ]);
  });
});

describe('[AD-AI-1] hookwerkMiddleware: the model calls as observe events', () => {
  const streamChunks = (extra: LanguageModelV3StreamPart[] = []): LanguageModelV3StreamPart[] => [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'hello' },
    { type: 'text-end', id: 't' },
    ...extra,
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ];

  it('generate: llm_request (provider, model, messages) then llm_response with duration and success', async () => {
    const engine = await makeEngine(undefined, { home: tempDir('hw-ai-home-') });
    const events = observeEvents(engine);
    const model = wrapLanguageModel({
      model: new MockLanguageModelV3({ provider: 'mock-provider', modelId: 'mock-1', doGenerate: say('hi') }),
      middleware: hookwerkMiddleware(engine, { sessionId: 'sess-m' }),
    });
    await generateText({ model, system: 'be brief', prompt: 'hello' });
    await engine.drain();
    expect(events.map((e) => e.event)).toEqual(['llm_request', 'llm_response']);
    expect(events[0]).toMatchObject({
      session_id: 'sess-m',
      payload: { provider: 'mock-provider', model: 'mock-1', messages_count: 2 },
    });
    expect(events[1]?.payload).toMatchObject({ provider: 'mock-provider', model: 'mock-1', success: true });
    expect(events[1]?.payload.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('a failing model: llm_response with success false, and an error event; the error still reaches the caller', async () => {
    const engine = await makeEngine(undefined, { home: tempDir('hw-ai-home-') });
    const events = observeEvents(engine);
    const model = wrapLanguageModel({
      model: new MockLanguageModelV3({
        doGenerate: async () => {
          throw new Error('the provider is down');
        },
      }),
      middleware: hookwerkMiddleware(engine),
    });
    await expect(generateText({ model, prompt: 'hello', maxRetries: 0 })).rejects.toThrow(
      'the provider is down',
    );
    await engine.drain();
    expect(events.map((e) => [e.event, e.payload.success ?? e.payload.message])).toEqual([
      ['llm_request', undefined],
      ['llm_response', false],
      ['error', 'the provider is down'],
    ]);
    expect(events[2]?.payload.component).toBe('llm');
  });

  it('stream: llm_response when the stream ends; an error part makes it a failure', async () => {
    const engine = await makeEngine(undefined, { home: tempDir('hw-ai-home-') });
    const events = observeEvents(engine);
    const streaming = (chunks: LanguageModelV3StreamPart[]) =>
      wrapLanguageModel({
        model: new MockLanguageModelV3({
          doStream: async () => ({
            stream: simulateReadableStream({ chunks }),
          }),
        }),
        middleware: hookwerkMiddleware(engine),
      });
    const ok = streamText({ model: streaming(streamChunks()), prompt: 'hello' });
    expect(await ok.text).toBe('hello');
    const bad = streamText({
      model: streaming(streamChunks([{ type: 'error', error: new Error('stream broke') }])),
      prompt: 'hello',
      onError: () => {},
    });
    await bad.consumeStream();
    await engine.drain();
    expect(events.map((e) => [e.event, e.payload.success ?? e.payload.message ?? null])).toEqual([
      ['llm_request', null],
      ['llm_response', true],
      ['llm_request', null],
      ['llm_response', false],
      ['error', 'stream broke'],
    ]);
  });
});

describe('[G-PERM-1] gateTools over an engine of the policy dialect', () => {
  it('the user and the approved project policy decide the tools: denied ones never run and the model gets the rule; the rest run', async () => {
    const p = await policyProject();
    const ran: string[] = [];
    const tools = {
      Bash: tool({
        description: 'Runs a shell command',
        inputSchema: z.object({ command: z.string() }),
        execute: async ({ command }) => {
          ran.push(command);
          return `ran: ${command}`;
        },
      }),
      deploy: tool({
        description: 'Deploys',
        inputSchema: z.object({}),
        execute: async () => {
          ran.push('deploy');
          return 'deployed';
        },
      }),
    };
    const step = async (toolName: string, input: unknown) => {
      const model = scriptedModel(input, toolName);
      await generateText({
        model,
        prompt: 'go',
        tools: gateTools(p.engine, tools),
        stopWhen: stepCountIs(3),
      });
      return lastToolResult(model.doGenerateCalls[1]!.prompt);
    };
    // Options in any order and spelling: the rule reads the command [G-PERM-2].
    expect(await step('Bash', { command: 'rm -fr build' })).toEqual({
      type: 'error-text',
      value: USER_REASON,
    });
    expect(await step('deploy', {})).toEqual({ type: 'error-text', value: p.projectReason });
    expect(await step('Bash', { command: 'ls' })).toEqual({ type: 'text', value: 'ran: ls' });
    expect(ran).toEqual(['ls']);
    expect(p.engine.runs({ event: 'PreToolUse' }).filter((r) => r.cause === 'permission')).toHaveLength(2);
  });
});
