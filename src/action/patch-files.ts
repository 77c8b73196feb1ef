/**
 * Codex's `apply_patch` text read the way Codex's own parser reads it (codex-rs/apply-patch,
 * lenient mode), so that the gate sees **every** file a patch touches (issue 28 item 9, the
 * `paths` of SPEC §14.1's action view): what Codex would add, update, delete, and move where. Read from Codex's
 * rules, not its code:
 *
 * - The whole text is trimmed (Rust's Unicode whitespace: NEL and no-break spaces count, a BOM
 *   does not) and split into lines on `\n`, one trailing `\r` dropped from each.
 * - The first line, trimmed, is `*** Begin Patch`; the last, trimmed, `*** End Patch`. Failing
 *   that, a heredoc wrapper is accepted: a first line exactly `<<EOF`, `<<'EOF'` or `<<"EOF"`, a
 *   last line ending in `EOF`, at least four lines, and the markers inside it.
 * - A file section's header is read **trimmed** (so an indented header is a header):
 *   `*** Add File: P` (then every line starting with `+` is content), `*** Delete File: P`, or
 *   `*** Update File: P`, then optionally, on the very next line and **not** trimmed,
 *   `*** Move to: Q`, then change blocks (blank lines between them skipped): `@@`, `@@ ctx`, or
 *   (first block only) none, then lines starting with ` `, `+`, `-` or empty, an optional
 *   `*** End of File`; any other line ends the block. An update needs at least one block.
 * - A path is the rest of its header line after the marker's one space, as written (a move's
 *   target keeps trailing spaces, the trimmed headers cannot have any).
 *
 * `patchFiles` adds to that, as a guard should, every line that only *looks* like a header (a
 * context line quoting one, a patch this parser cannot read): a Codex version that reads it
 * differently must not walk a file past the gate. That costs a refusal only for a patch whose
 * text quotes a header naming a guarded file.
 */

/** One file section of a patch, as Codex's parser yields it. */
export type PatchHunk =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'update'; readonly path: string; readonly moveTo?: string };

export type PatchRead =
  | { readonly ok: true; readonly hunks: readonly PatchHunk[] }
  | { readonly ok: false; readonly problem: string };

/** What happens to one file. */
export type PatchChange = 'add' | 'update' | 'delete' | 'move-from' | 'move-to';

