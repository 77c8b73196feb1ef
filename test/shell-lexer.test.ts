/**
 * The shell lexer every command-line reader uses (consent pins [L-TRUST-1], Claude `if` rules
 * [C-RUN-1], Gemini's variable rewrite [G-RUN-2]): tokens and parts with source offsets, quoting,
 * substitutions read at absolute offsets, here-documents, unbalanced text, bounded nesting.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines; `${VAR}` is shell syntax.
import { describe, expect, it } from 'vitest';
import {
  type CommandPart,
  lexShell,
  type Part,
  type Span,
  type Token,
  type Word,
} from '../src/core/shell-lexer.ts';

const slice = (source: string, span: Span) => source.slice(span.start, span.end);

function onlyWord(tokens: readonly Token[]): Word {
  expect(tokens).toHaveLength(1);
  const [word] = tokens;
  if (word?.kind !== 'word') throw new Error(`not a word: ${word?.kind}`);
  return word;
}

function commandPart(part: Part | undefined): CommandPart {
  if (part?.kind !== 'command') throw new Error(`not a substitution: ${part?.kind}`);
  return part;
}

/** Every token and part, nested ones included, in order. */
function everything(tokens: readonly Token[]): (Token | Part)[] {
  const out: (Token | Part)[] = [];
  const parts = (ps: readonly Part[]) => {
    for (const p of ps) {
      out.push(p);
      if (p.kind === 'command') out.push(...everything(p.tokens));
      if (p.kind === 'parameter' || p.kind === 'arithmetic') parts(p.parts);
    }
  };
  for (const t of tokens) {
    out.push(t);
    if (t.kind === 'word') parts(t.parts);
    if (t.kind === 'redirection' && t.target !== undefined) {
      out.push(t.target);
      parts(t.target.parts);
    }
  }
  return out;
}

describe('[L-TRUST-1] tokens and parts carry their source offsets', () => {
  it('[L-TRUST-1] every part of a word slices back to what it was read from, with its quoting', () => {
    const source = `x"b$X"'c'\\d$'e'\${F:-g}$((1+2))$(h)\`i\`$1`;
    const word = onlyWord(lexShell(source).tokens);
    expect(slice(source, word)).toBe(source);
    expect(word.parts.map((p) => [p.kind, p.quoting, slice(source, p)])).toEqual([
      ['text', 'unquoted', 'x'],
      ['text', 'double', 'b'],
      ['variable', 'double', '$X'],
      ['text', 'single', "'c'"],
      ['text', 'escaped', '\\d'],
      ['text', 'ansi', "$'e'"],
      ['parameter', 'unquoted', '${F:-g}'],
      ['arithmetic', 'unquoted', '$((1+2))'],
      ['command', 'unquoted', '$(h)'],
      ['command', 'unquoted', '`i`'],
      ['special', 'unquoted', '$1'],
    ]);
    expect(word.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : []))).toEqual(['x', 'b', 'c', 'd', 'e']);
  });

  it('[L-TRUST-1] ${NAME} is a variable; any other ${…} keeps what stands between its braces', () => {
    const source = '${HOME} ${X:-$(pwd)}';
    const [home, other] = lexShell(source).tokens.map((t) => (t.kind === 'word' ? t.parts[0] : undefined));
    expect(home).toMatchObject({ kind: 'variable', name: 'HOME', start: 0, end: 7 });
    if (other?.kind !== 'parameter') throw new Error('not a parameter');
    expect(slice(source, other.inner)).toBe('X:-$(pwd)');
    expect(other.parts.map((p) => slice(source, p))).toEqual(['X:-', '$(pwd)']);
  });

  it('[C-RUN-1] operators, the newline, comments: each a token, every span inside the source', () => {
    const source = 'a && b || c; d | e & f |& g # note; h\ni;; (j)';
    const { tokens, unbalanced } = lexShell(source);
    expect(unbalanced).toBe(false);
    expect(tokens.map((t) => [t.kind, slice(source, t)])).toEqual([
      ['word', 'a'],
      ['operator', '&&'],
      ['word', 'b'],
      ['operator', '||'],
      ['word', 'c'],
      ['operator', ';'],
      ['word', 'd'],
      ['operator', '|'],
      ['word', 'e'],
      ['operator', '&'],
      ['word', 'f'],
      ['operator', '|&'],
      ['word', 'g'],
      ['comment', '# note; h'],
      ['operator', '\n'],
      ['word', 'i'],
      ['operator', ';;'],
      ['operator', '('],
      ['word', 'j'],
      ['operator', ')'],
    ]);
    // `#` inside a word is text; a line join joins a word, and one before a blank is no part of it.
    expect(lexShell('a#b c\\\nd e\\\n f').tokens.map((t) => t.kind === 'word' && t.end - t.start)).toEqual([
      3, 4, 1, 1,
    ]);
  });

  it('[L-TRUST-1] redirections: the file descriptor right before, the target after', () => {
    const source = 'cmd 2>&1 >|out &>log <<<str 3 >x <in >';
    const redirections = lexShell(source).tokens.flatMap((t) =>
      t.kind === 'redirection' ? [[t.op, t.fd, t.target && slice(source, t.target), slice(source, t)]] : [],
    );
    expect(redirections).toEqual([
      ['>&', '2', '1', '2>&1'],
      ['>|', undefined, 'out', '>|out'],
      ['&>', undefined, 'log', '&>log'],
      ['<<<', undefined, 'str', '<<<str'],
      // `3 >x`: a blank between, so `3` is a word.
      ['>', undefined, 'x', '>x'],
      ['<', undefined, 'in', '<in'],
      ['>', undefined, undefined, '>'],
    ]);
  });
});

