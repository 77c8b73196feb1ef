/**
 * [G-LIB-1, G-LIB-3] `destructive-delete`: a recursive delete — `rm -r` (any spelling), `shred -r`,
 * `find … -delete`, `find … -exec|-execdir|-ok rm …`, `git clean -f` with `-d`, `-x` or `-X` —
 * whose target is `/`, the home folder (or another user's, `~name`) or a folder above it, the
 * project root or a folder above it, a `.git` folder or anything in one, or any other path outside
 * the project but a sub-path of the system temp folder. Inside the project a recursive delete of a
 * sub-path passes (`inside: "ask"|"deny"` tightens that; `allow` globs let more sub-paths or
 * outside paths through — never `/`, a home, the project root, a folder above them or `.git`).
 *
 * Targets, as G-LIB-3 reads them: a symlink named without a trailing `/` is the link (the view's
 * `entry`), with one its target (`real`); a glob by its static prefix (`rm -rf *` is the folder
 * it stands in, `rm -rf build-*` a sub-path of it; `.g*` may be `.git`); `{a,b}` braces expanded;
 * `find PATH` targets PATH (`.` when none is given); `git clean` the repository root (taken as the
 * project root when it runs inside the project, else its folder) or its pathspecs. A target that is
 * only known when the line runs (`rm -rf "$DIR"`, `xargs rm -rf`, `parallel rm -rf ::: …`) cannot
 * be judged and is objected to.
 */
import path from 'node:path';
import { z } from 'zod';
import type { SimpleCommand, ViewPath } from '../action/view-types.ts';
import { compilePathGlob, type PathGlob, pathGlobMatches } from '../core/path-glob.ts';
import { compileGuardGlob, guardGlobMatches, guardGlobProblem } from './guard-globs.ts';
import { type PlaceKind, placeOf } from './guard-places.ts';
import { dynamicText, shownCommand, shownPath } from './guard-text.ts';
import type { GuardContext, GuardDefinition, GuardHit } from './guard-types.ts';

