/**
 * Codex CLI's matchers [A-CDX-1] (`events/common.rs` `matches_matcher`, observed in 0.171):
 * `""`, `"*"` or none match everything; a matcher of only `[A-Za-z0-9_|]` is exact names split
 * on `|`; anything else is an unanchored, case-sensitive regex (on hookwerk's linear-time engine,
 * L-MATCH-4). A patch (`apply_patch`) is also matched by its aliases `Write` and `Edit`, so
 * Claude-style `Edit|Write` guards fire on it. Codex skips a whole matcher group whose regex does
 * not compile (with a warning); so does hookwerk (the loader asks `error`).
 */
import { type CompiledMatcher, compileMatcher } from '../../registry/matcher.ts';
import { compileClaudeMatcher } from '../agent/claude-matcher.ts';

const EXACT = /^[A-Za-z0-9_|]*$/;

/** Tool names Codex matches besides the canonical one. */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  apply_patch: ['apply_patch', 'Write', 'Edit'],
};

export function compileCodexMatcher(pattern: string | undefined): CompiledMatcher {
  if (pattern === undefined || pattern === '' || pattern === '*') return compileMatcher(undefined);
  let one: (value: string) => boolean;
  let error: string | undefined;
  if (EXACT.test(pattern)) {
    const names = pattern.split('|');
    one = (value) => names.includes(value);
  } else {
    // A group makes it a regex for the shared compiler whatever characters it holds.
    const compiled = compileClaudeMatcher(`(?:${pattern})`);
    error = compiled.error
      ?.replaceAll(JSON.stringify(`(?:${pattern})`), JSON.stringify(pattern))
      .replace(/; it matches only the exact name$/, '');
    one = (value) => compiled.test(value);
  }
  const test = (value: string | undefined) =>
    value === undefined ||
    (Object.hasOwn(ALIASES, value) ? (ALIASES[value] ?? []) : [value]).some((name) => one(name));
  return error !== undefined ? { source: pattern, error, test } : { source: pattern, test };
}
