import { existsSync } from 'node:fs';
import { pinOf } from '../consent/trust-store.ts';
import { type Decision, type GateHook, runGate } from '../dispatch/gate-sequential.ts';
import {
  isLurusEvent,
  LURUS_EVENT_NAMES,
  LURUS_EVENTS,
  type LurusContext,
  type LurusEnvelope,
  type LurusEventName,
} from '../events/lurus-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import { compileMatcher } from '../registry/matcher.ts';
import { runHttp } from '../runners/http-runner.ts';
import { runProcess } from '../runners/process-runner.ts';
import { primaryScriptOf, projectPathsOf } from '../sources/command-words.ts';
import { type LurusConfig, type LurusHook, loadLurusConfig } from '../sources/lurus-source.ts';
import {
  commandVerdict,
  type HookVerdict,
  httpVerdict,
  lurusHookEnv,
  missingScriptVerdict,
  readAnswer,
} from './lurus-dialect.ts';

/** What an in-process gate hook may answer; `undefined` means allow. */
export type GateAnswer =
  | { decision: 'allow' | 'deny'; reason?: string; additionalContext?: string }
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: lets `async (ctx) => {}` (no return: allow) type-check.
  | void;

export type InProcessGateHook = (
  context: LurusContext,
  info: { event: LurusEventName; signal: AbortSignal; cwd: string },
) => GateAnswer | Promise<GateAnswer>;

export interface UseOptions {
  matcher?: string;
  /** ms; default 30 000. */
  timeout?: number;
  failMode?: 'open' | 'closed';
  /** Name in records; default `in-process:<event>#<n>`. */
  name?: string;
}

export interface GateOptions {
  projectDir: string;
  home?: string;
  /** Parent environment the hook allowlist is taken from; default `process.env` at load. */
  env?: NodeJS.ProcessEnv;
  /** Decides whether project hooks may run (consent); default: all trusted. */
  trust?: (config: LurusConfig) => GateTrust;
  onRecord(record: RunRecord): void;
}

const DEFAULT_IN_PROCESS_TIMEOUT_MS = 30_000;

/** The consent state of the project sources; `approved.files` are the pins checked again before each run. */
export interface GateTrust {
  trusted: boolean;
  reason: string;
  approved?: { files: Readonly<Record<string, string | null>> };
}

/**
 * The gate dialect [§2]: sources read at start and on `reload()` (never automatically [L-SRC-4]),
 * in-process hooks, and `decide()`.
 */
export class LurusGate {
  readonly #opts: GateOptions;
  #config!: LurusConfig;
  #hookEnv: Record<string, string> = {};
  #fileHooks = new Map<LurusEventName, GateHook[]>();
  #inProcess = new Map<LurusEventName, GateHook[]>();
  #merged = new Map<LurusEventName, readonly GateHook[]>();
  #trust: GateTrust = { trusted: true, reason: '' };
  #inProcessCount = 0;

  constructor(opts: GateOptions) {
    this.#opts = opts;
    this.reload();
  }

  get config(): LurusConfig {
    return this.#config;
  }

  get trust(): GateTrust {
    return this.#trust;
  }

