/**
 * Claude Code's matcher [C-MATCH-2], compiled once at load: the Claude Code dialect's, Codex's
 * and the policy's (issue 31: what several dialects share is in agent/).
 */
import { always, type CompiledMatcher, compileRegex, exactOnly } from '../../registry/matcher.ts';

const CLAUDE_NAMES = /^[A-Za-z0-9_\- ,|]*$/;

/**
 * [C-MATCH-2] `""`, `"*"` or missing: all. Only `[A-Za-z0-9_-]`, spaces, `,` and `|`: exact names
 * split on `|` or `,`, trimmed (empty pieces dropped). Anything else: an unanchored, case-sensitive
 * regex on the linear-time engine; one it cannot compile carries `error` and matches only exactly.
 * A missing value (the event has no matched field) matches, as in Claude Code.
 */
export function compileClaudeMatcher(pattern: string | undefined): CompiledMatcher {
  if (pattern === undefined || pattern === '' || pattern === '*') return always(pattern);
  if (CLAUDE_NAMES.test(pattern)) {
    const names = pattern
      .split(/[|,]/)
      .map((name) => name.trim())
      .filter((name) => name !== '');
    const only = names.length === 1 ? names[0] : undefined;
    return {
      source: pattern,
      test:
        only !== undefined
          ? (value) => value === undefined || value === only
          : (value) => value === undefined || names.includes(value),
    };
  }
  const compiled = compileRegex(pattern, pattern);
  if (typeof compiled === 'string') return exactOnly(pattern, compiled);
  const regex = compiled;
  return { source: pattern, test: (value) => value === undefined || regex(value) };
}
