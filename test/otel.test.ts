/**
 * [AD-OTEL-1] Hook runs as OpenTelemetry spans, with the real SDK (`@opentelemetry/sdk-trace-base`
 * 2.x: BasicTracerProvider, SimpleSpanProcessor, InMemorySpanExporter) registered as a host does,
 * and the real AsyncLocalStorage context manager where the host's own active span matters.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  context,
  type Span,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { closeEngines, makeEngine } from './engine-harness.ts';
import { tempDir, writeHooks, writeScript } from './helpers.ts';

const trustAll = () => ({ trusted: true, reason: 'test' });
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider | undefined;

/** Registers the real SDK as a host does; the previous registration is removed first. */
async function register(options: ConstructorParameters<typeof BasicTracerProvider>[0] = {}): Promise<void> {
  await unregister();
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ ...options, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
}

async function unregister(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
  trace.disable();
}

beforeEach(() => register());
afterEach(async () => {
  await closeEngines();
  await unregister();
  context.disable();
});

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const named = (name: string): ReadableSpan[] => spans().filter((s) => s.name === name);
const one = (name: string): ReadableSpan => {
  const found = named(name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};
const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;
const idOf = (s: ReadableSpan): string => s.spanContext().spanId;

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

/** A Lurus engine over a project whose PreToolUse hooks are `hooks` (none: no file). */
async function lurusEngine(hooks: readonly Record<string, unknown>[], extra: HookEngineOptions = {}) {
  const dir = tempDir('hw-otel-');
  if (hooks.length > 0) writeJson(path.join(dir, '.lurus', 'hooks.json'), { PreToolUse: [{ hooks }] });
  return makeEngine(undefined, {
    projectDir: dir,
    home: tempDir('hw-otel-home-'),
    trust: trustAll,
    ...extra,
  });
}

describe('[AD-OTEL-1] decide: one span over its hooks’ runs', () => {
  it('[AD-OTEL-1] Lurus: the decide span is the parent of each run’s span; attributes name hook, source, dialect, event, agent, outcome, cause, exit code, tool, session; a failing hook’s span has status ERROR', async () => {
    // A Lurus hook is named by its command.
    const engine = await lurusEngine([
      { type: 'command', command: 'echo \'{"decision":"allow"}\'' },
      { type: 'command', command: 'exit 3' },
    ]);
    engine.use('PreToolUse', { name: 'in-process-guard' }, () => ({ decision: 'allow' }));
    const d = await engine.decide(
      'PreToolUse',
      { toolName: 'Bash', sessionId: 's-otel' },
      { agent: 'my-runtime' },
    );
    expect(d.decision).toBe('allow');
    const decide = one('decide PreToolUse');
    expect(decide.attributes).toMatchObject({
      'hookwerk.event': 'PreToolUse',
      'hookwerk.dialect': 'lurus',
      'hookwerk.agent': 'my-runtime',
      'hookwerk.session_id': 's-otel',
      'hookwerk.tool_name': 'Bash',
      'hookwerk.decision': 'allow',
      'hookwerk.blocked': false,
      'hookwerk.runs': 3,
    });
    expect(decide.status.code).toBe(SpanStatusCode.UNSET);
    const runs = spans().filter((s) => s.name.startsWith('hook '));
    expect(runs.map((s) => s.name).sort()).toEqual([
      'hook echo \'{"decision":"allow"}\'',
      'hook exit 3',
      'hook in-process-guard',
    ]);
    for (const run of runs) {
      expect(parentOf(run)).toBe(idOf(decide));
      expect(run.spanContext().traceId).toBe(decide.spanContext().traceId);
    }
    const fails = one('hook exit 3');
    expect(fails.attributes).toMatchObject({
      'hookwerk.hook': 'exit 3',
      'hookwerk.source': expect.stringContaining('.lurus/hooks.json'),
      'hookwerk.dialect': 'lurus',
      'hookwerk.event': 'PreToolUse',
      'hookwerk.agent': 'my-runtime',
      'hookwerk.outcome': 'error',
      'hookwerk.cause': 'exit_code',
      'hookwerk.exit_code': 3,
      'hookwerk.tool_name': 'Bash',
      'hookwerk.session_id': 's-otel',
      'hookwerk.decision': 'allow',
      'hookwerk.failed': 'open',
    });
    expect(fails.status).toEqual({ code: SpanStatusCode.ERROR, message: 'exited with code 3' });
    const allows = one('hook echo \'{"decision":"allow"}\'');
    expect(allows.attributes).toMatchObject({ 'hookwerk.outcome': 'ok', 'hookwerk.exit_code': 0 });
    expect(allows.status.code).toBe(SpanStatusCode.UNSET);
    expect(one('hook in-process-guard').attributes['hookwerk.source']).toBe('in-process');
    // The decide's span ended after every run's (spans are exported as they end).
    expect(spans().at(-1)).toBe(decide);
  });

  it('[AD-OTEL-1] Claude Code, all at once: each hook a child span; a timeout’s span has status ERROR', async () => {
    const project = tempDir('hw-otel-claude-');
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'sleep 30', timeout: 1 }] },
        ],
      },
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home: tempDir('hw-otel-claude-home-'),
      gateDialect: 'claude',
      claude: { managedSettings: path.join(project, 'none.json') },
      trust: trustAll,
    });
    await engine.decide('PreToolUse', { tool_name: 'Bash', tool_input: {}, session_id: 's-c' });
    const decide = one('decide PreToolUse');
    expect(decide.attributes).toMatchObject({ 'hookwerk.dialect': 'claude', 'hookwerk.session_id': 's-c' });
    const runs = spans().filter((s) => s.name.startsWith('hook '));
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(parentOf(run)).toBe(idOf(decide));
    const timedOut = runs.find((s) => s.attributes['hookwerk.outcome'] === 'timeout');
    expect(timedOut?.status.code).toBe(SpanStatusCode.ERROR);
    expect(timedOut?.attributes).toMatchObject({ 'hookwerk.cause': 'timeout', 'hookwerk.tool_name': 'Bash' });
  });

  it('[AD-OTEL-1] under a context manager the host’s active span is the decide’s parent, and an in-process hook’s own span nests under its run', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const engine = await lurusEngine([{ type: 'command', command: `echo '{"decision":"allow"}'` }]);
    const tracer = trace.getTracer('host');
    engine.use('PreToolUse', { name: 'traced' }, async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      tracer.startSpan('inside the hook').end();
      return { decision: 'allow' };
    });
    await tracer.startActiveSpan('agent step', async (step: Span) => {
      await engine.decide('PreToolUse', { toolName: 'Bash' });
      step.end();
    });
    const step = one('agent step');
    const decide = one('decide PreToolUse');
    expect(parentOf(decide)).toBe(idOf(step));
    const runs = spans().filter((s) => s.name.startsWith('hook '));
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(parentOf(run)).toBe(idOf(decide));
    expect(parentOf(one('inside the hook'))).toBe(idOf(one('hook traced')));
  });

  it('[AD-OTEL-1] [AD-ALL-1] an aborted decide: its span has status ERROR, the stopped run’s span cause aborted', async () => {
    const engine = await lurusEngine([]);
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    engine.use('PreToolUse', { name: 'waits' }, (_ctx, { signal }) => {
      started();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined)));
    });
    const controller = new AbortController();
    const deciding = engine.decide('PreToolUse', { toolName: 'Bash' }, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(deciding).rejects.toMatchObject({ name: 'AbortError' });
    const decide = one('decide PreToolUse');
    expect(decide.status.code).toBe(SpanStatusCode.ERROR);
    expect(decide.attributes['hookwerk.aborted']).toBe(true);
    const run = one('hook waits');
    expect(parentOf(run)).toBe(idOf(decide));
    expect(run.attributes).toMatchObject({ 'hookwerk.outcome': 'error', 'hookwerk.cause': 'aborted' });
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('[AD-OTEL-1] emit: one span over its observe runs', () => {
  it('[AD-OTEL-1] the emit span is the parent of its runs’ spans and ends with the last of them (emit returned long before)', async () => {
    const ws = tempDir('hw-otel-ws-');
    const fails = writeScript(ws, 'fails.sh', 'exit 4');
    writeHooks(ws, {
      tool_call: [
        { id: 'ok-shell', command: '/bin/true' },
        { id: 'failing-shell', command: fails },
      ],
    });
    const engine: HookEngine = await makeEngine(ws);
    engine.use('tool_call', () => {}, { name: 'observer' });
    engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' }, { sessionId: 's-emit' });
    // emit() returned: its span is still open, waiting for its runs.
    expect(named('emit tool_call')).toEqual([]);
    await engine.drain();
    const emit = one('emit tool_call');
    expect(emit.attributes).toMatchObject({
      'hookwerk.event': 'tool_call',
      'hookwerk.dialect': 'prx',
      'hookwerk.session_id': 's-emit',
      'hookwerk.depth': 1,
      'hookwerk.runs': 3,
    });
    const runs = spans().filter((s) => s.name.startsWith('hook '));
    expect(runs.map((s) => s.name).sort()).toEqual(['hook failing-shell', 'hook observer', 'hook ok-shell']);
    for (const run of runs) {
      expect(parentOf(run)).toBe(idOf(emit));
      expect(run.attributes).toMatchObject({ 'hookwerk.session_id': 's-emit', 'hookwerk.dialect': 'prx' });
    }
    // It ended with the last of them (spans are exported as they end).
    expect(spans().at(-1)).toBe(emit);
    const failing = one('hook failing-shell');
    expect(failing.attributes).toMatchObject({ 'hookwerk.outcome': 'error', 'hookwerk.exit_code': 4 });
    expect(failing.status.code).toBe(SpanStatusCode.ERROR);
    expect(one('hook ok-shell').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('[AD-OTEL-1] a run dropped at the queue bound is a span too (outcome dropped), and the emit span still ends', async () => {
    const ws = tempDir('hw-otel-drop-');
    writeHooks(ws, {
      tool_call: [
        { id: 'a', command: '/bin/true' },
        { id: 'b', command: '/bin/true' },
      ],
    });
    const engine = await makeEngine(ws, { maxConcurrent: 1, maxQueue: 0 });
    engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
    await engine.drain();
    const emit = one('emit tool_call');
    const runs = spans().filter((s) => s.name.startsWith('hook '));
    expect(runs.map((s) => s.attributes['hookwerk.outcome']).sort()).toEqual(['dropped', 'ok']);
    for (const run of runs) expect(parentOf(run)).toBe(idOf(emit));
  });
});

describe('[AD-OTEL-1] without a provider, or unsampled', () => {
  it('[AD-OTEL-1] no provider registered: decide and emit work and nothing is recorded', async () => {
    const kept = exporter;
    await unregister();
    const engine = await lurusEngine([{ type: 'command', command: `echo '{"decision":"allow"}'` }]);
    const ws = tempDir('hw-otel-none-');
    writeHooks(ws, { tool_call: [{ id: 'a', command: '/bin/true' }] });
    const observe = await makeEngine(ws);
    expect((await engine.decide('PreToolUse', { toolName: 'Bash' })).runs[0]?.outcome).toBe('ok');
    observe.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
    await observe.drain();
    expect(observe.runs()[0]?.outcome).toBe('ok');
    expect(kept.getFinishedSpans()).toEqual([]);
  });

  it('[AD-OTEL-1] a sampler that records nothing: no run spans are started, nothing is exported', async () => {
    await register({ sampler: new AlwaysOffSampler() });
    const engine = await lurusEngine([{ type: 'command', command: `echo '{"decision":"allow"}'` }]);
    expect((await engine.decide('PreToolUse', { toolName: 'Bash' })).decision).toBe('allow');
    expect(spans()).toEqual([]);
  });

  it('[AD-OTEL-1] spans that do not record get no attributes built: only the scope span is started', async () => {
    // A host's provider whose spans never record (a sampler's "drop"): count what is asked of it.
    const calls: string[] = [];
    const noted = (what: string) => (): Span => {
      calls.push(what);
      return quiet;
    };
    const quiet: Span = {
      spanContext: () => ({ traceId: `${'0'.repeat(31)}1`, spanId: `${'0'.repeat(15)}1`, traceFlags: 0 }),
      setAttribute: noted('setAttribute'),
      setAttributes: noted('setAttributes'),
      addEvent: () => quiet,
      addLink: () => quiet,
      addLinks: () => quiet,
      setStatus: noted('setStatus'),
      updateName: () => quiet,
      end: () => {
        calls.push('end');
      },
      isRecording: () => false,
      recordException: () => {},
    };
    const tracer: Tracer = {
      startSpan: (name) => noted(`start ${name}`)(),
      startActiveSpan: () => {
        throw new Error('not used');
      },
    };
    const quietProvider: TracerProvider = { getTracer: () => tracer };
    await unregister();
    trace.setGlobalTracerProvider(quietProvider);
    const engine = await lurusEngine([{ type: 'command', command: `echo '{"decision":"allow"}'` }]);
    await engine.decide('PreToolUse', { toolName: 'Bash' }, { agent: 'x' });
    expect(calls).toEqual(['start decide PreToolUse', 'end']);
  });
});
