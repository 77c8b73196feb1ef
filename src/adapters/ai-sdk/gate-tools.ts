/**
 * [AD-AI-1] The Vercel AI SDK's tools, gated: each `execute` asks the engine first, under the
 * tool's key, and the same wrapper emits the observe events, so one tool call has one vocabulary
 * for the host. `ai` is used here as types only; the schema check of a rewrite loads it lazily.
 */
import type { Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { errorMessage } from '../../core/errno.ts';
import type { HookEngine } from '../../engine-api.ts';
import { ToolDeniedError } from '../tool-denied-error.ts';
import { emitError, emitToolEnd, emitToolStart } from '../tool-events.ts';
import { askBeforeTool, type ToolCall, tellAfterTool, tellToolFailed } from '../tool-gate.ts';

export interface GateToolsOptions {
  /** The session hooks see (`session_id` / `sessionId`) and observe events carry; default the engine's. */
  sessionId?: string;
}

type AnyTool = ToolSet[string];

/**
 * The same tools, each `execute` gated: a deny never runs it and throws a `ToolDeniedError` whose
 * message is the reason (the model gets it as the tool's error); `updatedInput` replaces the
 * arguments; `PostToolUse` follows with the output. Tools without `execute` are left as they are.
 */
export function gateTools<TOOLS extends ToolSet>(
  engine: HookEngine,
  tools: TOOLS,
  opts: GateToolsOptions = {},
): TOOLS {
  const gated = { ...tools };
  for (const key in tools) {
    const tool = tools[key];
    if (tool !== undefined) gated[key] = gateTool(engine, key, tool, opts);
  }
  return gated;
}

function gateTool<T extends AnyTool>(engine: HookEngine, name: string, tool: T, opts: GateToolsOptions): T {
  const original = tool.execute;
  if (original === undefined) return tool;
  const run = new GatedRun(engine, name, tool, opts);
  // A generator tool streams preliminary outputs; the wrapper keeps its kind (the AI SDK tells
  // them apart by the returned value, which must not become a promise of an iterable).
  const execute = isAsyncGeneratorFunction(original)
    ? async function* (input: unknown, options: ToolExecutionOptions) {
        const call = await run.before(input, options);
        let last: unknown;
        try {
          for await (const value of toIterable(original(call.input, options))) {
            last = value;
            yield value;
          }
        } catch (err) {
          await run.failed(call, err);
          throw err;
        }
        await run.after(call, last);
      }
    : async (input: unknown, options: ToolExecutionOptions) => {
        const call = await run.before(input, options);
        let output: unknown;
        try {
          output = await lastValue(original(call.input, options));
        } catch (err) {
          await run.failed(call, err);
          throw err;
        }
        await run.after(call, output);
        return output;
      };
  return { ...tool, execute };
}

/** The gate's side of one tool's calls. */
class GatedRun {
  constructor(
    readonly engine: HookEngine,
    readonly name: string,
    readonly tool: Pick<Tool, 'inputSchema'>,
    readonly opts: GateToolsOptions,
  ) {}

  /** Asks the gate; returns the call to run (with a hook's arguments), or throws its refusal. */
  async before(input: unknown, options: ToolExecutionOptions): Promise<ToolCall> {
    const asked: ToolCall = {
      tool: this.name,
      input,
      callId: options.toolCallId,
      sessionId: this.opts.sessionId,
    };
    const verdict = await askBeforeTool(this.engine, asked);
    if (!verdict.run) throw new ToolDeniedError(this.name, verdict.reason, verdict.stop, verdict.decision);
    const call = verdict.rewritten ? { ...asked, input: await this.#checked(verdict.input, verdict) } : asked;
    emitToolStart(this.engine, call);
    return call;
  }

  /**
   * A hook's arguments must fit the tool's input schema as the model's had to (the AI SDK checked
   * those): a rewrite that does not is refused, never run unchecked, nor silently dropped.
   */
  async #checked(input: unknown, verdict: { decision: ToolDeniedError['decision'] }): Promise<unknown> {
    const { asSchema } = await import('ai');
    const schema = asSchema(this.tool.inputSchema);
    if (schema.validate === undefined) return input;
    const result = await schema.validate(input);
    if (result.success) return result.value;
    throw new ToolDeniedError(
      this.name,
      `a hook's updatedInput does not fit the input schema of ${this.name}: ${errorMessage(result.error)}`,
      false,
      verdict.decision,
    );
  }

  async after(call: ToolCall, output: unknown): Promise<void> {
    emitToolEnd(this.engine, call, true, output);
    const after = await tellAfterTool(this.engine, call, output);
    if (after.withheld) throw new ToolDeniedError(this.name, after.reason, false, after.decision);
  }

  async failed(call: ToolCall, err: unknown): Promise<void> {
    emitToolEnd(this.engine, call, false, errorMessage(err));
    emitError(this.engine, 'tool', `${this.name}: ${errorMessage(err)}`, call.sessionId);
    await tellToolFailed(this.engine, call, err);
  }
}

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return typeof fn === 'function' && Object.prototype.toString.call(fn) === '[object AsyncGeneratorFunction]';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function* toIterable(value: unknown): AsyncIterable<unknown> {
  if (isAsyncIterable(value)) yield* value;
  else yield await value;
}

/** An iterable from a plain function (rare): its last value is the output, as the AI SDK takes it. */
async function lastValue(value: unknown): Promise<unknown> {
  if (!isAsyncIterable(value)) return value;
  let last: unknown;
  for await (const v of value) last = v;
  return last;
}