  /** Re-reads every source; invalid ones are skipped and listed in `config.issues`. */
  reload(): LurusConfig {
    const config = loadLurusConfig({
      projectDir: this.#opts.projectDir,
      ...(this.#opts.home !== undefined ? { home: this.#opts.home } : {}),
    });
    this.#config = config;
    this.#hookEnv = lurusHookEnv(this.#opts.env ?? process.env);
    this.#trust = this.#opts.trust?.(config) ?? { trusted: true, reason: '' };
    this.#fileHooks = new Map();
    for (const hook of config.all) {
      const list = this.#fileHooks.get(hook.event) ?? [];
      list.push(this.#gateHookOf(hook));
      this.#fileHooks.set(hook.event, list);
    }
    this.#merge();
    return config;
  }

  #gateHookOf(hook: LurusHook): GateHook {
    const trusted = hook.scope === 'global' || this.#trust.trusted;
    const base = { name: hook.name, source: hook.source, matcher: hook.matcher, trusted };
    if (hook.kind === 'command') {
      const pins = hook.scope === 'project' ? this.#trust.approved?.files : undefined;
      const script = primaryScriptOf(hook.command, this.#config.projectDir, this.#config.home);
      return {
        ...base,
        // Consent pins content: a script edited after approval (even mid-session) must not run.
        ...(pins !== undefined
          ? { verify: changedSinceApproval(projectPathsOf(hook.command, this.#config.projectDir), pins) }
          : {}),
        run: async (_envelope, json) =>
          script !== undefined && !existsSync(script)
            ? missingScriptVerdict(hook, script)
            : commandVerdict(
                hook,
                await runProcess({
                  command: '/bin/sh',
                  args: ['-c', hook.command],
                  env: this.#hookEnv,
                  cwd: this.#config.projectDir,
                  stdin: `${json()}\n`,
                  timeoutMs: hook.timeoutMs,
                }),
              ),
      };
    }
    return {
      ...base,
      run: async (_envelope, json) =>
        httpVerdict(
          hook,
          await runHttp({
            url: hook.url,
            method: hook.method,
            headers: hook.headers,
            body: json(),
            timeoutMs: hook.timeoutMs,
          }),
        ),
    };
  }

  /** In-process hooks run first, in registration order, then the file sources in their merge order. */
  #merge(): void {
    this.#merged = new Map();
    for (const event of LURUS_EVENT_NAMES) {
      const list = [...(this.#inProcess.get(event) ?? []), ...(this.#fileHooks.get(event) ?? [])];
      if (list.length > 0) this.#merged.set(event, list);
    }
  }

  /** (beyond) An in-process gate hook: same order, timeout, fail-open/closed and records as command hooks. */
  use(event: string, opts: UseOptions, fn: InProcessGateHook): () => void {
    if (!isLurusEvent(event)) throw new TypeError(`unknown gate event "${event}"`);
    if (typeof fn !== 'function') throw new TypeError('hook must be a function');
    const matcher = compileMatcher(opts.matcher);
    if (matcher.error !== undefined) throw new TypeError(matcher.error);
    const timeoutMs = opts.timeout ?? DEFAULT_IN_PROCESS_TIMEOUT_MS;
    const failMode = opts.failMode ?? 'open';
    const hook: GateHook = {
      name: opts.name ?? `in-process:${event}#${++this.#inProcessCount}`,
      source: 'in-process',
      matcher,
      trusted: true,
      run: (envelope) => runInProcess(fn, envelope, timeoutMs, failMode),
    };
    const list = this.#inProcess.get(event) ?? [];
    list.push(hook);
    this.#inProcess.set(event, list);
    this.#merge();
    return () => {
      const current = this.#inProcess.get(event);
      const i = current?.indexOf(hook) ?? -1;
      if (current && i >= 0) {
        current.splice(i, 1);
        this.#merge();
      }
    };
  }

  /** [§2.5] Runs the gate for one event. Throws TypeError only for a wrong event or a non-object context. */
  decide(event: string, context: unknown): Promise<Decision> {
    if (!isLurusEvent(event)) {
      throw new TypeError(`unknown gate event "${event}"; expected one of ${LURUS_EVENT_NAMES.join(', ')}`);
    }
    if (typeof context !== 'object' || context === null || Array.isArray(context)) {
      throw new TypeError('context must be an object');
    }
    const ctx: LurusContext = Object.assign<LurusContext, object>({}, context);
    const hooks = this.#merged.get(event);
    if (hooks === undefined) return Promise.resolve({ decision: 'allow', blocked: false, runs: [] });
    const target =
      typeof ctx.toolName === 'string'
        ? ctx.toolName
        : typeof ctx.trigger === 'string'
          ? ctx.trigger
          : undefined;
    const envelope: LurusEnvelope = { event, context: ctx, cwd: this.#config.projectDir };
    return runGate(envelope, target, LURUS_EVENTS[event].canBlock, hooks, this.#opts.onRecord);
  }
}

function changedSinceApproval(
  files: readonly string[],
  pins: Readonly<Record<string, string | null>>,
): () => string | undefined {
  return () => {
    for (const file of files) {
      if (pinOf(file) !== pins[file]) return `${file} changed since approval: run \`hookwerk trust\``;
    }
    return undefined;
  };
}

async function runInProcess(
  fn: InProcessGateHook,
  envelope: LurusEnvelope,
  timeoutMs: number,
  failMode: 'open' | 'closed',
): Promise<HookVerdict> {
  const start = performance.now();
  const info = new HookInfo(envelope.event, envelope.cwd);
  const fail = (outcome: 'error' | 'timeout', cause: string, reason: string): HookVerdict => ({
    outcome,
    cause,
    reason,
    durationMs: performance.now() - start,
    decision: failMode === 'closed' ? 'deny' : 'allow',
    failed: failMode,
  });
  let answer: GateAnswer | typeof TIMED_OUT;
  let timer: NodeJS.Timeout | undefined;
  try {
    const returned = fn(envelope.context, info);
    if (isThenable(returned)) {
      // Only a pending answer needs the clock.
      const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
      });
      answer = await Promise.race([returned, timedOut]);
    } else {
      answer = returned;
    }
  } catch (err) {
    return fail('error', 'exception', err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
  }
  if (answer === TIMED_OUT) {
    info.abort();
    return fail('timeout', 'timeout', `in-process hook did not settle within ${timeoutMs} ms`);
  }
  if (answer === undefined)
    return { outcome: 'ok', decision: 'allow', durationMs: performance.now() - start };
  // Same contract as a command's stdout: a hand-built object is checked like outside JSON.
  const parsed = readAnswer(answer);
  if ('invalid' in parsed) return fail('error', 'invalid_answer', parsed.invalid);
  // Built field by field: conditional spreads cost µs per call on Node 20.
  const verdict: HookVerdict = {
    outcome: parsed.decision === 'deny' ? 'deny' : 'ok',
    decision: parsed.decision,
    durationMs: performance.now() - start,
  };
  if (parsed.reason !== undefined) verdict.reason = parsed.reason;
  if (parsed.additionalContext !== undefined) verdict.additionalContext = parsed.additionalContext;
  return verdict;
}

const TIMED_OUT = Symbol('timed out');

/** What an in-process hook gets besides the context; its AbortSignal is made only if it asks. */
class HookInfo {
  #controller: AbortController | undefined;
  constructor(
    readonly event: LurusEventName,
    readonly cwd: string,
  ) {}

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  abort(): void {
    this.#controller?.abort();
  }
}

function isThenable(value: unknown): value is PromiseLike<GateAnswer> {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'then') === 'function';
}
