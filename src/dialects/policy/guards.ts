/**
 * [G-LIB-1, G-LIB-2] The shipped guards the policy files in force turn on, as one gate layer
 * (`dispatch/gate-layer.ts`, kind `guard`) that runs on `PreToolUse` after the permission rules
 * and before any hook: guard by guard in the table's order (`guards/guard-table.ts`), the first
 * deny stops the rest, an ask is kept while a later guard may still deny.
 *
 * Across files the guards only add (docs/guards.md): every file that turns a guard on adds that
 * guard with its own `decision`, `except` and options, checked after the user policy's own
 * (the managed policy first, then the user's, then the project's). A file's `false` never turns off another file's guard, and its
 * `except` never loosens another file's: a project cannot switch off or weaken what the user
 * policy turned on, and can always turn a guard on or add a stricter one. Neither can weaken the
 * managed policy's guards; a guard on by default (`self-protect`) is off only where the managed
 * policy says `false` [T-MGD-1].
 *
 * A guard that cannot read the call whole (an unreadable command line) objects to it; a guard
 * that throws objects too, naming the error: a guard is never silently open.
 */

import type { ActionView } from '../../action/view-types.ts';
import type { ConfigIssue } from '../../core/issues.ts';
import { jsonPath } from '../../core/issues.ts';
import { realPathOr } from '../../core/real-path.ts';
import { tildePath } from '../../core/tilde-path.ts';
import type { GateLayer, LayerLine, LayerVerdict } from '../../dispatch/gate-layer.ts';
import { GUARD_TABLE, type ShippedGuard } from '../../guards/guard-table.ts';
import type { GuardCall, GuardContext, GuardHit } from '../../guards/guard-types.ts';
import { installedHookFiles } from '../../guards/installed-hook-files.ts';
import type { HookScope } from '../../registry/hook-definition.ts';
import { compileExcept, type ExceptEntry, excepted } from './guard-except.ts';
import { type GuardDecision, mayTurnOffDefaultGuards, readGuardSettings } from './guard-settings.ts';

const EVENT = 'PreToolUse';

/** A policy file in force, as the loader hands it over. */
export interface GuardSource {
  readonly file: string;
  readonly scope: HookScope;
  readonly value: object;
}

/** One guard as one file turned it on. */
interface Instance {
  readonly guard: ShippedGuard;
  readonly decision: GuardDecision;
  readonly options: unknown;
  readonly except: readonly ExceptEntry[];
  /** The file, home as `~`; `hookwerk` for a guard on by default that no file names. */
  readonly shown: string;
  /** `file#/guards/NAME`. */
  readonly source: string;
  /**
   * [T-SELF-1] Said after each of its reasons: the files whose `false` for this guard on by default
   * was ignored, so that the journal and the agent's answer say why it still runs.
   */
  readonly note?: string;
}

export interface GuardBases {
  readonly projectDir: string;
  readonly home: string;
  /** The system temp folder of the agent's environment. */
  readonly tmpDir: string;
}