describe('[C-RUN-1] substitutions hold what they contain, at absolute offsets', () => {
  it('[C-RUN-1] $(…) inside double quotes: inner text and tokens where they stand in the source', () => {
    const source = 'echo "$(date +%s) $(ls "a b")" | x';
    const [, word] = lexShell(source).tokens;
    if (word?.kind !== 'word') throw new Error('not a word');
    const [date, , ls] = word.parts;
    expect(commandPart(date)).toMatchObject({ form: '$(', quoting: 'double' });
    expect(slice(source, commandPart(date).inner)).toBe('date +%s');
    expect(commandPart(date).tokens.map((t) => slice(source, t))).toEqual(['date', '+%s']);
    expect(commandPart(ls).tokens.map((t) => slice(source, t))).toEqual(['ls', '"a b"']);
  });

  it('[C-RUN-1] nested $(…) and backticks; a backtick body is read in place', () => {
    const source = 'a $(b $(c `d \\`e\\``))';
    const outer = commandPart(onlyWord(lexShell(source).tokens.slice(1)).parts[0]);
    const inner = commandPart(onlyWord(outer.tokens.slice(1)).parts[0]);
    expect(slice(source, inner.inner)).toBe('c `d \\`e\\``');
    const ticks = commandPart(onlyWord(inner.tokens.slice(1)).parts[0]);
    expect(ticks.form).toBe('`');
    expect(slice(source, ticks.inner)).toBe('d \\`e\\`');
    // `\`` stays an escape in place (the shell would unescape it first).
    const [, escaped] = ticks.tokens;
    if (escaped?.kind !== 'word') throw new Error('not a word');
    expect(escaped.parts.map((p) => [p.kind, p.quoting])).toEqual([
      ['text', 'escaped'],
      ['text', 'unquoted'],
      ['text', 'escaped'],
    ]);
  });

  it('[C-RUN-1] process substitution <(…) and >(…) is part of a word, also as a redirection target', () => {
    const source = 'diff <(sort a) x>(tee b) < <(ls)';
    const { tokens } = lexShell(source);
    const forms = everything(tokens).flatMap((t) =>
      t.kind === 'command' ? [[t.form, slice(source, t.inner)]] : [],
    );
    expect(forms).toEqual([
      ['<(', 'sort a'],
      ['>(', 'tee b'],
      ['<(', 'ls'],
    ]);
    expect(tokens.map((t) => [t.kind, slice(source, t)])).toEqual([
      ['word', 'diff'],
      ['word', '<(sort a)'],
      ['word', 'x>(tee b)'],
      ['redirection', '< <(ls)'],
    ]);
  });

  it('[C-RUN-1] a `)` quoted, escaped or in a here-document body does not close $(…)', () => {
    const source = 'x=$(echo ")" \')\' \\) && cat <<E\n)\nE\n) y';
    const { tokens, unbalanced } = lexShell(source);
    expect(unbalanced).toBe(false);
    expect(tokens.map((t) => slice(source, t))).toEqual([source.slice(0, -2), 'y']);
  });

  it('[G-RUN-2] $((…)) ends at the `)` balancing its first `(`; its inner text is between $(( and ))', () => {
    const source = '$((1 + (2 * 3))) $((a) b)';
    const [arith, other] = lexShell(source).tokens.map((t) => (t.kind === 'word' ? t.parts[0] : undefined));
    if (arith?.kind !== 'arithmetic' || other?.kind !== 'arithmetic') throw new Error('not arithmetic');
    expect(slice(source, arith)).toBe('$((1 + (2 * 3)))');
    expect(slice(source, arith.inner)).toBe('1 + (2 * 3)');
    expect(slice(source, other)).toBe('$((a) b)');
  });

  it('[L-TRUST-1] a range is read at the offsets of the whole source', () => {
    const source = 'ignored; a "b" c; ignored';
    const { tokens } = lexShell(source, { start: 9, end: 16 });
    expect(tokens.map((t) => [t.start, t.end, slice(source, t)])).toEqual([
      [9, 10, 'a'],
      [11, 14, '"b"'],
      [15, 16, 'c'],
    ]);
  });
});

