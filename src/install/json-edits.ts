/**
 * Edits of a JSON/JSONC text that touch nothing but what they add or remove [R-INST-1]: every
 * other byte — comments, blank lines, the author's indentation, a compact one-line file — stays.
 * jsonc-parser finds the nodes and applies the edits; the edits themselves are made here, because
 * its `modify` either leaves inserted values unformatted or reformats the neighbouring lines
 * (moving a trailing `// comment` past the new entry), and without formatting it removes the last
 * item of a compact array wrongly (`[1,2]` → `[12]`).
 */
import { applyEdits, createScanner, type Edit, type Node } from 'jsonc-parser';

/** How the file is written: one indent step and its line end; `compact` when it is all on one line. */
export interface TextStyle {
  readonly indent: string;
  readonly eol: string;
  readonly compact: boolean;
}

// jsonc-parser's SyntaxKind is a const enum (not importable under isolatedModules).
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const EOF = 17;

/** The file's indent step (the smallest indentation of a line, or a tab) and line end. */
export function detectStyle(text: string, root: Node | undefined): TextStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let indent = '  ';
  let smallest = Number.POSITIVE_INFINITY;
  for (const line of text.split('\n')) {
    const m = /^([ \t]+)\S/.exec(line);
    if (m === null) continue;
    const lead = m[1] ?? '';
    if (lead.startsWith('\t')) {
      indent = '\t';
      break;
    }
    if (lead.length < smallest) {
      smallest = lead.length;
      indent = lead;
    }
  }
  const body = root === undefined ? '' : text.slice(root.offset, root.offset + root.length);
  const compact = root !== undefined && (root.children?.length ?? 0) > 0 && !/[\r\n]/.test(body);
  return { indent, eol, compact };
}

/** `value` at indentation `base`, pretty; `undefined` base: on one line (a compact file, an inline list). */
function render(value: unknown, base: string | undefined, style: TextStyle): string {
  if (base === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, style.indent)
    .split('\n')
    .join(style.eol + base);
}

/** Appends `value` to the array `array`. */
export function appendElement(text: string, array: Node, value: unknown, style: TextStyle): string {
  return insertLast(text, array, (base) => render(value, base, style), style);
}

/** Adds `"key": value` as the last member of the object `object`. */
export function addMember(text: string, object: Node, key: string, value: unknown, style: TextStyle): string {
  return insertLast(
    text,
    object,
    (base) =>
      `${JSON.stringify(key)}${base === undefined && style.compact ? ':' : ': '}${render(value, base, style)}`,
    style,
  );
}

/**
 * Replaces the value `node` with `value`, written as an appended one would be at that place
 * (indented as its line, or on one line in a compact file or an inline list).
 */
export function replaceValue(text: string, node: Node, value: unknown, style: TextStyle): string {
  const inline = style.compact || !startsLine(text, node.offset);
  const content = render(value, inline ? undefined : lineIndent(text, node.offset), style);
  return applyEdits(text, [{ offset: node.offset, length: node.length, content }]);
}

/**
 * Inserts an item after the last child of a container: the comma right after that child, the
 * item on a line of its own after whatever follows the child on its line (a trailing comment
 * stays with the child it was written for), indented as the child. An empty container gets the
 * item one step deeper than the container's line. In a compact file, or after a child written
 * inline, all on one line.
 */
function insertLast(
  text: string,
  container: Node,
  item: (base: string | undefined) => string,
  style: TextStyle,
): string {
  const children = container.children ?? [];
  const close = container.offset + container.length - 1;
  const last = children.at(-1);
  if (last === undefined) {
    if (style.compact) return applyEdits(text, [{ offset: close, length: 0, content: item(undefined) }]);
    const outer = lineIndent(text, container.offset);
    const inner = text.slice(container.offset + 1, close);
    const content = `${style.eol}${outer}${style.indent}${item(outer + style.indent)}${style.eol}${outer}`;
    // An empty interior is replaced; one holding only comments keeps them, the item goes after.
    return /^\s*$/.test(inner)
      ? applyEdits(text, [{ offset: container.offset + 1, length: inner.length, content }])
      : applyEdits(text, [{ offset: close, length: 0, content }]);
  }
  const lastEnd = last.offset + last.length;
  const after = trailingOf(text, lastEnd);
  // A trailing comma (JSONC) is kept as the author's style: the new item gets one too.
  const trailing = after.comma >= 0;
  if (style.compact || !startsLine(text, last.offset)) {
    const content = trailing
      ? `${style.compact ? '' : ' '}${item(undefined)},`
      : `${style.compact ? ',' : ', '}${item(undefined)}`;
    return applyEdits(text, [{ offset: trailing ? after.comma + 1 : lastEnd, length: 0, content }]);
  }
  const base = lineIndent(text, last.offset);
  const edits: Edit[] = [];
  if (!trailing) edits.push({ offset: lastEnd, length: 0, content: ',' });
  edits.push({
    offset: after.lineEnd,
    length: 0,
    content: `${style.eol}${base}${item(base)}${trailing ? ',' : ''}`,
  });
  return applyEdits(text, edits);
}

