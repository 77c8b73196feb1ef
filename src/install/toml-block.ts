/**
 * [T-MGD-2] hookwerk's entries in a TOML file as one block of text between two comment lines, so
 * that install and uninstall change only those lines: the administrator's keys, comments, order
 * and spacing stay byte for byte (a TOML library that parses and prints the whole file would drop
 * every comment). The block is printed with smol-toml (quoting is its job); whether the edited
 * file still says what it said plus our entries is checked by parsing it (codex-requirements.ts).
 */
import { stringify } from 'smol-toml';

/** The block's first line (its start: the rest says what it is). */
const BEGIN = '# >>> hookwerk:';
const END = '# <<< hookwerk';

export interface TomlBlock {
  /** Offset of the BEGIN line's first character. */
  readonly start: number;
  /** Offset just past the END line's line break (or the text's end). */
  readonly end: number;
  /** The block's text, BEGIN and END lines included. */
  readonly text: string;
}

/** The block holding `value` (a table of our `hooks.<event>` arrays), lines ending in `eol`. */
export function renderBlock(value: Record<string, unknown>, eol: string, about: string): string {
  const body = stringify(value).trimEnd().split('\n');
  return [`${BEGIN} ${about}`, ...body, END, ''].join(eol);
}

/** Every hookwerk block of `text`, in order; a string when one is not closed (why, for the user). */
export function findBlocks(text: string): TomlBlock[] | string {
  const out: TomlBlock[] = [];
  let open: number | undefined;
  let at = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const bare = line.replace(/\r?\n$/, '');
    if (bare.startsWith(BEGIN)) {
      if (open !== undefined)
        return `hookwerk's block at offset ${open} has no "${END}" line before the next one`;
      open = at;
    } else if (bare === END) {
      if (open === undefined) return `a "${END}" line without the "${BEGIN}" line above it`;
      const end = at + line.length;
      out.push({ start: open, end, text: text.slice(open, end) });
      open = undefined;
    }
    at += line.length;
  }
  if (open !== undefined) return `hookwerk's block has no "${END}" line`;
  return out;
}

/** `text` with `blocks` cut out, each with the one blank line install put before it. */
export function withoutBlocks(text: string, blocks: readonly TomlBlock[]): string {
  let out = '';
  let from = 0;
  for (const b of blocks) {
    let head = text.slice(from, b.start);
    // The separating blank line install wrote before the block, when it is there.
    if (/(^|\n)\r?\n$/.test(head)) head = head.replace(/\r?\n$/, '');
    out += head;
    from = b.end;
  }
  return out + text.slice(from);
}

/** `text` with `block` added at its end, after a line break and one blank line. */
export function withBlockAppended(text: string, block: string, eol: string): string {
  if (text.trim() === '') return block;
  const ended = text.endsWith('\n') ? text : text + eol;
  return `${ended}${eol}${block}`;
}