describe('[G-RUN-2] here-documents', () => {
  it('[G-RUN-2] the body follows the newline that ends its command, up to the delimiter line', () => {
    const source = 'cat <<EOF | wc; echo $x\nbody $y\n  EOF\nEOF\nnext';
    const { tokens } = lexShell(source);
    expect(tokens.map((t) => t.kind)).toEqual([
      'word',
      'redirection',
      'operator',
      'word',
      'operator',
      'word',
      'word',
      'operator',
      'heredoc',
      'operator',
      'word',
    ]);
    const doc = tokens[8];
    if (doc?.kind !== 'heredoc') throw new Error('not a heredoc');
    expect(doc).toMatchObject({ delimiter: 'EOF', quoted: false, stripTabs: false });
    expect(slice(source, doc.body)).toBe('body $y\n  EOF\n');
    expect(slice(source, doc)).toBe('body $y\n  EOF\nEOF');
  });

  it('[G-RUN-2] a quoted delimiter means a literal body; <<- strips leading tabs; two bodies in order', () => {
    const source = 'cat <<-\'E\' <<"F"\\G\n\ta\n\tE\nb\nFG\nrest';
    const docs = lexShell(source).tokens.flatMap((t) => (t.kind === 'heredoc' ? [t] : []));
    expect(docs.map((d) => [d.delimiter, d.quoted, d.stripTabs, slice(source, d.body)])).toEqual([
      ['E', true, true, '\ta\n'],
      ['FG', true, false, 'b\n'],
    ]);
  });

  it('[G-RUN-2] an unterminated body runs to the end, which is not unbalanced', () => {
    const source = 'cat <<E\nno end';
    const { tokens, unbalanced } = lexShell(source);
    expect(unbalanced).toBe(false);
    const doc = tokens.at(-1);
    expect(doc?.kind === 'heredoc' && slice(source, doc.body)).toBe('no end');
  });
});

