/**
 * Gate matchers [L-MATCH-1..4]: pure, table-driven (`compileMatcher` + `matchTarget`).
 * Without `*`: exact first, then an unanchored regex. With `*`: each star becomes `.*`,
 * the whole is anchored, other regex characters keep their meaning (not a glob).
 * Every regex runs on the linear-time engine [L-MATCH-4]; Claude Code [C-MATCH-2] and
 * Gemini CLI [G-EV-1] matchers share it.
 */
import { describe, expect, it } from 'vitest';
import { primaryScriptOf } from '../src/core/command-words.ts';
import { compileClaudeMatcher } from '../src/dialects/agent/claude-matcher.ts';
import { compileGeminiMatcher } from '../src/dialects/gemini/matcher.ts';
import { compileMatcher, literalShape, matchTarget, translateJsRegex } from '../src/registry/matcher.ts';

type Case = [pattern: string | undefined, value: string, matches: boolean];

function check(cases: readonly Case[]): void {
  for (const [pattern, value, matches] of cases) {
    expect(
      compileMatcher(pattern).test(value),
      `${JSON.stringify(pattern)} tested against ${JSON.stringify(value)}`,
    ).toBe(matches);
  }
}

describe('[L-MATCH-2] missing, "" and "*" always match', () => {
  const always: Array<string | undefined> = [undefined, '', '*'];
  for (const pattern of always) {
    it(`[L-MATCH-2] ${JSON.stringify(pattern) ?? 'missing'} matches any name, the empty name and no name`, () => {
      const m = compileMatcher(pattern);
      expect(m.error).toBeUndefined();
      for (const value of ['Write', 'Bash', 'mcp__github__read', '', 'startup', ' ', '.*']) {
        expect(m.test(value), JSON.stringify(value)).toBe(true);
      }
      expect(m.test(undefined)).toBe(true);
    });
  }
});

describe('[L-MATCH-2] without `*`: exact first, then an unanchored regular expression', () => {
  const cases: Case[] = [
    // exact
    ['Write', 'Write', true],
    ['Bash', 'Bash', true],
    // unanchored regex: a plain name also matches inside a longer name
    ['Write', 'ReWrite', true],
    ['Write', 'Writer', true],
    ['Write', 'write', false],
    ['Write', 'Wri', false],
    ['Write', 'Read', false],
    // anchored by the author
    ['^Write$', 'Write', true],
    ['^Write$', 'Writer', false],
    ['^Write$', 'ReWrite', false],
    // alternation
    ['Edit|Write', 'Edit', true],
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'MultiEdit', true],
    ['Edit|Write', 'Read', false],
    ['^(Write|Edit)$', 'Write', true],
    ['^(Write|Edit)$', 'Edit', true],
    ['^(Write|Edit)$', 'MultiEdit', false],
    ['^(Write|Edit)$', 'Writer', false],
    // regex characters keep their meaning
    ['Bash.', 'Bash', false],
    ['Bash.', 'BashX', true],
    ['mcp__.+__read', 'mcp__github__read', true],
    ['mcp__.+__read', 'mcp____read', false],
    ['^mcp__', 'mcp__x__y', true],
    ['^mcp__', 'x_mcp__', false],
    // triggers are names too
    ['startup', 'startup', true],
    ['startup', 'resume', false],
    ['manual|auto', 'auto', true],
  ];
  it('[L-MATCH-2] table', () => check(cases));

  it('[L-MATCH-2] a pattern that is its own value matches exactly even when the regex would not', () => {
    // As a regex `a+b` means "one or more a, then b": it does not match the literal text `a+b`.
    check([
      ['a+b', 'a+b', true],
      ['a+b', 'aab', true],
      ['Bash(git)', 'Bash(git)', true],
      ['Bash(git)', 'Bashgit', true],
      ['Bash(git)', 'Bash', false],
      ['$x', '$x', true],
    ]);
  });
});