const glob = z.string().superRefine((text, ctx) => {
  const problem = guardGlobProblem(text);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

const OPTIONS = z.strictObject({
  /** A recursive delete of a sub-path of the project: passes (default), asks or is denied. */
  inside: z.enum(['allow', 'ask', 'deny'], 'inside must be "allow", "ask" or "deny"').default('allow'),
  /** More paths whose recursive delete passes (sub-paths of the project, or outside it). */
  allow: z.array(glob).default([]),
});

export type DestructiveDeleteOptions = z.infer<typeof OPTIONS>;

const GLOB_CHAR = /[*?[]/;
const RECURSIVE = ['r', 'R', 'recursive'];

/** How one command deletes recursively, if it does. */
type Deleter = 'rm' | 'find' | 'git clean';

function deleterOf(c: SimpleCommand): Deleter | undefined {
  if (c.dynamic) return undefined;
  const has = (...names: string[]) => names.some((n) => c.options.includes(n));
  if (c.name === 'rm' || c.name === 'shred')
    return has(...RECURSIVE) || c.via.at(-1) === 'find -exec' ? 'rm' : undefined;
  if (c.name === 'find') return has('delete') ? 'find' : undefined;
  if (c.name === 'git' && c.positionals[0] === 'clean' && has('f', 'force') && has('d', 'x', 'X'))
    return has('n', 'dry-run') ? undefined : 'git clean';
  return undefined;
}

/** `{a,b}` alternatives, as bash expands them before `~` (bounded). */
function braces(text: string): string[] {
  let out = [text];
  for (let round = 0; round < 4; round++) {
    const next: string[] = [];
    let changed = false;
    for (const t of out) {
      const m = /\{([^{}]*,[^{}]*)\}/.exec(t);
      if (m === null) {
        next.push(t);
        continue;
      }
      changed = true;
      for (const alt of m[1]!.split(','))
        next.push(t.slice(0, m.index) + alt + t.slice(m.index + m[0].length));
    }
    out = next.slice(0, 64);
    if (!changed) break;
  }
  return out;
}

/** The `find` whose `-exec` runs `c` (listed just before it, one launcher out). */
function findOf(
  c: SimpleCommand,
  commands: readonly SimpleCommand[],
  index: number,
): SimpleCommand | undefined {
  const outer = c.via.slice(0, -1).join('\0');
  for (let i = index - 1; i >= 0; i--) {
    const f = commands[i]!;
    if (f.name === 'find' && f.via.join('\0') === outer) return f;
  }
  return undefined;
}

interface Target {
  /** As written, after `{}` and braces were replaced. */
  readonly written: string;
  readonly cwd: string;
  /** `$TMPDIR` as the agent's shell has it, when the line does not set it. */
  readonly tmpDir?: string;
}

/** `$TMPDIR/…`, `${TMPDIR}/…`, `${TMPDIR:-/tmp}/…` at the start of a target, as the temp folder. */
function withTmpDir(written: string, tmpDir: string): string {
  const m = /^(\$TMPDIR|\$\{TMPDIR(:?-[^}$`]*)?\})(?=\/|$)/.exec(written);
  return m === null ? written : tmpDir + written.slice(m[0].length);
}

const compiled = new WeakMap<readonly string[], Map<string, readonly PathGlob[]>>();

function allowGlobs(allow: readonly string[], ctx: GuardContext): readonly PathGlob[] {
  const key = `${ctx.projectDir}\0${ctx.home}`;
  let byCtx = compiled.get(allow);
  if (byCtx === undefined) {
    byCtx = new Map();
    compiled.set(allow, byCtx);
  }
  let globs = byCtx.get(key);
  if (globs === undefined) {
    const places = { projectDirs: [ctx.projectDir], homes: [ctx.home] };
    globs = allow.flatMap((g) => compileGuardGlob(g, places));
    byCtx.set(key, globs);
  }
  return globs;
}

const WHAT: Readonly<Record<Exclude<PlaceKind, 'inside' | 'temp' | 'outside'>, string>> = {
  root: 'the root folder /',
  home: 'the home folder',
  'above-home': 'a folder above the home folder',
  project: 'the project root',
  'above-project': 'a folder above the project',
  git: 'a .git folder (the repository itself)',
};

function check(
  call: Parameters<GuardDefinition<DestructiveDeleteOptions>['check']>[0],
  options: DestructiveDeleteOptions,
  ctx: GuardContext,
): GuardHit[] {
  if (call.tool !== 'Bash') return [];
  const { commands, paths } = call.view;
  const hits: GuardHit[] = [];
  // [G-LIB-3] The agent's shell has the same TMPDIR as the hook's environment, unless the line sets it.
  const line = typeof call.input.command === 'string' ? call.input.command : '';
  const tmp = line.includes('TMPDIR=') ? {} : { tmpDir: ctx.tmpDir };
  const seen = new Set<string>();
  const add = (hit: GuardHit) => {
    const key = `${hit.command?.raw}\0${hit.saw}`;
    if (!seen.has(key)) hits.push(hit);
    seen.add(key);
  };
  commands.forEach((c, index) => {
    // Made only for a reason: most commands give none.
    const shown = () => shownCommand(c, ctx);
    if (c.dynamic && RECURSIVE.some((n) => c.options.includes(n))) {
      add({
        saw: `${shown()}: cannot tell which command ${c.name} is (with -r it may delete recursively)`,
        command: c,
      });
      return;
    }
    const deleter = deleterOf(c);
    if (deleter === undefined) return;
    const launcher = c.via.at(-1);
    if (deleter === 'rm' && (launcher === 'xargs' || launcher === 'parallel')) {
      add({
        saw: `${shown()}: deletes what it is given through ${launcher}, which is not known here`,
        command: c,
      });
      return;
    }
    const targets: Target[] = [];
    let said = shown;
    if (deleter === 'rm') {
      const find = launcher === 'find -exec' ? findOf(c, commands, index) : undefined;
      if (find !== undefined) said = () => shownCommand(find, ctx);
      const starts = find === undefined || find.positionals.length === 0 ? ['.'] : find.positionals;
      for (const word of c.positionals)
        for (const t of word.includes('{}') && find !== undefined
          ? starts.map((s) => word.replaceAll('{}', s))
          : [word])
          targets.push({ written: t, cwd: c.cwd });
    } else if (deleter === 'find') {
      for (const t of c.positionals.length === 0 ? ['.'] : c.positionals)
        targets.push({ written: t, cwd: c.cwd });
    } else {
      const root = repoRoot(c, ctx);
      const specs = c.positionals.slice(1).map((s) => (s.startsWith(':') ? root : s));
      for (const t of specs.length === 0 ? [root] : specs) targets.push({ written: t, cwd: root });
    }
    for (const target of targets)
      for (const written of braces(target.written)) {
        const hit = judge(c, said, { written, cwd: target.cwd, ...tmp }, paths, options, ctx);
        if (hit !== undefined) add(hit);
      }
  });
  return hits;
}

/**
 * `git clean`'s working tree: `--work-tree DIR` when given (its pathspecs are read there), else the
 * project root when it runs inside the project, else its folder.
 */
function repoRoot(c: SimpleCommand, ctx: GuardContext): string {
  const tree = c.flags.find((f) => f.names.includes('work-tree'))?.value;
  if (tree !== undefined && tree !== '') return path.resolve(c.cwd, tree);
  const inside = c.cwd === ctx.projectDir || c.cwd.startsWith(`${ctx.projectDir}/`);
  return inside ? ctx.projectDir : c.cwd;
}

function judge(
  c: SimpleCommand,
  shown: () => string,
  target: Target,
  paths: readonly ViewPath[],
  options: DestructiveDeleteOptions,
  ctx: GuardContext,
): GuardHit | undefined {
  const written = target.tmpDir === undefined ? target.written : withTmpDir(target.written, target.tmpDir);
  if (dynamicText(written))
    return {
      saw: `${shown()}: cannot tell what it deletes (${written} is only known when it runs)`,
      command: c,
    };
  // `~name` (or a `~` a brace expansion left): a home folder the view did not expand.
  if (written.startsWith('~') && written !== '~' && !written.startsWith('~/'))
    return { saw: `${shown()} deletes ${written}, another user's home folder`, command: c };
  const absolute = path.resolve(target.cwd, written.startsWith('~') ? ctx.home + written.slice(1) : written);
  const seen = paths.find((p) => p.access === 'delete' && p.path === absolute);
  const view: ViewPath = seen ?? {
    path: absolute,
    real: absolute,
    entry: absolute,
    inProject: absolute === ctx.projectDir || absolute.startsWith(`${ctx.projectDir}/`),
    access: 'delete',
    written,
    from: 'argument',
    glob: GLOB_CHAR.test(written),
  };
  let location = view.entry;
  /** Where a glob component that may match `.git` (`.g*`, `.[!.]*`) would find it. */
  let gitAt: string | undefined;
  let globNote = '';
  if (GLOB_CHAR.test(written)) {
    // [G-LIB-3] A glob stands for entries of the folder before it: judged by its static prefix.
    const real = view.real;
    const first = real.search(GLOB_CHAR);
    const before = first < 0 ? real : real.slice(0, first);
    const cut = before.lastIndexOf('/');
    const folder = before.slice(0, cut) || '/';
    const stem = before.slice(cut + 1);
    const component = real.slice(cut + 1).split('/')[0] ?? '';
    const whole = stem === '' || stem === '.';
    location = whole ? folder : `${folder === '/' ? '' : folder}/${stem}`;
    if (component.startsWith('.') && pathGlobMatches(compilePathGlob(component), '.git'))
      gitAt = `${folder === '/' ? '' : folder}/.git`;
    if (whole) globNote = ` (the glob ${shownPath(written, ctx)} stands for everything in it)`;
  }
  let place = placeOf(location, ctx);
  // It may delete `.git`: judged as that, unless what the glob stands in is worse.
  if (gitAt !== undefined && (place === 'inside' || place === 'outside' || place === 'temp')) {
    place = 'git';
    location = gitAt;
  }
  const where = shownPath(location, ctx);
  if (place === 'temp') return undefined;
  if (place === 'inside' || place === 'outside') {
    if (guardGlobMatches(allowGlobs(options.allow, ctx), location)) return undefined;
    if (place === 'outside')
      return { saw: `${shown()} deletes ${where}, outside the project${globNote}`, command: c, path: view };
    if (options.inside === 'allow') return undefined;
    return {
      saw: `${shown()} deletes ${where} inside the project (inside: "${options.inside}")`,
      command: c,
      path: view,
      decision: options.inside,
    };
  }
  const what = WHAT[place];
  const named = place === 'root' ? '' : ` (${where})`;
  return { saw: `${shown()} deletes ${what}${named}${globNote}`, command: c, path: view };
}

export const destructiveDeleteGuard: GuardDefinition<DestructiveDeleteOptions> = {
  name: 'destructive-delete',
  defaultDecision: 'deny',
  options: OPTIONS,
  tools: ['Bash'],
  check,
};