/** The guards the files turn on, or undefined when none is on. */
export function guardsLayer(
  sources: readonly GuardSource[],
  bases: GuardBases,
  table: readonly ShippedGuard[] = GUARD_TABLE,
): GateLayer | undefined {
  const ctx: GuardContext = {
    projectDir: realPathOr(bases.projectDir),
    home: realPathOr(bases.home),
    tmpDir: realPathOr(bases.tmpDir),
    // [T-SELF-1] Read once per load, so that no guard reads a file.
    hookFiles: installedHookFiles(bases.home),
  };
  const places = {
    projectDirs: [...new Set([bases.projectDir, ctx.projectDir])],
    homes: [...new Set([bases.home, ctx.home])],
    home: bases.home,
  };
  const read = sources.map((s) => ({
    s,
    settings: readGuardSettings(s.file, Reflect.get(s.value, 'guards'), table, s.scope).settings,
  }));
  const instances: Instance[] = [];
  for (const guard of table) {
    const from = read.flatMap(({ s, settings }) =>
      settings.filter((x) => x.guard === guard && x.on).map((x) => ({ s, x })),
    );
    // [T-SELF-1] A guard on by default runs as shipped unless the managed policy names it
    // (`false` turns it off, an object is the one instance); a user or project file only adds.
    const asShipped =
      guard.onByDefault === true &&
      !read.some(
        ({ s, settings }) => mayTurnOffDefaultGuards(s.scope) && settings.some((x) => x.guard === guard),
      );
    if (asShipped) {
      const ignored = read
        .filter(({ settings }) => settings.some((x) => x.guard === guard && !x.on))
        .map(({ s }) => tildePath(s.file, bases.home));
      instances.push({
        guard,
        decision: guard.defaultDecision,
        options: guard.options.parse({}),
        except: [],
        shown: 'hookwerk',
        source: `hookwerk#/guards/${guard.name}`,
        ...(ignored.length === 0
          ? {}
          : {
              note: ` ("${guard.name}": false in ${ignored.join(', ')} is ignored: only a managed policy turns it off)`,
            }),
      });
    }
    for (const { s, x } of from) {
      // The same check as the shipped one adds nothing but its cost.
      if (
        asShipped &&
        x.decision === guard.defaultDecision &&
        x.except.length === 0 &&
        sameOptions(guard, x.options)
      )
        continue;
      instances.push({
        guard,
        decision: x.decision,
        options: x.options,
        except: x.except.map((e) => compileExcept(e, places)),
        shown: tildePath(s.file, bases.home),
        source: `${s.file}#/guards/${guard.name}`,
      });
    }
  }
  return instances.length === 0 ? undefined : new Guards(instances, ctx);
}

/** A file's options of `guard` are its defaults. */
function sameOptions(guard: ShippedGuard, options: unknown): boolean {
  return JSON.stringify(options) === JSON.stringify(guard.options.parse({}));
}

/**
 * [G-LIB-1, T-MGD-1] What `validate` says about the files together: a user's or project's `false`
 * for a guard a file read before it (the managed policy, the user policy) turns on is ignored
 * (guards only add), a warning of the later file.
 */
export function guardMergeWarnings(sources: readonly GuardSource[]): ConfigIssue[] {
  const onBefore = new Map<string, string>();
  const out: ConfigIssue[] = [];
  for (const s of sources) {
    const value: unknown = Reflect.get(s.value, 'guards');
    const { settings } = readGuardSettings(s.file, value, GUARD_TABLE, s.scope);
    for (const x of settings) {
      const by = onBefore.get(x.guard.name);
      if (s.scope !== 'managed' && !x.on && by !== undefined)
        out.push({
          file: s.file,
          path: jsonPath(['guards', x.guard.name]),
          message: `"${x.guard.name}": false is ignored: the ${by} policy turns this guard on, and a later policy only adds guards`,
          level: 'warning',
        });
    }
    for (const x of settings)
      if (x.on && (s.scope === 'managed' || s.scope === 'user')) onBefore.set(x.guard.name, s.scope);
  }
  return out;
}

/** The call as the guards read it: its `tool_input` copied as a plain object (none: `{}`). */
function guardCall(tool: string, input: Readonly<Record<string, unknown>>, view: ActionView): GuardCall {
  const given = input.tool_input;
  const toolInput =
    typeof given === 'object' && given !== null && !Array.isArray(given)
      ? Object.fromEntries(Object.entries(given))
      : {};
  return { tool, input: toolInput, view };
}

/** The guard may object to a call of `tool`. */
function looksAt(guard: ShippedGuard, tool: string): boolean {
  return guard.tools === undefined || guard.tools.includes(tool);
}

class Guards implements GateLayer {
  readonly kind = 'guard' as const;
  readonly events = [EVENT];
  readonly #instances: readonly Instance[];
  readonly #ctx: GuardContext;
  readonly #tools: readonly string[] | undefined;