describe('[L-MATCH-2] with `*`: each star becomes `.*`, the whole anchored, nothing escaped', () => {
  const cases: Case[] = [
    ['Wr*', 'Write', true],
    ['Wr*', 'Wr', true],
    ['Wr*', 'ReWrite', false],
    ['Wr*', 'wr', false],
    ['*Write', 'ReWrite', true],
    ['*Write', 'Writer', false],
    ['*Write*', 'ReWriter', true],
    // `a.c*` → `^a.c.*$`: the dot is a regex dot, not escaped
    ['a.c*', 'abc', true],
    ['a.c*', 'a.cx', true],
    ['a.c*', 'abcdef', true],
    ['a.c*', 'ac', false],
    ['a.c*', 'xabc', false],
    ['mcp__*__read', 'mcp__github__read', true],
    ['mcp__*__read', 'mcp____read', true],
    ['mcp__*__read', 'mcp__github__write', false],
    ['mcp__*__read', 'mcp__github__readme', false],
    ['mcp__*__read', 'x_mcp__github__read', false],
    // not a glob: `?` is a regex quantifier, `.` any character
    ['Bas?h*', 'Bah', true],
    ['Bas?h*', 'Bash', true],
    ['f.o*', 'fxo', true],
    // alternation inside an anchored whole: `^Edit|Write.*$` keeps regex precedence
    ['Edit|Write*', 'Edit', true],
    ['Edit|Write*', 'Writer', true],
  ];
  it('[L-MATCH-2] table', () => check(cases));

  it('[L-MATCH-2] a starred pattern does not match itself literally unless its regex does', () => {
    // `^a+.*$` vs the text `a+*`: `a+` matches `a`, `.*` matches `+*`, so it does match.
    check([
      ['a+*', 'a+*', true],
      ['b+x*', 'b+x*', false],
    ]);
  });
});

describe('[L-MATCH-3] a matcher that is not a valid regex matches only exactly', () => {
  const invalid = ['[', '(Write', 'Write)', '*(', 'a[*', '?x'];
  for (const pattern of invalid) {
    it(`[L-MATCH-3] ${JSON.stringify(pattern)} has .error and matches only its own text`, () => {
      const m = compileMatcher(pattern);
      expect(m.error).toEqual(expect.any(String));
      expect(m.error).toContain(JSON.stringify(pattern));
      expect(m.source).toBe(pattern);
      expect(m.test(pattern)).toBe(true);
      for (const other of ['Write', 'ReWrite', `${pattern}x`, `x${pattern}`, '', 'Bash']) {
        expect(m.test(other), JSON.stringify(other)).toBe(false);
      }
      // [L-MATCH-1] no name at all: every matcher matches, even this one.
      expect(m.test(undefined)).toBe(true);
    });
  }

  it('[L-MATCH-3] valid patterns have no .error', () => {
    for (const p of ['Write', '^Write$', 'Wr*', 'a.c*', 'Edit|Write', '^(Write|Edit)$', '', '*']) {
      expect(compileMatcher(p).error, p).toBeUndefined();
    }
    expect(compileMatcher(undefined).error).toBeUndefined();
  });
});

