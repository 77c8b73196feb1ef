/** Copilot CLI's matcher [A-COP-1], compiled once at load: a regex anchored at both ends. */
import { always, type CompiledMatcher, compileRegex, exactOnly } from '../../registry/matcher.ts';

/**
 * [A-COP-1] As Copilot CLI: the pattern is a regex anchored as `^(?:pattern)$` (`bas` does not
 * match `bash`; `ba.h|view` does), on the linear-time engine; one it cannot compile carries
 * `error` and matches only exactly. Missing: all. A missing value (an event without a matched
 * field) matches.
 */
export function compileAnchoredMatcher(pattern: string | undefined): CompiledMatcher {
  if (pattern === undefined) return always(undefined);
  const compiled = compileRegex(`^(?:${pattern})$`, pattern);
  if (typeof compiled === 'string') return exactOnly(pattern, compiled);
  const regex = compiled;
  return { source: pattern, test: (value) => value === undefined || regex(value) };
}