describe('[C-RUN-1] unbalanced text is read to its end and flagged', () => {
  it.each([
    ["echo 'open"],
    ['echo "open'],
    ["echo $'open"],
    ['echo $(open'],
    ['echo `open'],
    ['echo ${open'],
    ['echo $((1 + 2'],
    ['(open'],
    ['stray )'],
    ['`echo )`'],
    ['echo <(open'],
  ])('[C-RUN-1] %j', (source) => {
    const { tokens, unbalanced } = lexShell(source);
    expect(unbalanced).toBe(true);
    expect(tokens.at(-1)?.end).toBe(source.length);
  });

  it.each([['echo \'a"b\' "c\'d" \\( x\\)'], ['f() { echo; }'], ['echo $() `` ${x} "" \'\''], ['echo \\']])(
    '[C-RUN-1] balanced: %j',
    (source) => {
      expect(lexShell(source).unbalanced).toBe(false);
    },
  );

  it('[C-RUN-1] what is open closes at the end: an unclosed $( still holds its commands', () => {
    const source = 'a "$(b c';
    const word = lexShell(source).tokens[1];
    if (word?.kind !== 'word') throw new Error('not a word');
    expect(commandPart(word.parts[0]).tokens.map((t) => slice(source, t))).toEqual(['b', 'c']);
  });
});

describe('[C-RUN-1] nesting is bounded at 32', () => {
  const nested = (n: number, open: string, close: string) => `${open.repeat(n)}x${close.repeat(n)}`;

  it.each([
    ['$(', ')'],
    ['${', '}'],
    ['(', ')'],
    ['$((', '))'],
  ])('[C-RUN-1] 32 levels of %s are read, 33 are not', (open, close) => {
    expect(lexShell(nested(32, open, close)).unbalanced).toBe(false);
    expect(lexShell(nested(33, open, close)).unbalanced).toBe(true);
  });

  it('[C-RUN-1] a backtick body counts as a level', () => {
    expect(lexShell(nested(31, '$(', ')').replace('x', '`x`')).unbalanced).toBe(false);
    expect(lexShell(nested(32, '$(', ')').replace('x', '`x`')).unbalanced).toBe(true);
  });

  it('[C-RUN-1] a range read again counts the depth it stands at', () => {
    expect(lexShell('$(x)', { depth: 31 }).unbalanced).toBe(false);
    expect(lexShell('$(x)', { depth: 32 }).unbalanced).toBe(true);
    expect(lexShell('x', { depth: 33 })).toEqual({ tokens: [], unbalanced: true });
  });

  // A quadratic reading of these would not end within the test's timeout; the cost is a bench row.
  it('[C-RUN-1] hostile nesting and long text are read in linear time', () => {
    for (const source of [
      '$('.repeat(100_000),
      '('.repeat(100_000),
      '${'.repeat(100_000),
      '`'.repeat(100_001),
      '$(('.repeat(50_000),
      'cat <<A\n'.repeat(20_000),
      `"${'\\$'.repeat(100_000)}"`,
      'a b; c && d | e '.repeat(10_000),
    ]) {
      expect(Array.isArray(lexShell(source).tokens)).toBe(true);
    }
  });
});

describe('[G-ACT-1] a here-document body as the shell expands it', () => {
  it('finds $(…) and backticks; quotes are plain characters', async () => {
    const { lexHereDocumentBody } = await import('../src/core/shell-lexer.ts');
    const source = `it's "$(rm -rf x)" and \`ls\` and \\$(not)`;
    const parts = lexHereDocumentBody(source, { start: 0, end: source.length });
    const commands = parts.filter((p) => p.kind === 'command').map((p) => slice(source, p));
    expect(commands).toEqual(['$(rm -rf x)', '`ls`']);
    expect(parts.every((p) => p.quoting === 'double' || p.quoting === 'escaped')).toBe(true);
  });
});
