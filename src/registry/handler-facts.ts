/**
 * A handler as it runs [G-FAIL-5]: its type, `if`, `when`, `failMode` and `timeout`, as
 * `explain`, `/api/explain` and the dashboard's Gate page show them, from one reading of the hook
 * model and in one wording.
 */
import type { FailMode } from '../core/fail-mode.ts';
import type { RegistryEntry } from './hook-definition.ts';

export interface HandlerFacts {
  type: 'command' | 'http' | 'in-process' | 'wasm' | 'rule';
  /** [C-RUN-1] The `if` rule as written. */
  if?: string;
  /** (SPEC §14.4) A `rule` handler's CEL condition, when the hook is one. */
  when?: string;
  failMode: FailMode;
  timeoutMs: number;
  /** [C-RUN-1] `async: true`: runs in the background and never decides. */
  async?: true;
}

/** The facts of a gate hook; none for an unapproved entry (nothing of it was read) or an observe hook. */
export function handlerFactsOf(entry: RegistryEntry): HandlerFacts | undefined {
  // Observe hooks decide nothing: explain's detail says what runs.
  if (entry.kind === 'unapproved' || entry.dialect === 'prx') return undefined;
  const facts: HandlerFacts = {
    type: entry.kind === 'process' ? 'command' : entry.kind,
    failMode: entry.failMode,
    timeoutMs: entry.timeoutMs,
  };
  if ('ifRule' in entry && entry.ifRule !== undefined) facts.if = entry.ifRule.rule;
  if (entry.kind === 'rule') facts.when = entry.condition.when;
  if ('async' in entry && entry.async) facts.async = true;
  return facts;
}

/** One line: `command, if "Bash(rm *)", failMode closed, timeout 30 s`. */
export function handlerLine(h: HandlerFacts): string {
  const parts: string[] = [h.type];
  if (h.if !== undefined) parts.push(`if ${JSON.stringify(h.if)}`);
  if (h.when !== undefined) parts.push(`when ${JSON.stringify(h.when)}`);
  parts.push(`failMode ${h.failMode}`, `timeout ${h.timeoutMs / 1000} s`);
  if (h.async === true) parts.push('async');
  return parts.join(', ');
}
