/**
 * [G-CEL-1] The two helpers a `rule` condition has besides CEL's own functions:
 * - `glob(path, pattern)`: `*` is any text within one path segment, `**` any number of segments
 *   (`**` then `/` also none), `?` one character other than `/`, `\` makes the next character literal. A
 *   pattern with no `/` is matched against the last segment (the file name: `glob(p, "*.pem")`),
 *   any other against the whole text. A leading `~/` stands for the home folder.
 * - `inside(path, folder)`: the path is the folder or lies below it, both made absolute first
 *   (`~` is the home folder, a relative path is taken against the project, `..` is folded); no
 *   symlink is resolved here (the action view's `real` is the resolved path: test both).
 * Both are linear in their text (globs run on re2js, the RE2 port, never on a backtracking engine),
 * and pure: the home and project come with each call.
 */
import path from 'node:path';
import { RE2JS } from 're2js';
import type { RulePlaces } from './rule-condition.ts';

/** Compiled globs by pattern and home: conditions name the same few patterns on every call. */
const compiled = new Map<string, RE2JS>();
const MAX_COMPILED = 256;

export function globMatches(text: string, pattern: string, places: RulePlaces): boolean {
  const key = `${places.home}\0${pattern}`;
  let re = compiled.get(key);
  if (re === undefined) {
    re = RE2JS.compile(globSource(pattern, places.home));
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, re);
  }
  return re.matches(text);
}

/** The glob as an RE2 pattern (whole-text match). */
function globSource(pattern: string, home: string): string {
  let rest = pattern;
  let out = '';
  if (rest === '~' || rest.startsWith('~/')) {
    out = RE2JS.quote(home.endsWith('/') ? home.slice(0, -1) : home);
    rest = rest.slice(1);
  } else if (!rest.includes('/')) {
    // A bare name: the last segment, under any folder.
    out = '(?:.*/)?';
  }
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i] ?? '';
    if (c === '\\' && i + 1 < rest.length) {
      out += RE2JS.quote(rest[++i] ?? '');
    } else if (c === '*' && rest[i + 1] === '*') {
      i++;
      if (rest[i + 1] === '/') {
        i++;
        out += '(?:.*/)?';
      } else out += '.*';
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += RE2JS.quote(c);
  }
  return out;
}

export function insideFolder(text: string, folder: string, places: RulePlaces): boolean {
  if (text === '' || folder === '') return false;
  const p = absolute(text, places);
  const f = absolute(folder, places);
  return p === f || p.startsWith(f.endsWith('/') ? f : `${f}/`);
}

function absolute(p: string, places: RulePlaces): string {
  if (p === '~') return path.resolve(places.home);
  if (p.startsWith('~/')) return path.resolve(places.home, p.slice(2));
  return path.resolve(places.project, p);
}