  constructor(instances: readonly Instance[], ctx: GuardContext) {
    this.#instances = instances;
    this.#ctx = ctx;
    const any = instances.some((i) => i.guard.tools === undefined);
    this.#tools = any ? undefined : [...new Set(instances.flatMap((i) => i.guard.tools ?? []))].sort();
  }

  tools(event: string): readonly string[] | null | undefined {
    return event === EVENT ? this.#tools : null;
  }

  closes(event: string): boolean {
    return event === EVENT;
  }

  /** What one instance objects to in the call, `except` applied. */
  #hits(inst: Instance, call: GuardCall): GuardHit[] {
    const out: GuardHit[] = [];
    // A line the view could not read whole may hide what the guard looks for [G-PERM-3's reasoning].
    if (call.tool === 'Bash' && call.view.unreadable)
      out.push({
        saw: `cannot read this command safely: ${call.view.unreadableReason ?? 'it cannot be read whole'}`,
      });
    try {
      for (const hit of inst.guard.check(call, inst.options, this.#ctx))
        if (inst.except.length === 0 || !excepted(inst.except, hit)) out.push(hit);
    } catch (e) {
      out.push({
        saw: `the guard failed, so it objects: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`,
      });
    }
    return out;
  }

  #verdict(inst: Instance, hit: GuardHit): LayerVerdict {
    const name = `guards.${inst.guard.name}`;
    return {
      decision: hit.decision ?? inst.decision,
      reason: `${inst.shown}: ${name}: ${hit.saw}${inst.note ?? ''}`,
      who: name,
      source: inst.source,
    };
  }

  decide(
    event: string,
    input: Readonly<Record<string, unknown>>,
    view: () => ActionView,
  ): LayerVerdict | undefined {
    if (event !== EVENT) return undefined;
    const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
    let ask: LayerVerdict | undefined;
    // One reading of the call for every guard (G-PERF-1): made when the first guard looks at it.
    let call: GuardCall | undefined;
    for (const inst of this.#instances) {
      if (!looksAt(inst.guard, tool)) continue;
      call ??= guardCall(tool, input, view());
      for (const hit of this.#hits(inst, call)) {
        const verdict = this.#verdict(inst, hit);
        // [G-LIB-2] The first deny stops the rest; an ask waits for a later guard's deny.
        if (verdict.decision === 'deny') return verdict;
        ask ??= verdict;
      }
    }
    return ask;
  }

  explain(
    event: string,
    input: Readonly<Record<string, unknown>> | undefined,
    view: () => ActionView,
  ): LayerLine[] {
    if (event !== EVENT) return [];
    const tool = typeof input?.tool_name === 'string' ? input.tool_name : undefined;
    return this.#instances.map((inst) => {
      const who = `guards.${inst.guard.name}`;
      const except = inst.except.length === 0 ? '' : `, except ${inst.except.map((e) => e.text).join(', ')}`;
      const head = `guard of ${inst.shown} (${inst.decision}${except})`;
      if (tool === undefined)
        return {
          kind: 'guard',
          who,
          source: inst.source,
          applies: true,
          detail: `${head}: checked before every hook on ${EVENT}${inst.guard.tools === undefined ? '' : ` for ${inst.guard.tools.join(', ')}`} (no tool call given)`,
        };
      if (!looksAt(inst.guard, tool))
        return {
          kind: 'guard',
          who,
          source: inst.source,
          applies: false,
          detail: `${head}: does not look at ${tool} calls`,
        };
      const hit = input === undefined ? undefined : this.#hits(inst, guardCall(tool, input, view()))[0];
      return {
        kind: 'guard',
        who,
        source: inst.source,
        applies: hit !== undefined,
        detail:
          hit === undefined
            ? `${head}: does not object to this call`
            : `${head}: ${(hit.decision ?? inst.decision) === 'deny' ? 'denies' : 'asks'}: ${hit.saw}`,
      };
    });
  }
}
