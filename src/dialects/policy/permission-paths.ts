/**
 * [G-PERM-4] The path specifier of a `Read(…)`, `Edit(…)` or `Write(…)` rule, read as
 * Claude Code reads it (gitignore-style), into absolute globs:
 * - `//abs/path` is `/abs/path`; `~/x` is under the home folder;
 * - `/x` is under the policy file's base: the project root for the project policy, the home
 *   folder for the user policy;
 * - `./x` and `x/y` (a `/` inside) are under the project root; `x` with no `/` (a trailing one
 *   aside) is a name at any depth under the project (`Read(.env)` matches `config/.env`);
 * - a trailing `/` is dropped (the rule then also matches a file of that name: best effort), and
 *   a rule that matches a folder matches everything under it, as gitignore's does.
 * Each rule is matched on a view path's `path` against globs under the bases as written, and on
 * its `real` against the same globs under the bases' real paths, so a symlinked project or home
 * is still the project or home. A view path that is itself a glob (Gemini's `read_many_files`
 * `include: ["**\/*"]`) matches when the rule's simplest example path matches it (best effort).
 */
import path from 'node:path';
import { compilePathGlob, type PathGlob, pathGlobMatches, staticPrefix } from '../../core/path-glob.ts';
import { realPrefixPath } from '../../core/real-path.ts';

export interface PathRule {
  /** The rule's globs under the bases as written, and under their real paths. */
  readonly globs: readonly PathGlob[];
  /** An example of what it matches (its globs with `**` dropped and `*`/`?` as `x`), for glob paths. */
  readonly examples: readonly string[];
}

export interface PathBases {
  readonly projectDir: string;
  readonly home: string;
  /** The base of `/x`: the project root or the home folder. */
  readonly fileBase: string;
}

/** The absolute glob a specifier stands for (see the file comment). */
export function specifierGlob(specifier: string, bases: PathBases): string {
  let spec = specifier.trim();
  if (spec.length > 1 && spec.endsWith('/')) spec = spec.replace(/\/+$/, '');
  if (spec.startsWith('//')) return `/${spec.replace(/^\/+/, '')}`;
  if (spec === '~' || spec.startsWith('~/')) return bases.home + spec.slice(1);
  if (spec.startsWith('/')) return bases.fileBase + spec;
  if (spec.startsWith('./')) return `${bases.projectDir}/${spec.slice(2)}`;
  if (spec.includes('/')) return `${bases.projectDir}/${spec}`;
  return `${bases.projectDir}/**/${spec}`;
}

/** The glob with its folder part (before any glob character) as the real path of that folder. */
function realGlob(glob: string): string {
  const prefix = staticPrefix(glob);
  const real = realPrefixPath(prefix);
  return real === prefix ? glob : real + glob.slice(prefix.length);
}

/** An example path a glob matches: `**` segments dropped, `*` and `?` as `x`, a class as its first character. */
function exampleOf(glob: string): string {
  const segments = glob.split('/').filter((s) => s !== '' && s !== '**');
  const plain = segments.map((s) =>
    s
      .replace(/\[!?\^?(.)[^\]]*\]/g, '$1')
      .replace(/\\(.)/g, '$1')
      .replace(/[*?]/g, 'x'),
  );
  return `/${plain.join('/')}`;
}

export function compilePathRule(specifier: string, bases: PathBases): PathRule {
  const written = path.posix.normalize(specifierGlob(specifier, bases));
  const real = realGlob(written);
  const sources = real === written ? [written] : [written, real];
  return { globs: sources.map(compilePathGlob), examples: sources.map(exampleOf) };
}

/** The path or any folder above it (a rule naming a folder covers what is inside). */
function matchesOrInside(glob: PathGlob, p: string): boolean {
  let current = p;
  for (;;) {
    if (pathGlobMatches(glob, current)) return true;
    const parent = path.posix.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

/** Whether the rule matches a view path (its `path` or its `real`; a glob path by example). */
export function pathRuleMatches(
  rule: PathRule,
  target: { readonly path: string; readonly real: string; readonly glob: boolean },
): boolean {
  for (const glob of rule.globs) {
    if (matchesOrInside(glob, target.path) || matchesOrInside(glob, target.real)) return true;
  }
  if (!target.glob) return false;
  const asGlob = compilePathGlob(target.path);
  return rule.examples.some((example) => pathGlobMatches(asGlob, example));
}