/**
 * What follows a child on its own line: the offset of a comma right after it (skipping spaces
 * and comments; -1 when none), and where that line's content ends — at the line break, or
 * after the last comment or comma when another token follows on the same line (the
 * container's closing bracket).
 */
function trailingOf(text: string, from: number): { comma: number; lineEnd: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(from);
  let comma = -1;
  let contentEnd = from;
  for (;;) {
    const kind = scanner.scan();
    if (kind === TRIVIA) continue;
    if (kind === LINE_COMMENT || kind === BLOCK_COMMENT) {
      // A block comment that runs onto later lines ends this line's content before it.
      const token = text.slice(scanner.getTokenOffset(), scanner.getPosition());
      if (kind === BLOCK_COMMENT && /[\r\n]/.test(token)) return { comma, lineEnd: contentEnd };
      contentEnd = scanner.getPosition();
      continue;
    }
    if (kind === COMMA && comma < 0) {
      comma = scanner.getTokenOffset();
      contentEnd = scanner.getPosition();
      continue;
    }
    if (kind === LINE_BREAK) return { comma, lineEnd: scanner.getTokenOffset() };
    return { comma, lineEnd: contentEnd };
  }
}

/**
 * Removes an array element or an object member (a `property` node) and the separator that went
 * with it: the reverse of `appendElement` / `addMember`, so what was inserted there comes out
 * byte for byte. The only child leaves the container empty (`[]`, `{}`) — unless comments are in
 * it: comments, and every line that is not the child's, always stay.
 */
export function removeNode(text: string, node: Node): string {
  const parent = node.parent;
  const siblings = parent?.children ?? [];
  const k = siblings.indexOf(node);
  if (parent === undefined || k < 0) throw new Error('removeNode: a node without its container');
  const end = node.offset + node.length;
  if (siblings.length === 1) {
    if (!hasComment(text, parent.offset + 1, parent.offset + parent.length - 1))
      return applyEdits(text, [{ offset: parent.offset + 1, length: parent.length - 2, content: '' }]);
    return removeOwnLines(text, node, true) ?? text;
  }
  const next = siblings[k + 1];
  if (next === undefined) {
    const prev = siblings[k - 1]!;
    const prevEnd = prev.offset + prev.length;
    if (!startsLine(text, node.offset))
      return applyEdits(text, [{ offset: prevEnd, length: end - prevEnd, content: '' }]);
    // The comma after the previous child, and the lines from the break before this one to its end.
    const comma = trailingOf(text, prevEnd).comma;
    const from = lineBreakBefore(text, node.offset);
    const edits: Edit[] = [{ offset: from, length: end - from, content: '' }];
    const ownComma = trailingOf(text, end).comma;
    // With a trailing comma (JSONC) after this child, the previous child's comma stays.
    if (comma >= 0 && comma < from && ownComma < 0) edits.push({ offset: comma, length: 1, content: '' });
    if (ownComma >= 0) edits.push({ offset: ownComma, length: 1, content: '' });
    return applyEdits(text, edits);
  }
  if (startsLine(text, node.offset) && startsLine(text, next.offset)) {
    // Its own lines only: a comment line between it and the next child stays.
    const own = removeOwnLines(text, node, false);
    if (own !== undefined) return own;
  }
  return applyEdits(text, [{ offset: node.offset, length: next.offset - node.offset, content: '' }]);
}

/**
 * The lines `node` fills (with its comma and what follows it on its last line) removed; with
 * `blankBefore`, a line of only spaces right before them too (what `insertLast` leaves after
 * comments). Undefined when the node shares a line with something else.
 */
function removeOwnLines(text: string, node: Node, blankBefore: boolean): string | undefined {
  if (!startsLine(text, node.offset)) return undefined;
  const after = trailingOf(text, node.offset + node.length);
  const br = text.startsWith('\r\n', after.lineEnd) ? 2 : text.startsWith('\n', after.lineEnd) ? 1 : 0;
  if (br === 0) return undefined;
  let from = lineStart(text, node.offset);
  if (blankBefore && from > 0) {
    const prev = lineStart(text, from - 1);
    if (/^[ \t]*\r?\n$/.test(text.slice(prev, from))) from = prev;
  }
  return applyEdits(text, [{ offset: from, length: after.lineEnd + br - from, content: '' }]);
}

/** A comment token between `from` and `to`. */
function hasComment(text: string, from: number, to: number): boolean {
  const scanner = createScanner(text, false);
  scanner.setPosition(from);
  for (let kind = scanner.scan(); scanner.getTokenOffset() < to && kind !== EOF; kind = scanner.scan())
    if (kind === LINE_COMMENT || kind === BLOCK_COMMENT) return true;
  return false;
}

/** Offset of the start of the line holding `offset`. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the line break (`\n` or `\r\n`) that ends the line before the one holding `offset`. */
function lineBreakBefore(text: string, offset: number): number {
  const start = lineStart(text, offset);
  if (start === 0) return 0;
  return text[start - 2] === '\r' ? start - 2 : start - 1;
}

/** Only spaces and tabs between the line's start and `offset`. */
function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

/** The leading spaces and tabs of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}
