/**
 * [R-MAP-1] Codex's `apply_patch` text read as Codex's own parser (codex-rs/apply-patch,
 * lenient mode) reads it: every file section, indented headers, `*** Move to:`, the heredoc
 * wrapper, Rust's whitespace — and `patchFiles`, which also counts every line that only looks
 * like a header, so no reading of another Codex version walks a file past the gate.
 */
import { describe, expect, it } from 'vitest';
import { parsePatch, patchFiles, rustTrim } from '../src/action/patch-files.ts';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('[R-MAP-1] parsePatch: as Codex reads a patch', () => {
  it('every file section in order: add (with its content), delete, update with a move', () => {
    const read = parsePatch(
      patch(
        '*** Add File: path/add.py',
        '+abc',
        '+def',
        '*** Delete File: path/delete.py',
        '*** Update File: path/update.py',
        '*** Move to: path/update2.py',
        '@@ def f():',
        '-    pass',
        '+    return 123',
      ),
    );
    expect(read).toEqual({
      ok: true,
      hunks: [
        { kind: 'add', path: 'path/add.py', content: 'abc\ndef\n' },
        { kind: 'delete', path: 'path/delete.py' },
        { kind: 'update', path: 'path/update.py', moveTo: 'path/update2.py' },
      ],
    });
  });

  it('a second file after an update block, and an update without @@ for its first block', () => {
    expect(
      parsePatch(
        patch('*** Update File: a.ts', ' import x', '+y', '*** Update File: .env', '@@', '-A=1', '+A=2'),
      ),
    ).toEqual({
      ok: true,
      hunks: [
        { kind: 'update', path: 'a.ts' },
        { kind: 'update', path: '.env' },
      ],
    });
  });

  it('headers are read trimmed: an indented header is a header (first section, after an add or a delete)', () => {
    expect(parsePatch(patch('   *** Update File: .env', '@@', '-a', '+b'))).toEqual({
      ok: true,
      hunks: [{ kind: 'update', path: '.env' }],
    });
    expect(
      parsePatch(patch('*** Add File: ok.txt', '+hi', '\t*** Delete File: .env', '  *** Add File: x')),
    ).toEqual({
      ok: true,
      hunks: [
        { kind: 'add', path: 'ok.txt', content: 'hi\n' },
        { kind: 'delete', path: '.env' },
        { kind: 'add', path: 'x', content: '' },
      ],
    });
  });

  it("Rust's whitespace: a NEL or no-break space indents a header; a BOM does not trim (Codex refuses the patch)", () => {
    expect(parsePatch(patch('\u0085*** Update File: .env', '@@', '-a', '+b'))).toEqual({
      ok: true,
      hunks: [{ kind: 'update', path: '.env' }],
    });
    expect(parsePatch(patch('\u00a0\u3000*** Delete File: .env'))).toEqual({
      ok: true,
      hunks: [{ kind: 'delete', path: '.env' }],
    });
    expect(parsePatch(`\ufeff${patch('*** Delete File: x')}`).ok).toBe(false);
    expect(rustTrim('\u2003 x \u2028')).toBe('x');
    expect(rustTrim('\ufeffx')).toBe('\ufeffx');
  });

  it('inside an update block an indented header is a context line, and an indented Move to is not a move', () => {
    expect(parsePatch(patch('*** Update File: a.ts', '@@', ' *** Update File: .env', '+x'))).toEqual({
      ok: true,
      hunks: [{ kind: 'update', path: 'a.ts' }],
    });
    expect(parsePatch(patch('*** Update File: a.ts', ' *** Move to: .env', '+x'))).toEqual({
      ok: true,
      hunks: [{ kind: 'update', path: 'a.ts' }],
    });
  });

  it('the markers may carry spaces; CRLF lines; the heredoc wrapper <<EOF … EOF of lenient mode', () => {
    expect(parsePatch('  *** Begin Patch \r\n*** Delete File: a\r\n *** End Patch  \r\n')).toEqual({
      ok: true,
      hunks: [{ kind: 'delete', path: 'a' }],
    });
    for (const start of ['<<EOF', "<<'EOF'", '<<"EOF"'])
      expect(parsePatch(`${start}\n${patch('*** Delete File: .env')}\nEOF\n`)).toEqual({
        ok: true,
        hunks: [{ kind: 'delete', path: '.env' }],
      });
    expect(parsePatch(`<<END\n${patch('*** Delete File: .env')}\nEND`).ok).toBe(false);
  });

  it('a move target is read untrimmed; *** End of File closes a block; an empty patch has no files', () => {
    expect(
      parsePatch(patch('*** Update File: a', '*** Move to: b  ', '@@', '-x', '+y', '*** End of File')),
    ).toEqual({
      ok: true,
      hunks: [{ kind: 'update', path: 'a', moveTo: 'b  ' }],
    });
    expect(parsePatch(patch())).toEqual({ ok: true, hunks: [] });
  });

  it('what Codex refuses: no markers, an update with no change, an unknown header, a block without @@ after the first', () => {
    const problems = [
      'bad',
      '*** Begin Patch\n*** Delete File: a',
      patch('*** Update File: a'),
      patch('*** Copy File: a'),
      patch('*** Update File: a', '@@', '-x', 'junk'),
      patch('*** Update File: a', '@@'),
    ].map((text) => parsePatch(text));
    for (const read of problems) expect(read.ok).toBe(false);
  });
});

describe('[R-MAP-1] patchFiles: every file the patch touches, lookalike headers too', () => {
  it("Codex's files first, a move as its source and its target", () => {
    expect(
      patchFiles(
        patch('*** Add File: n.txt', '+x', '*** Update File: a.ts', '*** Move to: .env', '@@', '-a', '+b'),
      ),
    ).toEqual({
      files: [
        { change: 'add', path: 'n.txt', content: 'x\n' },
        { change: 'move-from', path: 'a.ts' },
        { change: 'move-to', path: '.env' },
      ],
    });
  });

  it('a header Codex reads as a context line is still counted, as is every header of a patch Codex would refuse', () => {
    expect(patchFiles(patch('*** Update File: a.ts', '@@', ' *** Update File: .env', '+x')).files).toEqual([
      { change: 'update', path: 'a.ts' },
      { change: 'update', path: '.env' },
    ]);
    expect(patchFiles(patch('*** Update File: a.ts', '  *** Move to: .env', '+x')).files).toEqual([
      { change: 'update', path: 'a.ts' },
      { change: 'move-to', path: '.env' },
    ]);
    const refused = patchFiles('*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Delete File: .env\n');
    expect(refused.problem).toContain('End Patch');
    expect(refused.files).toEqual([
      { change: 'update', path: 'a' },
      { change: 'delete', path: '.env' },
    ]);
  });

  it('an everyday patch has just its files, each once', () => {
    expect(
      patchFiles(
        patch(
          '*** Update File: src/a.ts',
          '@@',
          '-a',
          '+b',
          '@@ fn x',
          '-c',
          '+d',
          '*** Delete File: old.ts',
        ),
      ),
    ).toEqual({
      files: [
        { change: 'update', path: 'src/a.ts' },
        { change: 'delete', path: 'old.ts' },
      ],
    });
  });
});
