/**
 * Gate matchers [L-MATCH-1..3]: pure, table-driven (`compileMatcher` + `matchTarget`).
 * Without `*`: exact first, then an unanchored regex. With `*`: each star becomes `.*`,
 * the whole is anchored, other regex characters keep their meaning (not a glob).
 */
import { describe, expect, it } from 'vitest';
import { compileMatcher, matchTarget } from '../src/registry/matcher.ts';
import { primaryScriptOf } from '../src/sources/command-words.ts';

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
