/**
 * Globs over absolute `/`-separated paths, as gitignore reads them: `*` any run of characters but
 * `/` (dotfiles included), `?` one such character, `[abc]` / `[a-z]` / `[!x]` a class, `\x` a
 * literal `x`, and a `**` segment any number of segments (none included). Used by permission
 * rules' path specifiers [G-PERM-4] and the guards' path globs. Matching is O(pattern × text): two
 * pointers with one backtrack point, per segment and across segments; no regular expression is
 * built from the user's text.
 */

type Token =
  | { readonly kind: 'literal'; readonly char: string }
  | { readonly kind: 'one' }
  | { readonly kind: 'star' }
  | {
      readonly kind: 'class';
      readonly negated: boolean;
      readonly ranges: readonly (readonly [string, string])[];
    };

type Segment =
  | { readonly kind: 'globstar' }
  | { readonly kind: 'segment'; readonly tokens: readonly Token[] };

export interface PathGlob {
  readonly source: string;
  readonly segments: readonly Segment[];
}

/** `[…]` at `i` (the `[`): the class and the index after its `]`; undefined when unclosed (a literal `[`). */
function readClass(text: string, i: number): { token: Token; next: number } | undefined {
  let j = i + 1;
  const negated = text[j] === '!' || text[j] === '^';
  if (negated) j++;
  const ranges: [string, string][] = [];
  let first = true;
  while (j < text.length && (text[j] !== ']' || first)) {
    first = false;
    let c = text[j]!;
    if (c === '\\' && j + 1 < text.length) c = text[++j]!;
    if (text[j + 1] === '-' && j + 2 < text.length && text[j + 2] !== ']') {
      let to = text[j + 2]!;
      let step = 3;
      if (to === '\\' && j + 3 < text.length) {
        to = text[j + 3]!;
        step = 4;
      }
      ranges.push([c, to]);
      j += step;
    } else {
      ranges.push([c, c]);
      j++;
    }
  }
  if (j >= text.length) return undefined;
  return { token: { kind: 'class', negated, ranges }, next: j + 1 };
}

function tokensOf(text: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) out.push({ kind: 'literal', char: text[++i]! });
    else if (c === '*') {
      if (out.at(-1)?.kind !== 'star') out.push({ kind: 'star' });
    } else if (c === '?') out.push({ kind: 'one' });
    else if (c === '[') {
      const cls = readClass(text, i);
      if (cls === undefined) out.push({ kind: 'literal', char: c });
      else {
        out.push(cls.token);
        i = cls.next - 1;
      }
    } else out.push({ kind: 'literal', char: c });
  }
  return out;
}

/** Compiles `pattern`, an absolute glob (`/home/me/**\/.env`); a relative one is read from `/`. */
export function compilePathGlob(pattern: string): PathGlob {
  const segments = pattern
    .split('/')
    .filter((s) => s !== '')
    .map((s): Segment => (s === '**' ? { kind: 'globstar' } : { kind: 'segment', tokens: tokensOf(s) }));
  return { source: pattern, segments };
}

function tokenMatches(token: Token, c: string): boolean {
  if (token.kind === 'literal') return token.char === c;
  if (token.kind === 'one') return true;
  if (token.kind !== 'class') return false;
  const inside = token.ranges.some(([from, to]) => c >= from && c <= to);
  return inside !== token.negated;
}

/** One segment's tokens against one path segment, whole. */
function segmentMatches(tokens: readonly Token[], text: string): boolean {
  let t = 0;
  let i = 0;
  let starT = -1;
  let starI = 0;
  while (i < text.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind !== 'star' && tokenMatches(token, text[i]!)) {
      t++;
      i++;
    } else if (token?.kind === 'star') {
      starT = t++;
      starI = i;
    } else if (starT >= 0) {
      t = starT + 1;
      i = ++starI;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** Whether `glob` matches the absolute path `p` whole (`p` normalised: no `.`, `..` or `//`). */
export function pathGlobMatches(glob: PathGlob, p: string): boolean {
  const parts = p.split('/').filter((s) => s !== '');
  const segs = glob.segments;
  let s = 0;
  let i = 0;
  let starS = -1;
  let starI = 0;
  while (i < parts.length) {
    const seg = segs[s];
    if (seg?.kind === 'segment' && segmentMatches(seg.tokens, parts[i]!)) {
      s++;
      i++;
    } else if (seg?.kind === 'globstar') {
      starS = s++;
      starI = i;
    } else if (starS >= 0) {
      s = starS + 1;
      i = ++starI;
    } else return false;
  }
  while (segs[s]?.kind === 'globstar') s++;
  return s === segs.length;
}

/** The part of a glob before its first glob character, cut at a `/`: the folder it stands under. */
export function staticPrefix(pattern: string): string {
  let i = 0;
  while (i < pattern.length && !'*?[\\'.includes(pattern[i]!)) i++;
  if (i === pattern.length) return pattern;
  const slash = pattern.lastIndexOf('/', i);
  return slash <= 0 ? '/' : pattern.slice(0, slash);
}
