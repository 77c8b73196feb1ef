/**
 * Tool/trigger matchers of the gate dialect [L-MATCH-1..3], compiled once at load.
 * Not a glob: with `*` each star becomes `.*` and the whole is anchored, other regex
 * characters keep their meaning; without `*` an exact comparison comes first, then an
 * unanchored regex.
 */
export interface CompiledMatcher {
  readonly source: string | undefined;
  /** Set when the pattern is not a valid regular expression: it then matches only exactly. */
  readonly error?: string;
  test(value: string | undefined): boolean;
}

const ALWAYS: CompiledMatcher = { source: undefined, test: () => true };

export function compileMatcher(pattern: string | undefined): CompiledMatcher {
  if (pattern === undefined || pattern === '' || pattern === '*') {
    return pattern === undefined ? ALWAYS : { source: pattern, test: () => true };
  }
  const regexSource = pattern.includes('*') ? `^${pattern.replaceAll('*', '.*')}$` : pattern;
  let regex: RegExp;
  try {
    regex = new RegExp(regexSource);
  } catch (err) {
    const error = `matcher ${JSON.stringify(pattern)} is not a valid regular expression (${
      err instanceof SyntaxError ? err.message.replace(/^Invalid regular expression: /, '') : String(err)
    }); it matches only the exact name`;
    // [L-MATCH-3] An invalid regex still matches exactly, and validate reports it.
    return { source: pattern, error, test: (value) => value === undefined || value === pattern };
  }
  const starred = pattern.includes('*');
  return {
    source: pattern,
    // [L-MATCH-1] No toolName and no trigger: every matcher matches.
    test: (value) => value === undefined || (!starred && value === pattern) || regex.test(value),
  };
}

/** [L-MATCH-1] The value a matcher is tested against: `toolName`, else `trigger`. */
export function matchTarget(context: { toolName?: unknown; trigger?: unknown }): string | undefined {
  if (typeof context.toolName === 'string') return context.toolName;
  if (typeof context.trigger === 'string') return context.trigger;
  return undefined;
}
