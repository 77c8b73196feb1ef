/**
 * [G-LIB-1] A guard's `except` list: each entry a Bash pattern or a path glob. An entry written
 * `Bash(…)` is a Bash pattern; one without whitespace that holds a `/` or starts with `~`, `.` or
 * `*` is a path glob (`guards/guard-globs.ts`); any other is a Bash pattern (`git push origin
 * main`, `npm publish --tag beta`). A Bash pattern is read as a permission rule's (G-PERM-2) and
 * matched the way an allow rule is: unless it ends with a `*` word, the command may have no option
 * the pattern does not name — so `git push origin main` never excepts `git push -f origin main`.
 * A path glob excepts a path only when it matches both its `path` and its `real` (an exception
 * must not reach through a symlink). An objection that names neither a command nor a path (a line
 * that cannot be read) is never excepted.
 */

import type { PathGlob } from '../../core/path-glob.ts';
import { lexShell } from '../../core/shell-lexer.ts';
import {
  compileGuardGlob,
  type GlobPlaces,
  guardGlobMatches,
  guardGlobProblem,
} from '../../guards/guard-globs.ts';
import type { GuardHit } from '../../guards/guard-types.ts';
import { type BashPattern, bashPatternMatches, compileBashPattern } from './bash-pattern.ts';

export type ExceptEntry =
  | { readonly kind: 'bash'; readonly text: string; readonly pattern: BashPattern }
  | { readonly kind: 'path'; readonly text: string; readonly globs: readonly PathGlob[] };

/** The entry as a Bash pattern (its text) or a path glob. */
function kindOf(text: string): { kind: 'bash' | 'path'; body: string } {
  const t = text.trim();
  const bash = /^Bash\(([\s\S]*)\)$/.exec(t);
  if (bash !== null) return { kind: 'bash', body: bash[1]!.trim() };
  if (!/\s/.test(t) && (t.includes('/') || /^[~.*]/.test(t))) return { kind: 'path', body: t };
  return { kind: 'bash', body: t };
}

/** Why `text` is no `except` entry, or undefined. */
export function exceptProblem(text: string): string | undefined {
  const { kind, body } = kindOf(text);
  if (kind === 'path') return guardGlobProblem(body);
  if (body === '') return 'an except entry must not be empty';
  if (body.includes('\0')) return 'an except entry must not hold a NUL byte';
  if (lexShell(body).unbalanced)
    return `${JSON.stringify(text)}: the Bash pattern is unbalanced (an unclosed quote or parenthesis)`;
  return undefined;
}

export function compileExcept(text: string, places: GlobPlaces & { readonly home: string }): ExceptEntry {
  const { kind, body } = kindOf(text);
  return kind === 'path'
    ? { kind, text, globs: compileGuardGlob(body, places) }
    : { kind, text, pattern: compileBashPattern(body, places.home) };
}

/** Some entry excepts the objection. */
export function excepted(entries: readonly ExceptEntry[], hit: GuardHit): boolean {
  for (const e of entries) {
    if (e.kind === 'bash' && hit.command !== undefined && bashPatternMatches(e.pattern, hit.command, true))
      return true;
    if (
      e.kind === 'path' &&
      hit.path !== undefined &&
      guardGlobMatches(e.globs, hit.path.path) &&
      guardGlobMatches(e.globs, hit.path.real)
    )
      return true;
  }
  return false;
}
