/**
 * The gate of a Claude-style dialect (Claude Code, Gemini CLI, and those that copy them): the
 * caller's input filled in as that agent does [C-IN-1], the hooks its matchers select run all at
 * once and merged in configuration order [C-RUN-2, C-ANS-4]. Each such dialect is a spec; this
 * makes its plugin.
 */
import { HookInputError } from '../../core/errors.ts';
import type { AgentAnswer, AgentDecision } from '../../dispatch/agent-answer.ts';
import { decideRulesNow, type ParallelDialect, runAgentGate } from '../../dispatch/gate-parallel.ts';
import type { AgentDialectName, AgentHook } from '../../registry/hook-definition.ts';
import type { AgentConfig } from '../../sources/agent-config.ts';
import type { AgentGatePlugin, DialectCliFlags, DialectOptions, GateLoadBase } from './gate-dialect.ts';
import { layerSteps } from './layer-steps.ts';
import type { AgentProtocol } from './protocol.ts';
import { runRuleAgentHook } from './rule-run.ts';
import { runAgentHook, runInProcessAgentHook } from './run.ts';
import { decideWithUnusable } from './unusable-sources.ts';

/** Everything one Claude-style dialect is. */
export interface AgentDialectSpec extends AgentProtocol {
  readonly name: AgentDialectName;
  readonly label: string;
  /** [G-RUN-1] A definition may ask for `sequential`. */
  readonly sequentialDefinitions: boolean;
  load(base: GateLoadBase, options: DialectOptions): AgentConfig;
  /** Why `event` is not one of the agent's, or undefined (Claude Code takes any name). */
  unknownEvent(event: string): string | undefined;
  /** [C-IN-1] The caller's input with what the agent fills in. */
  input(
    event: string,
    given: object,
    defaults: { sessionId: string; projectDir: string },
  ): Record<string, unknown>;
  /** The input field the event's matchers test, if any. */
  matchField(event: string): string | undefined;
  /** Its options from the command line's flags; default none. */
  cliOptions?(flags: DialectCliFlags): DialectOptions;
  /** The value the event's matchers test. */
  matchTarget(event: string, input: Record<string, unknown>): string | undefined;
  /** May give `env` (Cursor's sessionStart `env`); what hooks wrote to `CLAUDE_ENV_FILE` is laid over it. */
  merge(
    event: string,
    answers: readonly AgentAnswer[],
    input: Record<string, unknown>,
  ): Omit<AgentDecision, 'runs'>;
  fold?(event: string, input: Record<string, unknown>, answer: AgentAnswer): Record<string, unknown>;
  /** [A-COP-1] Every event's hooks run one after another, in configuration order. */
  readonly inOrder?: boolean;
  /**
   * [A-COP-1] The name hooks are configured under for an event the caller may name otherwise
   * (Copilot CLI: `PreToolUse` is `preToolUse`); default: the name as given.
   */
  canonicalEvent?(event: string): string;
  /** [A-COP-1] With `inOrder`: this answer ends the run (later hooks are not run). */
  stopsAfter?(event: string, answer: AgentAnswer): boolean;
  /**
   * [A-COP-1] The input as this hook gets it, for an agent whose hooks get different forms of one
   * event's input (Copilot CLI: by the casing of the event key); default: `input` itself.
   */
  hookInput?(hook: AgentHook, input: Record<string, unknown>): Record<string, unknown>;
}

