/**
 * Property tests (issue 11): the linear-time matchers of src/registry/matcher.ts agree with small,
 * obviously-correct references written from the SPEC, on generated patterns and names.
 *
 * The references follow the SPEC word for word and use V8's own `RegExp` (no flags) for the
 * regular-expression part: the matcher promises JavaScript's meaning on a linear-time engine
 * [L-MATCH-4]. Generated patterns are small and names short, so backtracking in the reference
 * stays cheap. Features the linear engine refuses (lookaround, backreferences) are generated
 * apart, where the reference is "exact match only" [L-MATCH-4].
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileClaudeMatcher } from '../src/dialects/agent/claude-matcher.ts';
import { compileGeminiMatcher } from '../src/dialects/gemini/matcher.ts';
import { compileMatcher } from '../src/registry/matcher.ts';
import { runs, timeout } from './property-runs.ts';

// ---------------------------------------------------------------------------------------------
// References

/** `new RegExp(source)` (no flags), or undefined when V8 rejects the source. */
function jsRegex(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

/**
 * [L-MATCH-1..3] The gate matcher, from the SPEC text: no value → match; missing, "" and "*" →
 * match; with `*`: each `*` becomes `.*`, anchored `^…$`, nothing escaped; without: exact
 * comparison first, then an unanchored regex; a pattern that is not a valid regex matches exactly.
 */
function gateReference(pattern: string | undefined, value: string | undefined): boolean {
  if (value === undefined) return true;
  if (pattern === undefined || pattern === '' || pattern === '*') return true;
  if (pattern.includes('*')) {
    const re = jsRegex(`^${pattern.split('*').join('.*')}$`);
    return re === undefined ? value === pattern : re.test(value);
  }
  if (value === pattern) return true;
  const re = jsRegex(pattern);
  return re?.test(value) === true;
}

const NAME_CHARS = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_- ,|');

/**
 * [C-MATCH-2] Claude Code: "", "*" or none → all; only `[A-Za-z0-9_-]`, spaces, `,` and `|` →
 * exact names split on `|` or `,`, trimmed; anything else an unanchored regex (an invalid one
 * matches exactly). A missing value (no matched field) matches.
 */
function claudeReference(pattern: string | undefined, value: string | undefined): boolean {
  if (value === undefined) return true;
  if (pattern === undefined || pattern === '' || pattern === '*') return true;
  if ([...pattern].every((ch) => NAME_CHARS.has(ch))) {
    const names: string[] = [];
    for (const piece of pattern.split('|')) for (const name of piece.split(',')) names.push(name.trim());
    return names.some((name) => name !== '' && name === value);
  }
  const re = jsRegex(pattern);
  return re === undefined ? value === pattern : re.test(value);
}

/**
 * [G-EV-1] Gemini CLI: the matcher trimmed; "", "*" or none → all; tool events an unanchored
 * regex (an invalid one matches exactly), other events the trigger exactly. An empty or missing
 * value matches.
 */
function geminiReference(
  pattern: string | undefined,
  kind: 'tool' | 'trigger',
  value: string | undefined,
): boolean {
  const trimmed = pattern?.trim();
  if (trimmed === undefined || trimmed === '' || trimmed === '*') return true;
  if (value === undefined || value === '') return true;
  if (kind === 'trigger') return value === trimmed;
  const re = jsRegex(trimmed);
  return re === undefined ? value === trimmed : re.test(value);
}

// ---------------------------------------------------------------------------------------------
// Generators

/**
 * Characters of names and literals: ASCII, regex metacharacters, line terminators (`.` must not
 * match them), a Latin-1 letter, a non-BMP character (two UTF-16 units to V8), NBSP (`\s`).
 */
const NAME_ALPHABET = [
  'a',
  'b',
  'B',
  'x',
  '_',
  '-',
  ' ',
  '1',
  '.',
  '|',
  ',',
  '*',
  '(',
  ')',
  '\n',
  '\r',
  '\u2028',
  '\u00a0',
  'é',
  '😀',
];

const name = fc.array(fc.constantFrom(...NAME_ALPHABET), { maxLength: 8 }).map((cs) => cs.join(''));

/** Atoms of a regex the linear engine supports (valid JavaScript, no lookaround, no backreference). */
const literalAtom = fc.constantFrom(
  'a',
  'b',
  'B',
  'x',
  '_',
  '-',
  ' ',
  '1',
  'é',
  '😀',
  '\\.',
  '\\|',
  '\\*',
  '\\(',
  '\\-',
  '\\/',
  '\\n',
  '\\r',
  '\\u00e9',
  '\\x61',
  '\\uD83D',
  '\\uDE00',
  '\\u2028',
);
const setAtom = fc.constantFrom('.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S');
const classItem = fc.constantFrom(
  'a',
  'b',
  'a-c',
  'B-x',
  '_',
  '\\-',
  ' ',
  '.',
  '|',
  '\\d',
  '\\s',
  '\\S',
  '\\w',
  '\\W',
  'é',
  '😀',
  '\\uD83D',
  '\\uDE00',
  '\\u00a0-\\u00ff',
  // ranges that reach into or across the surrogate units
  'x-\\uFFFF',
  '\\uD800-\\uDBFF',
  '\\u00ff-\\uE000',
  '😀-😀',
  '\\n',
  '*',
  '(',
);
const classAtom = fc.oneof(
  fc
    .tuple(fc.boolean(), fc.array(classItem, { minLength: 1, maxLength: 3 }))
    .map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`),
  fc.constantFrom('[]', '[^]'),
);
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,2}', '{0,}', '*?', '+?', '??');
const anchor = fc.constantFrom('^', '$', '\\b', '\\B');

const { regex: anyRegex } = fc.letrec<{ regex: string; seq: string; piece: string }>((tie) => ({
  regex: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((alts) => alts.join('|')),
  seq: fc.array(tie('piece'), { maxLength: 4 }).map((pieces) => pieces.join('')),
  piece: fc.oneof(
    { maxDepth: 2, depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.oneof(literalAtom, setAtom, classAtom), quantifier).map(([a, q]) => a + q),
    anchor,
    fc
      .tuple(fc.constantFrom('(', '(?:'), tie('regex'), quantifier)
      .map(([open, inner, q]) => `${open}${inner})${q}`),
  ),
}));

/** Short enough that the backtracking reference stays fast on short names. */
const regex = anyRegex.filter((r) => r.length <= 24);

/**
 * Short strings over an alphabet of regex syntax: often invalid, sometimes valid. No digit after
 * `\`, no `=`, `!`, `<`, `k` or modifier letters (i, m, s): lookaround, backreferences and
 * modifier groups cannot appear by chance (they are generated on purpose below).
 */
const garbage = fc
  .array(
    fc.constantFrom(
      'a',
      'b',
      'B',
      'x',
      '_',
      '-',
      ' ',
      '.',
      '*',
      '+',
      '?',
      '|',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '^',
      '$',
      '\\',
      ',',
      'd',
      'w',
      '😀',
      '\n',
    ),
    { maxLength: 8 },
  )
  .map((cs) => cs.join(''));

/** A gate pattern with `*`: a regex (or garbage) with stars put in. */
const starred = fc
  .tuple(fc.oneof(regex, garbage, name), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }))
  .map(([base, positions]) => {
    let s = base;
    for (const p of positions) {
      const at = p % (s.length + 1);
      s = `${s.slice(0, at)}*${s.slice(at)}`;
    }
    return s;
  });

/** Claude Code's names-only form: names joined by `|` or `,`, with spaces around. */
const nameList = fc
  .array(
    fc.tuple(
      fc.constantFrom('', ' ', '  '),
      fc.constantFrom('Bash', 'Edit', 'Write', 'a', 'B', 'x_1', 'mcp__a-b', ''),
      fc.constantFrom('', ' '),
      fc.constantFrom('|', ','),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) =>
    parts
      .map(([l, n, r, sep]) => l + n + r + sep)
      .join('')
      .slice(0, -1),
  );

const pattern = fc.oneof(
  { arbitrary: regex, weight: 4 },
  { arbitrary: garbage, weight: 2 },
  { arbitrary: starred, weight: 2 },
  { arbitrary: name, weight: 1 },
  { arbitrary: nameList, weight: 1 },
  { arbitrary: fc.constantFrom(undefined, '', '*', ' ', ' * '), weight: 1 },
);

/** Values to test a pattern against: generated names, the pattern itself and pieces of it, no value. */
function valuesFor(p: string | undefined, names: readonly string[]): Array<string | undefined> {
  const out: Array<string | undefined> = [undefined, '', ...names];
  if (p !== undefined) {
    out.push(p, p.trim(), p.replaceAll('*', ''), p.replace(/[\\^$()[\]]/g, ''));
    for (let i = 0; i < p.length; i += 2) out.push(p.slice(i, i + 3));
  }
  // Short values keep V8's backtracking (the reference) cheap on nested quantifiers.
  return out.map((v) => v?.slice(0, MAX_VALUE));
}

/** Longest value tested against the reference, in UTF-16 units. */
const MAX_VALUE = 10;

const RUNS = 1500;

function disagreements(
  p: string | undefined,
  names: readonly string[],
  actual: (value: string | undefined) => boolean,
  expected: (value: string | undefined) => boolean,
): string[] {
  const wrong: string[] = [];
  for (const v of valuesFor(p, names)) {
    const want = expected(v);
    if (actual(v) !== want) wrong.push(`${JSON.stringify(p)} ~ ${JSON.stringify(v)}: expected ${want}`);
  }
  return wrong;
}

// ---------------------------------------------------------------------------------------------

describe('issue 11: matcher properties against references', () => {
  it(
    '[L-MATCH-4] issue 11: a non-BMP character is two UTF-16 units to every regex matcher, as to V8 (found by the property below)',
    () => {
      const cases: Array<[string, string]> = [
        ['^.$', '😀'],
        ['^..$', '😀'],
        ['^[😀]$', '😀'],
        ['^[😀]{2}$', '😀'],
        ['^[^a]$', '😀'],
        ['^\\uD83D', '😀'],
        ['^\\uD83D\\uDE00$', '😀'],
        ['\\S\\S', '😀'],
        ['^😀+$', '😀\uDE00'],
        ['^[\\u0000-\\uFFFF]$', '😀'],
        ['^[x-\\uFFFF]{2}$', '😀'],
        ['^a.b$', 'a\uD83Db'],
      ];
      for (const [p, value] of cases) {
        const want = new RegExp(p).test(value);
        expect(compileMatcher(p).test(value), `${p} ~ ${value}`).toBe(want);
        expect(compileClaudeMatcher(p).test(value), `${p} ~ ${value}`).toBe(want);
        expect(compileGeminiMatcher(p, 'tool').test(value), `${p} ~ ${value}`).toBe(want);
      }
    },
    timeout(),
  );

  it(
    '[L-MATCH-1] [L-MATCH-2] [L-MATCH-3] [L-MATCH-4] issue 11: the gate matcher agrees with the SPEC reference (V8 RegExp) on generated patterns and names',
    () => {
      fc.assert(
        fc.property(pattern, fc.array(name, { maxLength: 6 }), (p, names) => {
          const m = compileMatcher(p);
          expect(
            disagreements(
              p,
              names,
              (v) => m.test(v),
              (v) => gateReference(p, v),
            ),
          ).toEqual([]);
          // Exact comparison first [L-MATCH-2], at any length.
          if (p !== undefined && !p.includes('*')) expect(m.test(p), JSON.stringify(p)).toBe(true);
        }),
        { numRuns: runs(RUNS) },
      );
    },
    timeout(),
  );

  it(
    '[L-MATCH-3] issue 11: a gate pattern carries .error exactly when V8 rejects its regex',
    () => {
      fc.assert(
        fc.property(pattern, (p) => {
          const m = compileMatcher(p);
          if (p === undefined || p === '' || p === '*') {
            expect(m.error).toBeUndefined();
            return;
          }
          const source = p.includes('*') ? `^${p.split('*').join('.*')}$` : p;
          expect(m.error !== undefined, JSON.stringify(p)).toBe(jsRegex(source) === undefined);
        }),
        { numRuns: runs(RUNS) },
      );
    },
    timeout(),
  );

  it(
    '[C-MATCH-2] [L-MATCH-4] issue 11: the Claude Code matcher agrees with the SPEC reference on generated patterns and names',
    () => {
      fc.assert(
        fc.property(pattern, fc.array(name, { maxLength: 6 }), (p, names) => {
          const m = compileClaudeMatcher(p);
          expect(
            disagreements(
              p,
              names,
              (v) => m.test(v),
              (v) => claudeReference(p, v),
            ),
          ).toEqual([]);
        }),
        { numRuns: runs(RUNS) },
      );
    },
    timeout(),
  );

  it(
    '[G-EV-1] [L-MATCH-4] issue 11: the Gemini CLI matcher agrees with the SPEC reference, tool and trigger events',
    () => {
      const padded = fc
        .tuple(fc.constantFrom('', ' ', '\t'), pattern, fc.constantFrom('', ' ', '\n'))
        .map(([l, p, r]) => (p === undefined ? undefined : l + p + r));
      fc.assert(
        fc.property(
          padded,
          fc.constantFrom('tool' as const, 'trigger' as const),
          fc.array(name, { maxLength: 6 }),
          (p, kind, names) => {
            const m = compileGeminiMatcher(p, kind);
            expect(
              disagreements(
                p,
                names,
                (v) => m.test(v),
                (v) => geminiReference(p, kind, v),
              ),
            ).toEqual([]);
          },
        ),
        { numRuns: runs(RUNS) },
      );
    },
    timeout(),
  );

  it(
    '[L-MATCH-4] issue 11: a valid regex with lookaround or a backreference is reported and matches only exactly, in every dialect',
    () => {
      const unsupported = fc.constantFrom('(?=a)', '(?!b)', '(?<=a)', '(?<!b)', '(a)\\1', '(?<n>x)\\k<n>');
      const valid = regex.filter((r) => jsRegex(r) !== undefined);
      fc.assert(
        fc.property(
          valid,
          unsupported,
          valid,
          fc.array(name, { maxLength: 6 }),
          (before, feature, after, names) => {
            // Groups around the sides keep the feature at top level, whatever `|` they hold.
            const p = `(?:${before})${feature}(?:${after})`;
            expect(jsRegex(p)).toBeDefined();
            const exact = (v: string | undefined) => v === undefined || v === p;
            for (const m of [compileMatcher(p), compileClaudeMatcher(p)]) {
              expect(m.error, p).toBeDefined();
              expect(disagreements(p, names, (v) => m.test(v), exact)).toEqual([]);
            }
            // Gemini CLI also lets an empty value through [G-EV-1].
            const gemini = compileGeminiMatcher(p, 'tool');
            expect(gemini.error, p).toBeDefined();
            expect(
              disagreements(
                p,
                names,
                (v) => gemini.test(v),
                (v) => v === '' || exact(v),
              ),
            ).toEqual([]);
          },
        ),
        { numRuns: runs(300) },
      );
    },
    timeout(),
  );
});
