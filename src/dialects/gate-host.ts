/**
 * The engine's gate: one dialect from the table, its sources as loaded, what it is lent of the
 * engine (made once), and the decides in progress that `close()` waits for. It reloads the
 * sources when consent changes [L-TRUST-7], and never asks which dialect it holds. It turns a
 * decide's signal into an AbortError [AD-ALL-1] and opens the decide's span [AD-OTEL-1].
 */

import type { Tracer } from '@opentelemetry/api';
import { actionViewOf } from '../action/action-view.ts';
import type { ConsentPolicy } from '../consent/project-admission.ts';
import { TrustPoll } from '../consent/trust-poll.ts';
import { type ConfigIssue, formatIssue } from '../core/issues.ts';
import type { LazyPrivateTempDir } from '../core/private-temp-dir.ts';
import { AbortError } from '../dispatch/abort-error.ts';
import type { DecideCall, DecideOptions } from '../dispatch/decide-call.ts';
import type { GateLayer, LayerLine } from '../dispatch/gate-layer.ts';
import { runSubject, stampSubject } from '../dispatch/run-subject.ts';
import type { LurusEventName } from '../events/lurus-events.ts';
import type { Logger } from '../records/logger.ts';
import type { RunRecord } from '../records/run-record.ts';
import { activeTracer, TraceScope } from '../records/run-trace.ts';
import { MAX_RECORD_FIELD_BYTES } from '../records/truncate-record.ts';
import { type PlannedCall, plannedCallOf } from '../registry/gate-plan.ts';
import type { GateEntry } from '../registry/hook-definition.ts';
import type { Runners } from '../runners/runners.ts';
import type { DialectOptions, GateDecision, GateDialectPlugin, GateRuntime } from './agent/gate-dialect.ts';
import type { GateConfig, GateDialect } from './gate-dialects.ts';

const NO_LAYERS: readonly GateLayer[] = [];

interface GateHostOptions {
  dialect: GateDialect;
  /** The dialect itself, loaded from the table (`loadGateDialect`). */
  plugin: GateDialectPlugin<GateConfig>;
  projectDir: string;
  home: string | undefined;
  env: NodeJS.ProcessEnv | undefined;
  consent: ConsentPolicy;
  /** Each dialect's own options, under its name. */
  options: DialectOptions;
  runners: Runners;
  tmpDir: LazyPrivateTempDir;
  sessionId: string;
  logger: Logger;
  /** The registry's selection, and how a load puts the gate's entries into it. */
  select(event: string, target: string | undefined): readonly GateEntry[];
  setEntries(entries: readonly GateEntry[]): void;
  record(record: RunRecord): void;
}