/** One file a patch touches, with the path as written in the patch. */
export interface PatchFile {
  readonly change: PatchChange;
  readonly path: string;
  /** An added file's content. */
  readonly content?: string;
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';
const HEREDOC_STARTS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

/** Rust's `char::is_whitespace` (Unicode White_Space): what Codex's `trim()` removes. */
const RUST_WHITESPACE = new Set([
  ...'\t\n\v\f\r \u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
]);

export function rustTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && RUST_WHITESPACE.has(text[start]!)) start++;
  while (end > start && RUST_WHITESPACE.has(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** Rust's `str::lines()`: split on `\n`, one trailing `\r` dropped; no line after a final `\n`. */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** The lines between the markers, or why there are none. */
function body(lines: readonly string[]): readonly string[] | string {
  const strict = (ls: readonly string[]): readonly string[] | string => {
    if (ls.length === 0 || rustTrim(ls[0]!) !== BEGIN)
      return `the first line of the patch must be '${BEGIN}'`;
    if (ls.length < 2 || rustTrim(ls.at(-1)!) !== END) return `the last line of the patch must be '${END}'`;
    return ls.slice(1, -1);
  };
  const read = strict(lines);
  if (typeof read !== 'string') return read;
  const first = lines[0];
  const last = lines.at(-1);
  if (first !== undefined && last !== undefined && HEREDOC_STARTS.has(first) && last.endsWith('EOF'))
    if (lines.length >= 4) return strict(lines.slice(1, -1));
  return read;
}

/** Lines one change block of an update takes, or why it is not one. */
function changeBlock(lines: readonly string[], first: boolean): number | string {
  const head = lines[0]!;
  const start = head === '@@' || head.startsWith('@@ ') ? 1 : 0;
  if (start === 0 && !first) return `expected an update block to start with @@, got '${head}'`;
  if (start >= lines.length) return 'an update block holds no lines';
  let taken = 0;
  for (const line of lines.slice(start)) {
    if (line === END_OF_FILE) {
      if (taken === 0) return 'an update block holds no lines';
      taken++;
      break;
    }
    const c = line[0];
    if (c !== undefined && c !== ' ' && c !== '+' && c !== '-') {
      if (taken === 0) return `unexpected line in an update block: '${line}'`;
      break;
    }
    taken++;
  }
  return start + taken;
}

/** One file section at the start of `lines`, and how many lines it takes. */
function hunk(lines: readonly string[]): { hunk: PatchHunk; taken: number } | string {
  const header = rustTrim(lines[0]!);
  if (header.startsWith(ADD)) {
    let content = '';
    let taken = 1;
    for (const line of lines.slice(1)) {
      if (!line.startsWith('+')) break;
      content += `${line.slice(1)}\n`;
      taken++;
    }
    return { hunk: { kind: 'add', path: header.slice(ADD.length), content }, taken };
  }
  if (header.startsWith(DELETE))
    return { hunk: { kind: 'delete', path: header.slice(DELETE.length) }, taken: 1 };
  if (!header.startsWith(UPDATE))
    return `'${header}' is not a file header (*** Add File:, *** Delete File:, *** Update File:)`;
  const path = header.slice(UPDATE.length);
  let taken = 1;
  const next = lines[1];
  const moveTo = next?.startsWith(MOVE) === true ? next.slice(MOVE.length) : undefined;
  if (moveTo !== undefined) taken++;
  let blocks = 0;
  while (taken < lines.length) {
    const line = lines[taken]!;
    if (rustTrim(line) === '') {
      taken++;
      continue;
    }
    if (line.startsWith('*')) break;
    const block = changeBlock(lines.slice(taken), blocks === 0);
    if (typeof block === 'string') return block;
    blocks++;
    taken += block;
  }
  if (blocks === 0) return `the update of '${path}' holds no change`;
  return { hunk: { kind: 'update', path, ...(moveTo !== undefined ? { moveTo } : {}) }, taken };
}

/** The patch's file sections exactly as Codex's parser reads them, or why Codex would refuse it. */
export function parsePatch(text: string): PatchRead {
  const inner = body(linesOf(rustTrim(text)));
  if (typeof inner === 'string') return { ok: false, problem: inner };
  const hunks: PatchHunk[] = [];
  for (let at = 0; at < inner.length; ) {
    const read = hunk(inner.slice(at));
    if (typeof read === 'string') return { ok: false, problem: read };
    hunks.push(read.hunk);
    at += read.taken;
  }
  return { ok: true, hunks };
}

/** The files of Codex's file sections, in patch order. */
function filesOf(hunks: readonly PatchHunk[]): PatchFile[] {
  return hunks.flatMap((h): PatchFile[] => {
    if (h.kind === 'add') return [{ change: 'add', path: h.path, content: h.content }];
    if (h.kind === 'delete') return [{ change: 'delete', path: h.path }];
    if (h.moveTo === undefined) return [{ change: 'update', path: h.path }];
    return [
      { change: 'move-from', path: h.path },
      { change: 'move-to', path: h.moveTo },
    ];
  });
}

const LOOKALIKES: readonly (readonly [string, PatchChange])[] = [
  [ADD, 'add'],
  [DELETE, 'delete'],
  [UPDATE, 'update'],
  [MOVE, 'move-to'],
];

/** Every line that, trimmed, reads as a header, whatever a parser makes of it. */
function lookalikes(text: string): PatchFile[] {
  const out: PatchFile[] = [];
  for (const line of linesOf(text)) {
    const trimmed = rustTrim(line);
    if (!trimmed.startsWith('***')) continue;
    for (const [marker, change] of LOOKALIKES)
      if (trimmed.startsWith(marker)) out.push({ change, path: trimmed.slice(marker.length) });
  }
  return out;
}

/**
 * Every file the patch touches: Codex's reading first (in patch order), then each header-looking
 * line it did not read as one. `problem`: why Codex would refuse the patch, if it would.
 */
export function patchFiles(text: string): { files: PatchFile[]; problem?: string } {
  const read = parsePatch(text);
  const files = read.ok ? filesOf(read.hunks) : [];
  const seen = new Set(files.map((f) => `${f.change}\0${f.path}`));
  for (const extra of lookalikes(text)) {
    // A move's source is an update's path to the lookalike scan.
    const same = extra.change === 'update' && seen.has(`move-from\0${extra.path}`);
    const key = `${extra.change}\0${extra.path}`;
    if (same || seen.has(key)) continue;
    seen.add(key);
    files.push(extra);
  }
  return read.ok ? { files } : { files, problem: read.problem };
}
