/**
 * [G-ACT-1] Brace expansion of an unquoted word, as bash does it before anything else:
 * `settings.json{,.bak}` is the two words `settings.json` and `settings.json.bak`, so `mv
 * x{,.bak}` is read as the move it is and a path hidden in a brace list is still a path. Only
 * comma lists (`{a,b}`, nested), not sequences (`{1..9}`); a word with more than `MAX_VARIANTS`
 * expansions is kept as written.
 */

export const MAX_VARIANTS = 64;

/** The `}` closing the `{` at `open`, and whether a comma stands at its top level; undefined when unclosed. */
function closing(text: string, open: number): { close: number; comma: boolean } | undefined {
  let depth = 0;
  let comma = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return { close: i, comma };
    } else if (c === ',' && depth === 1) comma = true;
  }
  return undefined;
}

/** The top-level comma-separated alternatives between `from` and `to`. */
function alternatives(text: string, from: number, to: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start, to));
  return out;
}

function expand(text: string, budget: { left: number }): string[] | undefined {
  for (let open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
    const found = closing(text, open);
    if (found === undefined) return [text];
    if (!found.comma) continue;
    const head = text.slice(0, open);
    const tail = text.slice(found.close + 1);
    const out: string[] = [];
    for (const alt of alternatives(text, open + 1, found.close)) {
      const more = expand(head + alt + tail, budget);
      if (more === undefined) return undefined;
      for (const m of more) {
        if (--budget.left < 0) return undefined;
        out.push(m);
      }
    }
    return out;
  }
  return [text];
}

/**
 * The words an unquoted `text` expands to; undefined when it holds no brace list (or expands to
 * more than `MAX_VARIANTS` words). An assignment (`X={a,b}`) is not expanded, as in bash.
 */
export function braceVariants(text: string): string[] | undefined {
  if (!text.includes('{') || !text.includes(',') || /^[A-Za-z_]\w*=/.test(text)) return undefined;
  const out = expand(text, { left: MAX_VARIANTS });
  return out === undefined || out.length < 2 ? undefined : out;
}