export class GateHost {
  readonly dialect: GateDialect;
  readonly #plugin: GateDialectPlugin<GateConfig>;
  readonly #opts: GateHostOptions;
  readonly #trustPoll: TrustPoll;
  readonly #runtime: GateRuntime;
  #config!: GateConfig;
  /** The unapproved-source lines the last load warned of. */
  #toldUnapproved: ReadonlySet<string> = new Set();
  /** Decisions in progress, and who waits for there to be none (close()). */
  #deciding = 0;
  #settledWaiters: Array<() => void> = [];
  readonly #settled = (): void => {
    if (--this.#deciding > 0) return;
    for (const wake of this.#settledWaiters.splice(0)) wake();
  };

  constructor(opts: GateHostOptions) {
    this.dialect = opts.dialect;
    this.#plugin = opts.plugin;
    this.#opts = opts;
    this.#trustPoll = new TrustPoll(opts.consent);
    this.#runtime = {
      runners: opts.runners,
      tmpDir: opts.tmpDir,
      sessionId: opts.sessionId,
      projectDir: () => this.#config.projectDir,
      home: () => this.#config.home,
      select: opts.select,
      unusable: () => ('unusable' in this.#config ? this.#config.unusable : undefined),
      layers: () => ('layers' in this.#config ? (this.#config.layers ?? NO_LAYERS) : NO_LAYERS),
      record: opts.record,
      begin: () => {
        this.#deciding++;
      },
      done: this.#settled,
      background: (run) => {
        this.#deciding++;
        run.then(this.#settled, this.#settled);
      },
      remote: undefined,
    };
    this.reload();
  }

  get config(): GateConfig {
    return this.#config;
  }

  get trust(): { trusted: boolean; reason: string; pending: readonly string[] } {
    const c = this.#config.consent;
    return { trusted: c.trusted, reason: c.reason, pending: c.pending };
  }

  /** [L-SRC-4] Gate sources are read at start and on request, and when consent changes [L-TRUST-7]. */
  reload(): GateConfig {
    const o = this.#opts;
    const base = {
      projectDir: o.projectDir,
      ...(o.home !== undefined ? { home: o.home } : {}),
      ...(o.env !== undefined ? { env: o.env } : {}),
      consent: o.consent,
    };
    const config = this.#plugin.load(base, o.options);
    this.#config = config;
    o.setEntries(config.entries);
    this.#trustPoll.seen(config.home);
    // [G-FAIL-1] A file that cannot be used is not skipped: the gate denies; its one line says so.
    const unusable = 'unusable' in config ? config.unusable : undefined;
    const broken = new Set(unusable?.issues.map((i) => i.file));
    for (const issue of config.issues)
      if (!broken.has(issue.file)) o.logger.warn(`skipped gate source: ${formatIssue(issue)}`);
    for (const line of unusable?.lines ?? []) o.logger.warn(line.text.replace(/^hookwerk: /, ''));
    if (config.consent.problem !== undefined) o.logger.warn(config.consent.problem);
    for (const file of config.consent.pending)
      o.logger.warn(`${file} changed since approval: the approved version runs until \`hookwerk trust\``);
    // [L-TRUST-11] Rules that wait for approval, once each (a reload for another project's trust repeats nothing).
    const unapproved = new Set('unapproved' in config ? config.unapproved : undefined);
    for (const line of unapproved) if (!this.#toldUnapproved.has(line)) o.logger.warn(line);
    this.#toldUnapproved = unapproved;
    return config;
  }

  decide(event: string, context: object, opts?: DecideOptions): Promise<GateDecision> {
    const signal = opts?.signal;
    // [AD-ALL-1] Aborted already: nothing starts, nothing is recorded.
    if (signal?.aborted === true) return Promise.reject(new AbortError(event, signal.reason));
    this.#pollTrust();
    const tracer = activeTracer();
    // The usual case: no signal, no agent, no tracer; nothing more is made.
    if (opts === undefined && tracer === undefined) return this.#plugin.decide(event, context, this.#runtime);
    const agent = opts?.agent;
    const trace = tracer === undefined ? undefined : this.#openTrace(tracer, event, context, agent);
    const budget = opts?.timeoutMs;
    const deadline = budget === undefined ? undefined : performance.now() + budget;
    const call: DecideCall = { signal, trace, agent, deadline };
    let decided: Promise<GateDecision>;
    try {
      decided = this.#plugin.decide(event, context, this.#runtime, call);
    } catch (err) {
      decided = Promise.reject(err);
    }
    return decided.then(
      (decision) => {
        // Stopped part way (or aborted as it ended): the caller asked not to wait for the answer.
        if (signal?.aborted === true) {
          const aborted = new AbortError(event, signal.reason, decision.runs);
          trace?.end({ 'hookwerk.aborted': true, 'hookwerk.runs': decision.runs.length }, aborted);
          throw aborted;
        }
        trace?.end({
          'hookwerk.decision': decision.decision,
          'hookwerk.blocked': decision.blocked,
          'hookwerk.runs': decision.runs.length,
        });
        return decision;
      },
      (err: unknown) => {
        trace?.end(undefined, err);
        throw err;
      },
    );
  }

  /** The decide's span, named by its event, with what the caller's input says [AD-OTEL-1]. */
  #openTrace(
    tracer: Tracer,
    event: string,
    context: object,
    agent: string | undefined,
  ): TraceScope | undefined {
    // Caller text, not yet checked (an unknown event rejects later): bounded as records bound it.
    const name = bounded(event);
    const trace = TraceScope.open(tracer, `decide ${name}`, agent);
    if (trace === undefined) return undefined;
    const given = Object.assign<Record<string, unknown>, object>({}, context);
    const subject = runSubject(given, this.#opts.sessionId, undefined);
    const attributes: Record<string, string> = {
      'hookwerk.event': name,
      'hookwerk.dialect': this.dialect,
      'hookwerk.session_id': bounded(subject.sessionId),
    };
    if (subject.toolName !== undefined) attributes['hookwerk.tool_name'] = bounded(subject.toolName);
    if (agent !== undefined) attributes['hookwerk.agent'] = bounded(agent);
    trace.span.setAttributes(attributes);
    return trace;
  }

  /**
   * What `explain()` needs of the gate: the matched value, the call `if` rules are asked about
   * (none when no tool is given on a tool event: they are not tested), the sources' problems.
   */
  explain(
    event: string,
    given: Record<string, unknown>,
  ): {
    target: string | undefined;
    call: PlannedCall | undefined;
    issues: readonly ConfigIssue[];
    pending: readonly string[];
    home: string;
    layers: LayerLine[];
  } {
    const target = this.#plugin.explainTarget(event, given);
    this.#pollTrust();
    // [C-RUN-1] On an event without a tool, decide never runs a handler with an `if`: say so.
    const toolEvent = this.#plugin.matchField(event) === 'tool_name';
    const call = typeof given.tool_name === 'string' || !toolEvent ? plannedCallOf(given) : undefined;
    const c = this.#config;
    // [G-FAIL-5] The layers before the hooks, each rule tested against the call when one is given.
    const tool = typeof given.tool_name === 'string' ? given : undefined;
    const view = () => actionViewOf(given, { projectDir: c.projectDir, home: c.home });
    const layers = this.#runtime.layers().flatMap((layer) => layer.explain(event, tool, view));
    return { target, call, issues: c.issues, pending: c.consent.pending, home: c.home, layers };
  }

  /**
   * [N-GATE-1] From now on a gate worker decides; counted like a local decide. Its own record (no
   * worker, no answer in time, aborted) is a span of the decide [AD-OTEL-1].
   */
  decideRemotelyWith(
    remote: (
      event: LurusEventName,
      context: object,
      record: (r: RunRecord) => void,
      signal: AbortSignal | undefined,
    ) => Promise<GateDecision>,
  ): void {
    this.#runtime.remote = (event, context, call) => {
      this.#deciding++;
      const trace = call?.trace;
      const record = (r: RunRecord): void => {
        stampSubject(
          r,
          runSubject(Object.assign<Record<string, unknown>, object>({}, context), this.#opts.sessionId, call),
        );
        this.#opts.record(r);
        trace?.recordRun(r);
      };
      return remote(event, context, record, call?.signal).finally(this.#settled);
    };
  }

  /** Resolves once no decide is in progress. */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#deciding === 0) resolve();
      else this.#settledWaiters.push(resolve);
    });
  }

  #pollTrust(): void {
    if (this.#trustPoll.changed(this.#config.home)) this.reload();
  }
}

/** A span attribute of caller text, at most MAX_RECORD_FIELD_BYTES UTF-16 units (run records cut at as many bytes). */
function bounded(text: string): string {
  return text.length <= MAX_RECORD_FIELD_BYTES ? text : text.slice(0, MAX_RECORD_FIELD_BYTES);
}
