/**
 * A unified diff of two small texts (what `install --dry-run` shows) [R-INST-1]: `---`/`+++`
 * headers (`/dev/null` for a file created or removed) and hunks with three lines of context.
 * Lines are compared whole; settings files are small, so a plain longest-common-subsequence
 * table over the lines between the common head and tail is enough.
 */

const CONTEXT = 3;
/** Beyond this many table cells, the changed middle is shown as all removed, then all added. */
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** `''` when the texts are equal. `null`: no file. */
export function unifiedDiff(file: string, before: string | null, after: string | null): string {
  if (before === after) return '';
  const a = linesOf(before);
  const b = linesOf(after);
  const ops = diffLines(a, b);
  const out = [`--- ${before === null ? '/dev/null' : file}`, `+++ ${after === null ? '/dev/null' : file}`];
  for (const hunk of hunks(ops)) out.push(...hunk);
  return `${out.join('\n')}\n`;
}

function linesOf(text: string | null): string[] {
  if (text === null || text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const same = (lines: readonly string[]) => lines.map((line): Op => ({ kind: ' ', line }));
  return [...same(a.slice(0, head)), ...middle(x, y), ...same(a.slice(a.length - tail))];
}

function middle(x: readonly string[], y: readonly string[]): Op[] {
  const removed = x.map((line): Op => ({ kind: '-', line }));
  const added = y.map((line): Op => ({ kind: '+', line }));
  if (x.length === 0 || y.length === 0 || (x.length + 1) * (y.length + 1) > MAX_CELLS)
    return [...removed, ...added];
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      ops.push({ kind: ' ', line: x[i++]! });
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) ops.push({ kind: '-', line: x[i++]! });
    else ops.push({ kind: '+', line: y[j++]! });
  }
  while (i < x.length) ops.push({ kind: '-', line: x[i++]! });
  while (j < y.length) ops.push({ kind: '+', line: y[j++]! });
  return ops;
}

/** The changes with CONTEXT lines around each, runs closer than twice that joined into one hunk. */
function hunks(ops: readonly Op[]): string[][] {
  const changed = ops.flatMap((op, k) => (op.kind === ' ' ? [] : [k]));
  const out: string[][] = [];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - CONTEXT);
    let end = changed[k]!;
    while (k + 1 < changed.length && changed[k + 1]! - end <= 2 * CONTEXT) end = changed[++k]!;
    end = Math.min(ops.length, end + CONTEXT + 1);
    k++;
    const slice = ops.slice(start, end);
    const oldStart = ops.slice(0, start).filter((op) => op.kind !== '+').length;
    const newStart = ops.slice(0, start).filter((op) => op.kind !== '-').length;
    const oldLen = slice.filter((op) => op.kind !== '+').length;
    const newLen = slice.filter((op) => op.kind !== '-').length;
    out.push([
      `@@ -${range(oldStart, oldLen)} +${range(newStart, newLen)} @@`,
      ...slice.map((op) => `${op.kind}${op.line}`),
    ]);
  }
  return out;
}

/** Unified diff ranges: 1-based start, and the length when it is not 1 (`0,0` for none). */
function range(start: number, length: number): string {
  if (length === 0) return `${start},0`;
  return length === 1 ? `${start + 1}` : `${start + 1},${length}`;
}