describe('[L-MATCH-1] the value tested: toolName, else trigger; neither → every matcher matches', () => {
  it('[L-MATCH-1] matchTarget picks toolName first, then trigger, ignoring non-strings', () => {
    const cases: Array<[context: Record<string, unknown>, target: string | undefined]> = [
      [{ toolName: 'Write' }, 'Write'],
      [{ trigger: 'startup' }, 'startup'],
      [{ toolName: 'Write', trigger: 'startup' }, 'Write'],
      [{ trigger: 'auto', toolName: 'Bash' }, 'Bash'],
      [{ toolName: '', trigger: 'auto' }, ''],
      [{}, undefined],
      [{ toolInput: { toolName: 'Write' } }, undefined],
      [{ toolName: 42 }, undefined],
      [{ toolName: null, trigger: 'manual' }, 'manual'],
      [{ toolName: { name: 'Write' }, trigger: 'resume' }, 'resume'],
      [{ toolName: ['Write'] }, undefined],
      [{ trigger: 7 }, undefined],
      [{ toolName: 1, trigger: false }, undefined],
    ];
    for (const [context, target] of cases) {
      expect(matchTarget(context), JSON.stringify(context)).toBe(target);
    }
  });

  it('[L-MATCH-1] with no toolName and no trigger every matcher matches, including anchored ones', () => {
    const context: Record<string, unknown> = { toolInput: { path: 'a.txt' }, prompt: 'hi' };
    const target = matchTarget(context);
    expect(target).toBeUndefined();
    for (const p of [
      undefined,
      '',
      '*',
      'Write',
      '^Write$',
      'Wr*',
      'mcp__*__read',
      '^(Write|Edit)$',
      '(Write',
    ]) {
      expect(compileMatcher(p).test(target), String(p)).toBe(true);
    }
  });

  it('[L-MATCH-1] toolName wins over trigger when both are present', () => {
    const target = matchTarget({ toolName: 'Read', trigger: 'Write' });
    expect(compileMatcher('^Write$').test(target)).toBe(false);
    expect(compileMatcher('^Read$').test(target)).toBe(true);
  });

  it('[L-MATCH-1] trigger is used when there is no toolName (or it is not a string)', () => {
    expect(compileMatcher('^startup$').test(matchTarget({ trigger: 'startup' }))).toBe(true);
    expect(compileMatcher('^startup$').test(matchTarget({ trigger: 'resume' }))).toBe(false);
    expect(compileMatcher('^startup$').test(matchTarget({ toolName: 3, trigger: 'startup' }))).toBe(true);
  });

  it('[L-MATCH-1] a non-string toolName is ignored: with no trigger every matcher matches', () => {
    expect(compileMatcher('^Write$').test(matchTarget({ toolName: 42 }))).toBe(true);
    expect(compileMatcher('^Write$').test(matchTarget({ toolName: { x: 1 } }))).toBe(true);
  });

  it('[L-MATCH-1] an empty toolName is a name: only always-matchers and patterns matching "" accept it', () => {
    const target = matchTarget({ toolName: '' });
    expect(target).toBe('');
    expect(compileMatcher('Write').test(target)).toBe(false);
    expect(compileMatcher('*').test(target)).toBe(true);
    expect(compileMatcher('W*').test(target)).toBe(false);
    expect(compileMatcher('^$').test(target)).toBe(true);
  });
});

