/** Cursor's matcher [A-CUR-1], compiled once at load: a regex searched anywhere in the value. */
import { always, type CompiledMatcher, compileRegex, exactOnly } from '../../registry/matcher.ts';

/**
 * A regex searched anywhere in the value (Cursor [A-CUR-1]: `curl|wget|nc ` runs when the command
 * contains one of them), as written: not trimmed, not split into names. `""`, `"*"` or missing:
 * all; a missing value matches. An invalid or unsupported regex carries `error` and matches only
 * exactly [L-MATCH-3, L-MATCH-4].
 */
export function compileSearchMatcher(pattern: string | undefined): CompiledMatcher {
  if (pattern === undefined || pattern === '' || pattern === '*') return always(pattern);
  const compiled = compileRegex(pattern, pattern);
  if (typeof compiled === 'string') return exactOnly(pattern, compiled);
  const regex = compiled;
  return { source: pattern, test: (value) => value === undefined || regex(value) };
}