export function agentGate(spec: AgentDialectSpec): AgentGatePlugin {
  const parallel: ParallelDialect = {
    name: spec.name,
    sequentialDefinitions: spec.sequentialDefinitions,
    run: (hook, event, input, ctx, signal, deadline) =>
      runAgentHook(hook, event, spec.hookInput?.(hook, input) ?? input, ctx, spec, signal, deadline),
    runRule: (hook, event, input, facts) =>
      runRuleAgentHook(hook, event, spec.hookInput?.(hook, input) ?? input, facts, spec),
    runInProcess: runInProcessAgentHook,
    merge: (event, answers, input) => spec.merge(event, answers, input),
    ...(spec.fold !== undefined ? { fold: spec.fold } : {}),
    ...(spec.inOrder === true ? { inOrder: true } : {}),
    ...(spec.stopsAfter !== undefined ? { stopsAfter: spec.stopsAfter } : {}),
  };
  return {
    name: spec.name,
    label: spec.label,
    load: (base, options) => spec.load(base, options),
    explainTarget: (event, given) => spec.matchTarget(event, given),
    matchField: (event) => spec.matchField(event),
    cliOptions: (flags) => spec.cliOptions?.(flags) ?? {},
    decide(named, given, rt, call) {
      const unknown = spec.unknownEvent(named);
      if (unknown !== undefined) return Promise.reject(new HookInputError('event', unknown));
      const event = spec.canonicalEvent?.(named) ?? named;
      if (event === '' || event.includes('\0'))
        return Promise.reject(new HookInputError('event', 'the event name must be a non-empty string'));
      let input: Record<string, unknown>;
      try {
        input = spec.input(event, given, { sessionId: rt.sessionId, projectDir: rt.projectDir() });
      } catch (err) {
        return Promise.reject(err);
      }
      // Issue 11: session_id becomes GEMINI_SESSION_ID and cwd the hook's folder; NUL fails the spawn.
      for (const field of ['session_id', 'cwd'] as const) {
        const value = input[field];
        if (typeof value === 'string' && value.includes('\0'))
          return Promise.reject(new HookInputError(`context.${field}`, `${field} contains a NUL byte`));
      }
      const entries = rt.select(event, spec.matchTarget(event, input));
      const run = (): Promise<AgentDecision> => {
        // [G-PERM-1] The layers before the hooks: a deny stops here, no hook runs.
        const layers = rt.layers();
        const before = layers.length === 0 ? [] : layerSteps(layers, spec.name, event, input, rt, call);
        const denied = before.find((b) => b.answer.block === true);
        if (denied !== undefined) {
          const merged = spec.merge(event, [denied.answer], input);
          return Promise.resolve({ ...merged, runs: before.map((b) => b.record) });
        }
        if (entries.length === 0 && before.length === 0)
          return Promise.resolve({ decision: 'allow', blocked: false, continue: true, runs: [] });
        // [G-PERM-1, T-MGD-1] A hook's rewrite is what the agent runs: the layers judge it
        // too, so that no hook (a user's, under a managed policy) rewrites a call past a deny.
        const judged = (decided: AgentDecision): AgentDecision => {
          if (layers.length === 0 || decided.blocked || decided.updatedInput === undefined) return decided;
          const rewritten = { ...input, tool_input: decided.updatedInput };
          const after = layerSteps(layers, spec.name, event, rewritten, rt, call);
          const deniedAfter = after.find((b) => b.answer.block === true);
          if (deniedAfter === undefined) return decided;
          const merged = spec.merge(event, [deniedAfter.answer], input);
          return { ...merged, runs: [...decided.runs, ...after.map((b) => b.record)] };
        };
        // [G-PERF-1] Only rules: decided here and now, beside the permissions and guards.
        try {
          const now = decideRulesNow(parallel, event, input, entries, rt, call, before);
          if (now !== undefined) return Promise.resolve(judged(now));
        } catch (err) {
          return Promise.reject(err);
        }
        rt.begin();
        return runAgentGate(parallel, event, input, entries, rt, call, before).then(judged).finally(rt.done);
      };
      // [G-FAIL-1] A source that cannot be used closes the gate here, once, for every caller.
      const unusable = rt.unusable();
      if (unusable === undefined) return run();
      const ctx = {
        event,
        input,
        dialect: spec.name,
        sessionId: rt.sessionId,
        ...(call !== undefined ? { call } : {}),
      };
      return decideWithUnusable(unusable, ctx, rt.record, run);
    },
  };
}
