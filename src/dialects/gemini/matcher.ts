/** Gemini CLI's matcher [G-EV-1], compiled once at load: tool events a regex, others exact. */
import { always, type CompiledMatcher, compileRegex } from '../../registry/matcher.ts';

/**
 * [G-EV-1] As Gemini CLI's hook planner: the matcher is trimmed; `""`, `"*"` or missing: all.
 * Tool events (`kind: 'tool'`): an unanchored regex on the linear-time engine; an invalid or
 * unsupported one carries `error` and matches exactly. Other events: the trigger matches exactly.
 * An empty or missing value matches (Gemini CLI skips matching when the field is empty).
 */
export function compileGeminiMatcher(pattern: string | undefined, kind: 'tool' | 'trigger'): CompiledMatcher {
  const trimmed = pattern?.trim();
  if (trimmed === undefined || trimmed === '' || trimmed === '*') return always(pattern);
  if (kind === 'trigger') {
    return { source: pattern, test: (value) => value === undefined || value === '' || value === trimmed };
  }
  const compiled = compileRegex(trimmed, pattern as string);
  if (typeof compiled === 'string') {
    const error = compiled;
    return {
      source: pattern,
      error,
      test: (value) => value === undefined || value === '' || value === trimmed,
    };
  }
  const regex = compiled;
  return { source: pattern, test: (value) => value === undefined || value === '' || regex(value) };
}
