/**
 * [G-LIB-1] How a guard's reason shows what it saw: the command as written (one line, cut at 80
 * characters) and paths with the home folder as `~` (G-FAIL-5).
 */

import type { SimpleCommand } from '../action/view-types.ts';
import { tildePath } from '../core/tilde-path.ts';
import type { GuardContext } from './guard-types.ts';

const MAX = 80;

export function shownCommand(c: SimpleCommand, ctx: GuardContext): string {
  const one = c.raw.replace(/\s+/g, ' ').trim();
  const cut = one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
  return cut.replaceAll(`${ctx.home}/`, '~/');
}

export function shownPath(p: string, ctx: GuardContext): string {
  return tildePath(p, ctx.home);
}

/** A word holding an expansion not known here (`$X`, `$(…)`, a backtick). */
export function dynamicText(text: string): boolean {
  return text.includes('$') || text.includes('`');
}
