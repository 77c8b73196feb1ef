/**
 * [G-LIB-1] What a shipped guard is: one pure check over a call's action view (G-ACT-1), with its
 * own strict options, that says what it saw. The policy layer (`dialects/policy/guards.ts`) turns
 * the guards a policy file switches on into one gate layer; the common options (`decision`,
 * `except`) are applied there, so each guard only looks at the call. A guard never spawns, never
 * touches the network and reads the file system only through the view it is given.
 */
import type { z } from 'zod';
import type { ActionView, SimpleCommand, ViewPath } from '../action/view-types.ts';

/** A call as a guard reads it (Claude-shaped, after the agent's input is mapped, R-MAP-1). */
export interface GuardCall {
  /** `Bash`, `Read`, `Write`, `Edit`, `apply_patch`, `WebFetch`, `mcp__…`, … */
  readonly tool: string;
  /** The Claude-shaped `tool_input`. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly view: ActionView;
}

/** The places a guard judges against, all real paths (symlinks resolved). */
export interface GuardContext {
  readonly projectDir: string;
  readonly home: string;
  /** The system temp folder (its sub-paths are no one's project, G-LIB-3). */
  readonly tmpDir: string;
  /**
   * [T-SELF-1] Hook files `install` wrote into beyond the agents' usual places (a `CODEX_HOME` or
   * `COPILOT_HOME` elsewhere), from `<home>/.hookwerk/installs/*` (`installedHookFiles`); real paths.
   */
  readonly hookFiles?: readonly string[];
}

/** One thing a guard objects to. */
export interface GuardHit {
  /** What it saw, for the reason: `rm -rf ~ deletes the home folder`. */
  readonly saw: string;
  /** The command it objects to (for `except` Bash patterns), when a command. */
  readonly command?: SimpleCommand;
  /** The path it objects to (for `except` path globs), when a path. */
  readonly path?: ViewPath;
  /** A decision of the guard's own that overrides the configured one (`inside: "ask"`). */
  readonly decision?: 'deny' | 'ask';
}

export interface GuardDefinition<O = unknown> {
  /** `destructive-delete`, … — the key under `guards` in a policy file. */
  readonly name: string;
  /** Its decision when the file does not say (`publish` asks, the others deny). */
  readonly defaultDecision: 'deny' | 'ask';
  /** Its own options, strict (G-FAIL-1: an unknown option is an error of the file); `decision` and `except` are not here. */
  readonly options: z.ZodType<O>;
  /**
   * On without being named (`self-protect`, §15.1): a user or project policy's `false` for it is
   * ignored with a `validate` warning (only a managed policy may turn it off, §15.2).
   */
  readonly onByDefault?: boolean;
  /** The tools it may object to (the fast path indexes them, R-HOOK-4); undefined for any tool. */
  readonly tools?: readonly string[];
  /** Everything it objects to in the call, in the order it found them; empty when nothing. */
  check(call: GuardCall, options: O, ctx: GuardContext): readonly GuardHit[];
}