describe('[L-MATCH-4] every regex runs on a linear-time engine', () => {
  it('[L-MATCH-4] ^(\\w+)+X$ against a 64-character name completes (linear time)', () => {
    // On V8's backtracking RegExp this call runs for far longer than any test timeout.
    const m = compileMatcher('^(\\w+)+X$');
    expect(m.error).toBeUndefined();
    expect(m.test('a'.repeat(64))).toBe(false);
    expect(m.test(`${'a'.repeat(64)}X`)).toBe(true);
    expect(m.test(`${'a'.repeat(64)}X!`)).toBe(false);
  });

  it('[L-MATCH-4] other catastrophic patterns complete on long names, in every dialect', () => {
    const name = `${'a'.repeat(5000)}!`;
    // No `*` here: in the gate dialect a star would become `.*` and anchor the whole.
    const cases: Array<[pattern: string, matches: boolean]> = [
      ['(a+)+$', false],
      ['^(a|a)+$', false],
      ['(a+)+b', false],
      ['^(a|aa)+$', false],
      ['(x+x+)+y', false],
      ['(\\w+\\s?)+$', false],
      ['(.+a){12}', true],
      ['(a+)+!', true],
    ];
    for (const [pattern, matches] of cases) {
      expect(compileMatcher(pattern).test(name), pattern).toBe(matches);
      expect(compileClaudeMatcher(pattern).test(name), pattern).toBe(matches);
      expect(compileGeminiMatcher(pattern, 'tool').test(name), pattern).toBe(matches);
    }
  });

  const unsupported: Array<[pattern: string, feature: string]> = [
    ['(a)\\1', 'backreference \\1'],
    ['^(Edit|Write)\\1$', 'backreference \\1'],
    ['(?<tool>Edit)\\k<tool>', 'named backreference \\k<tool>'],
    ['Write(?=r)', 'lookahead (?='],
    ['(?!Read)\\w+', 'lookahead (?!'],
    ['(?<=mcp__)write', 'lookbehind (?<='],
    ['(?<!Multi)Edit', 'lookbehind (?<!'],
    ['a{1001}', 'invalid repeat count'],
  ];
  for (const [pattern, feature] of unsupported) {
    it(`[L-MATCH-4] ${JSON.stringify(pattern)} is valid JavaScript but not linear: .error (${feature}), exact match only`, () => {
      expect(() => new RegExp(pattern)).not.toThrow();
      const m = compileMatcher(pattern);
      expect(m.source).toBe(pattern);
      expect(m.error).toContain(JSON.stringify(pattern));
      expect(m.error).toContain(feature);
      expect(m.error).toContain('linear-time regex engine does not support');
      expect(m.error).toContain('it matches only the exact name');
      expect(m.error).not.toContain('\n');
      expect(m.test(pattern)).toBe(true);
      for (const other of ['Write', 'Writer', 'Edit', 'EditEdit', 'aa', 'mcp__write', 'Bash', '']) {
        expect(m.test(other), other).toBe(false);
      }
      // [L-MATCH-1] no name at all: every matcher matches, even this one.
      expect(m.test(undefined)).toBe(true);
    });
  }

  it('[L-MATCH-4] a backreference inside a starred pattern is reported too', () => {
    const m = compileMatcher('(a)\\1*');
    expect(m.error).toContain('backreference');
    expect(m.test('(a)\\1*')).toBe(true);
    expect(m.test('aa')).toBe(false);
  });

  it('[L-MATCH-4] named groups are plain groups (names do not matter to a test)', () => {
    check([
      ['(?<tool>Edit|Write)', 'MultiEdit', true],
      ['^(?<tool>Edit|Write)$', 'Write', true],
      ['^(?<tool>Edit|Write)$', 'Writer', false],
      ['^(?<server>mcp__\\w+?)__read$', 'mcp__github__read', true],
      ['^(?<server>mcp__\\w+?)__read$', 'mcp__github__write', false],
      ['(?<$x>a)(?<_y>b)', 'ab', true],
      ['^(?<a>x)(?:y)(z)$', 'xyz', true],
    ]);
    expect(compileMatcher('(?<tool>Edit|Write)').error).toBeUndefined();
  });

  it('[L-MATCH-4] JavaScript spellings RE2 lacks or reads differently keep their JavaScript meaning', () => {
    check([
      // `\s` is JavaScript's (Unicode spaces, \v); RE2's is only [\t\n\f\r ]
      ['^a\\sb$', 'a\u00a0b', true],
      ['^a\\sb$', 'a\vb', true],
      ['^a\\sb$', 'a\ufeffb', true],
      ['^a\\Sb$', 'a\u00a0b', false],
      ['^a[\\S]b$', 'axb', true],
      ['^a[^\\s]b$', 'a\u2028b', false],
      // `.` does not match \r, \u2028, \u2029 (RE2's only excludes \n)
      ['^a.b$', 'a\rb', false],
      ['^a.b$', 'a\u2028b', false],
      ['^a.b$', 'a\tb', true],
      ['Wr*', 'Wr\r', false],
      // escapes RE2 spells otherwise or rejects
      ['^\\u0041$', 'A', true],
      ['^\\x41$', 'A', true],
      ['^\\cA$', '\u0001', true],
      ['^\\0$', '\u0000', true],
      ['^\\12$', '\n', true],
      ['^\\8$', '8', true],
      ['^\\/x$', '/x', true],
      ['^\\-$', '-', true],
      // identity escapes: letters RE2 gives a meaning to are plain letters in JavaScript
      ['^\\a$', 'a', true],
      ['^\\z$', 'z', true],
      ['^\\A$', 'A', true],
      ['^\\Qa$', 'Qa', true],
      ['^\\pL$', 'pL', true],
      ['^\\k$', 'k', true],
      ['^\\e$', 'e', true],
      ['^\\u$', 'u', true],
      ['^\\x$', 'x', true],
      // character classes
      ['^[]$', '', false],
      ['[]', 'Write', false],
      ['^[^]$', '\n', true],
      ['^[[:alpha:]]$', 'a]', true],
      ['^[[:alpha:]]$', 'a', false],
      ['^[\\b]$', '\b', true],
      ['^[\\d-z]$', '-', true],
      ['^[\\u0041-\\u0043]$', 'B', true],
      ['^[a-]$', '-', true],
      // braces that are not quantifiers are literal
      ['^x{,5}$', 'x{,5}', true],
      ['^x{$', 'x{', true],
      ['^a}$', 'a}', true],
      ['^a]$', 'a]', true],
      ['^x{2}$', 'xx', true],
      // \d, \w, \b are ASCII in both
      ['^\\d+$', '٣', false],
      ['^\\w+$', 'é', false],
      ['\\bEdit\\b', 'Multi Edit', true],
      ['\\bEdit\\b', 'MultiEdit', false],
    ]);
  });

  it('[L-MATCH-4] translateJsRegex: spelling differences translated, the rest named', () => {
    expect(translateJsRegex('(?<name>a)\\u0041\\/\\u002e')).toEqual({ re2: '(a)A\\x{2F}\\x{2E}' });
    expect(translateJsRegex('a.b')).toEqual({ re2: 'a[^\\x{A}\\x{D}\\x{2028}\\x{2029}]b' });
    expect(translateJsRegex('x{2,3}?|y{')).toEqual({ re2: 'x{2,3}?|y\\{' });
    expect(translateJsRegex('(a)\\1')).toEqual({ unsupported: 'backreference \\1' });
    expect(translateJsRegex('\\1')).toEqual({ re2: '\\x{1}' });
    expect(translateJsRegex('(?=a)')).toEqual({ unsupported: 'lookahead (?=' });
    expect(translateJsRegex('(?<!a)')).toEqual({ unsupported: 'lookbehind (?<!' });
    expect(translateJsRegex('(?i:a)')).toEqual({ unsupported: 'inline modifier group (?i:' });
  });

  // Patterns taken as-is from V8 semantics: every one must answer exactly as `new RegExp` does,
  // whether it runs on the string fast path or on the engine.
  const differential = [
    'Write',
    'Edit|Write',
    '^(Edit|Write)$',
    '^(?:Edit|Write)$',
    '(Edit|Write)$',
    '^(.*Edit)$',
    '^(Edit.*)$',
    'mcp__.*__write',
    '^mcp__.*__write$',
    'mcp__.*?__write',
    '^mcp__.*',
    '.*Edit',
    '^.*$',
    '^$',
    '^',
    '$',
    'Edit|',
    '^Edit|Write$',
    'a.*b.*c',
    '^a.*b.*c$',
    'x.*$',
    '^.*x',
    'mcp__.+__write',
    '^(Multi)?Edit$',
    '\\.',
    'a\\.b',
    '\\s',
    '\\S',
    '[\\s]',
    '[^\\s]',
    '[a\\S]',
    '.',
    '^.$',
    '\\d+',
    '\\w+',
    '\\bWrite\\b',
    '[]',
    '[^]',
    '[]a]',
    '[[]',
    '\\/',
    '\\cA',
    '\\c1',
    '[\\c1]',
    '\\x4',
    '\\u004',
    '\\01',
    '\\18',
    '[\\1]',
    'x{,5}',
    'x{2,}',
    '}',
    ']',
    '(?<n>Wr)ite',
    'a\\u{3}',
    '[\\d-z]',
    '[--/]',
    '[\\u0000-\\u001f]',
    'Bash(git)',
    'a+b',
    '$x',
  ];
  const values = [
    'Write',
    'Edit',
    'MultiEdit',
    'Writer',
    'ReWrite',
    'mcp__github__write',
    'mcp____write',
    'mcp__a\n__write',
    'mcp__a\u2028__write',
    'x\r',
    '\rx',
    'a b',
    '\u00a0',
    '\v',
    '',
    'a',
    'A',
    '\u0001',
    '\u0011',
    '\n',
    'x{,5}',
    'xx',
    'xxx',
    '/',
    '-',
    '}',
    ']',
    '[',
    'z',
    'c1',
    '\\c1',
    '8',
    '\u00018',
    'a.b',
    'axb',
    'xay',
    'xa\ny',
    'abc',
    'ab\nc',
    'uuu',
    'Bash(git)',
    'Bashgit',
    'aab',
    '$x',
    'Edit.txt',
  ];
  it('[L-MATCH-4] the linear engine answers as V8 would, fast path or not (differential)', () => {
    const wrong: string[] = [];
    for (const pattern of differential) {
      const m = compileMatcher(pattern);
      expect(m.error, pattern).toBeUndefined();
      const v8 = new RegExp(pattern.includes('*') ? `^${pattern.replaceAll('*', '.*')}$` : pattern);
      for (const value of values) {
        const expected = (!pattern.includes('*') && value === pattern) || v8.test(value);
        if (m.test(value) !== expected) wrong.push(`${JSON.stringify(pattern)} ~ ${JSON.stringify(value)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('[L-MATCH-4] the string fast path covers literal alternations and `.*` gaps only', () => {
    for (const p of [
      'Write',
      'Edit|Write',
      '^(Edit|Write)$',
      '^(?:a|b)$',
      'mcp__.*__write',
      '^Wr.*$',
      'a\\.b',
    ]) {
      expect(literalShape(p), p).toBeDefined();
    }
    for (const p of [
      'Wr.',
      'a+',
      'mcp__.+__x',
      '(a)|(b)',
      '^(a|b)c$',
      'a^b',
      '[ab]',
      '\\d',
      'a{2}',
      '(?<n>a)',
    ]) {
      expect(literalShape(p), p).toBeUndefined();
    }
  });
});

describe('[C-MATCH-2] Claude Code matchers: exact names, else an unanchored regex', () => {
  const claude = (cases: readonly Case[]) => {
    for (const [pattern, value, matches] of cases) {
      expect(
        compileClaudeMatcher(pattern).test(value),
        `${JSON.stringify(pattern)} tested against ${JSON.stringify(value)}`,
      ).toBe(matches);
    }
  };

  it('[C-MATCH-2] "", "*" and no matcher match everything', () => {
    for (const p of [undefined, '', '*']) {
      const m = compileClaudeMatcher(p);
      expect(m.error).toBeUndefined();
      for (const v of ['Bash', '', 'mcp__x__y', undefined]) expect(m.test(v)).toBe(true);
    }
  });

  it('[C-MATCH-2] names only: exact, split on | or , and trimmed', () => {
    claude([
      ['Bash', 'Bash', true],
      ['Bash', 'BashOutput', false],
      ['Bash', 'bash', false],
      ['Bash', 'MyBash', false],
      ['Edit|Write', 'Edit', true],
      ['Edit|Write', 'Write', true],
      ['Edit|Write', 'MultiEdit', false],
      ['Edit|Write', 'Edit|Write', false],
      ['Edit, Write', 'Write', true],
      ['Edit, Write', 'Edit', true],
      ['Edit, Write', 'Edit, Write', false],
      [' Edit | Write ,MultiEdit', 'MultiEdit', true],
      [' Edit | Write ,MultiEdit', 'Write', true],
      ['mcp__memory__create-entities', 'mcp__memory__create-entities', true],
      ['mcp__memory', 'mcp__memory__create', false],
      ['Edit||Write', '', false],
    ]);
  });

  it('[C-MATCH-2] anything else: an unanchored, case-sensitive regex', () => {
    claude([
      ['Edit.*', 'NotebookEdit', true],
      ['Edit.*', 'Edit', true],
      ['Edit.*', 'edit', false],
      ['mcp__memory__.*', 'mcp__memory__create_entities', true],
      ['mcp__memory__.*', 'mcp__github__search', false],
      ['mcp__.*__write.*', 'mcp__fs__write_file', true],
      ['^Bash$', 'Bash', true],
      ['^Bash$', 'BashOutput', false],
      ['Notebook.*|^Edit$', 'NotebookRead', true],
      ['Notebook.*|^Edit$', 'MultiEdit', false],
      ['(?<t>Read|Glob)', 'Read', true],
    ]);
  });

  it('[C-MATCH-2] an uncompilable or invalid regex carries .error and matches only exactly', () => {
    for (const p of ['(Read|Glob', '(a)\\1', '(?=Bash)Bash']) {
      const m = compileClaudeMatcher(p);
      expect(m.error, p).toContain(JSON.stringify(p));
      expect(m.test(p)).toBe(true);
      expect(m.test('Bash')).toBe(false);
      expect(m.test('Read')).toBe(false);
    }
  });

  it('[C-MATCH-2] runs on the linear-time engine of L-MATCH-4', () => {
    expect(compileClaudeMatcher('^(\\w+)+X$').test('a'.repeat(64))).toBe(false);
  });
});

describe('[G-EV-1] Gemini CLI matchers: tool events a regex, other events exact', () => {
  it('[G-EV-1] "", "*", whitespace and no matcher match everything, for both kinds', () => {
    for (const kind of ['tool', 'trigger'] as const) {
      for (const p of [undefined, '', '*', '  ', ' * ']) {
        const m = compileGeminiMatcher(p, kind);
        expect(m.error).toBeUndefined();
        for (const v of ['read_file', 'startup', '', undefined]) expect(m.test(v), `${p} ${v}`).toBe(true);
      }
    }
  });

  it('[G-EV-1] tool events: an unanchored regex on the trimmed matcher', () => {
    const cases: Array<[string, string, boolean]> = [
      ['read_file', 'read_file', true],
      ['read_file', 'read_file_many', true],
      ['^read_file$', 'read_file_many', false],
      ['write_file|replace', 'replace', true],
      ['write_file|replace', 'read_file', false],
      ['  write_file ', 'write_file', true],
      ['mcp__.*', 'mcp__github__list', true],
      ['Read', 'read_file', false],
      ['^(\\w+)+X$', 'a'.repeat(64), false],
    ];
    for (const [p, v, expected] of cases)
      expect(compileGeminiMatcher(p, 'tool').test(v), `${p} ${v}`).toBe(expected);
  });

  it('[G-EV-1] tool events: an invalid or unsupported regex matches exactly (and carries .error)', () => {
    for (const p of ['read_file(', '(a)\\1', ' (?=x)x ']) {
      const m = compileGeminiMatcher(p, 'tool');
      expect(m.error, p).toContain(JSON.stringify(p));
      expect(m.test(p.trim())).toBe(true);
      expect(m.test('read_file')).toBe(false);
      expect(m.test('x')).toBe(false);
    }
  });

  it('[G-EV-1] other events: the trigger matches exactly, never as a regex', () => {
    const cases: Array<[string, string, boolean]> = [
      ['startup', 'startup', true],
      [' startup ', 'startup', true],
      ['startup', 'startup2', false],
      ['start.*', 'startup', false],
      ['start.*', 'start.*', true],
      ['manual|auto', 'auto', false],
      ['(', '(', true],
    ];
    for (const [p, v, expected] of cases) {
      const m = compileGeminiMatcher(p, 'trigger');
      expect(m.error).toBeUndefined();
      expect(m.test(v), `${p} ${v}`).toBe(expected);
    }
  });

  it('[G-EV-1] an empty or missing value matches, as Gemini CLI skips matching then', () => {
    expect(compileGeminiMatcher('^read_file$', 'tool').test('')).toBe(true);
    expect(compileGeminiMatcher('^read_file$', 'tool').test(undefined)).toBe(true);
    expect(compileGeminiMatcher('startup', 'trigger').test('')).toBe(true);
  });
});

describe('primaryScriptOf: the script a command runs (checked before a run: missing → fail, not exit 2)', () => {
  it.each<[string, string | undefined]>([
    ['sh .lurus/hooks/a.sh', '/p/.lurus/hooks/a.sh'],
    ['./x.sh arg', '/p/x.sh'],
    ['node .lurus/hooks/block-write.cjs', '/p/.lurus/hooks/block-write.cjs'],
    ['npx tsx .lurus/hooks/a.ts', '/p/.lurus/hooks/a.ts'],
    ['/usr/bin/python3 ~/h.py', '/home/u/h.py'],
    ['python3 ~/h.py', '/home/u/h.py'],
    ['sh -c "echo hi"', undefined],
    ['python3 -m mod', undefined],
    ['echo hi', undefined],
    ['sh "$HOOK"', undefined],
    ['"/opt/my hooks/a.sh"', '/opt/my hooks/a.sh'],
  ])('%s → %s', (command, expected) => {
    expect(primaryScriptOf(command, '/p', '/home/u')).toBe(expected);
  });
});
