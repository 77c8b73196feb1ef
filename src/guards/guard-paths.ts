/**
 * [G-LIB-1, G-LIB-3] The path questions the shipped guards ask of a view path, answered one way
 * for all of them: which of its forms a write or a delete acts on (a symlink deleted without a
 * trailing `/` is the link), whether it is inside a folder, whether a glob the shell would expand
 * can stand for a given file (a `*` does not match a leading `.` there, as in bash without
 * `dotglob`), and what the globs of a guard's options (`paths`, `allow`) mean.
 */
import path from 'node:path';
import type { SimpleCommand, ViewPath } from '../action/view-types.ts';
import { compilePathGlob, type PathGlob, pathGlobMatches, staticPrefix } from '../core/path-glob.ts';
import { tildePath } from '../core/tilde-path.ts';
import type { GuardContext } from './guard-types.ts';

/** `p` is `folder` or below it (both absolute and normalised). */
export function within(folder: string, p: string): boolean {
  if (p === folder) return true;
  return folder === '/' ? p.startsWith('/') : p.startsWith(`${folder}/`);
}

/**
 * [G-LIB-3] The forms of a view path that say where an access lands: a write lands where `real`
 * points (and is named `path`); a delete or move of a name written without a trailing `/` acts
 * on the name itself (`entry`), with one on the target (`real`).
 */
export function landsOn(p: ViewPath): readonly string[] {
  const actual = p.access === 'delete' && !p.written.endsWith('/') ? p.entry : p.real;
  return actual === p.path ? [p.path] : [p.path, actual];
}

/** A view path's forms for a read (symlinks followed): `path` and `real`. */
export function readForms(p: ViewPath): readonly string[] {
  return p.real === p.path ? [p.path] : [p.path, p.real];
}

/** One `/`-free segment of a shell glob against one name; a leading `.` must be matched by a literal `.`. */
function segmentMatches(glob: string, name: string, shell: boolean): boolean {
  if (shell && name.startsWith('.') && !glob.startsWith('.')) return false;
  return pathGlobMatches(compilePathGlob(`/${glob}`), `/${name}`);
}

/**
 * Whether the glob `pattern` (an absolute path holding `*`, `?` or `[…]`) can stand for the
 * absolute path `candidate`, segment by segment (a shell's `**` is a `*` without `globstar`).
 * `shell`: the glob is a shell word (its `*` does not match a leading `.`); a tool's glob
 * (Gemini's `include`) matches dotfiles, as those tools do.
 */
export function globCovers(pattern: string, candidate: string, shell: boolean): boolean {
  const globs = pattern.split('/').filter((s) => s !== '');
  const names = candidate.split('/').filter((s) => s !== '');
  if (!shell) return pathGlobMatches(compilePathGlob(pattern), candidate);
  if (globs.length !== names.length) return false;
  return globs.every((g, i) => segmentMatches(g, names[i]!, shell));
}

/** A glob's last segment alone against a name (`*.pem` against `server.pem`). */
export function lastSegmentCovers(pattern: string, name: string, shell: boolean): boolean {
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  return segmentMatches(last, name, shell);
}

/** The folder a glob stands under (the part before its first glob character). */
export function globFolder(pattern: string): string {
  return staticPrefix(pattern);
}

/**
 * A glob of a guard's options (`secrets.paths`, `outside-project.allow`) as an absolute glob:
 * `/abs/**` as written, `~/x` under the home, `./x` and `x/y` (a `/` inside) under the project,
 * `x` (no `/`) a name at any depth anywhere (`*.secret` → `/**\/*.secret`). A trailing `/` is
 * dropped. Globs are gitignore's (`core/path-glob.ts`).
 */
export function optionGlob(pattern: string, ctx: GuardContext): PathGlob {
  let p = pattern.trim();
  if (p.length > 1) p = p.replace(/\/+$/, '');
  let absolute: string;
  if (p.startsWith('/')) absolute = p;
  else if (p === '~' || p.startsWith('~/')) absolute = ctx.home + p.slice(1);
  else if (p.startsWith('./')) absolute = `${ctx.projectDir}/${p.slice(2)}`;
  else if (p.includes('/')) absolute = `${ctx.projectDir}/${p}`;
  else absolute = `/**/${p}`;
  return compilePathGlob(path.posix.normalize(absolute));
}

/** `p` matches one of `globs`, or lies under what one of them matches. */
export function matchesOrUnder(globs: readonly PathGlob[], p: string): boolean {
  let current = p;
  for (;;) {
    if (globs.some((g) => pathGlobMatches(g, current))) return true;
    const parent = path.posix.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

/** `p` for a reason: the home shown as `~`, a path in the project relative to it. */
export function shown(p: string, ctx: GuardContext): string {
  if (within(ctx.projectDir, p) && p !== ctx.projectDir) return path.posix.relative(ctx.projectDir, p);
  return tildePath(p, ctx.home);
}

/** A command's text for a reason: one line, at most 120 characters. */
export function shownCommand(raw: string): string {
  const line = raw.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function hasOption(c: SimpleCommand, ...names: string[]): boolean {
  return c.options.some((o) => names.includes(o));
}

/** A command (or the `Grep` tool) that reads whole folders it is given: a folder holding `~/.ssh`, or the trust token, is read. */
export function readsFolders(c: SimpleCommand | undefined, tool: string): boolean {
  if (c === undefined) return tool === 'Grep';
  switch (c.name) {
    case 'cp':
    case 'scp':
      return hasOption(c, 'r', 'R', 'recursive', 'a', 'archive');
    case 'rsync':
    case 'tar':
    case 'rg':
    case 'ag':
      return true;
    case 'zip':
      return hasOption(c, 'r', 'recurse-paths');
    case 'grep':
    case 'egrep':
    case 'fgrep':
    case 'zgrep':
      return hasOption(c, 'r', 'R', 'recursive', 'dereference-recursive');
    default:
      return false;
  }
}
