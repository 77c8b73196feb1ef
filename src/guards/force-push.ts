/**
 * [G-LIB-1, G-LIB-3] `force-push`: a `git push` (however git is reached: `git -C DIR`, `-c K=V`,
 * `--git-dir`, wrappers, `-c` strings…) that rewrites or deletes a protected branch: with a force
 * option (`-f`, `--force`, `--force-with-lease` unless `allowLease`), a `+` refspec (its own
 * refspec only), `--mirror`, `--delete`/`-d`, `--prune` or a `:branch` refspec — to a branch of
 * `branches` (default `main`, `master`, `trunk`, `release/*`, `production`; globs, `*` within one
 * `/` segment, `**` across), or with no refspec at all (the current branch, not known here:
 * protected). `refs/heads/` is stripped; `HEAD` and `@` are the current branch; `refs/tags/…` is no
 * branch. A dry run (`-n`, `--dry-run`) passes. `-c remote.X.mirror=true` or a `-c remote.X.push=+…`
 * forces too (the branch is then not known). A git whose subcommand, or a command whose name, is
 * only known when it runs, with a force option and `push`, is objected to.
 */
import { z } from 'zod';
import type { SimpleCommand } from '../action/view-types.ts';
import { compilePathGlob, type PathGlob, pathGlobMatches } from '../core/path-glob.ts';
import { dynamicText, shownCommand } from './guard-text.ts';
import type { GuardContext, GuardDefinition, GuardHit } from './guard-types.ts';

const branch = z
  .string()
  .refine((b) => b.trim() !== '' && !b.includes('\0'), 'a branch glob must not be empty');

const OPTIONS = z.strictObject({
  /** The protected branches (globs over branch names). */
  branches: z.array(branch).default(['main', 'master', 'trunk', 'release/*', 'production']),
  /** `--force-with-lease` (without `--force`) passes. */
  allowLease: z.boolean().default(false),
});

export type ForcePushOptions = z.infer<typeof OPTIONS>;

const compiled = new WeakMap<readonly string[], readonly PathGlob[]>();

function protectedGlobs(branches: readonly string[]): readonly PathGlob[] {
  let globs = compiled.get(branches);
  if (globs === undefined) {
    globs = branches.map((b) => compilePathGlob(b.replace(/^refs\/heads\//, '')));
    compiled.set(branches, globs);
  }
  return globs;
}

/** What one refspec does to which destination. */
interface Ref {
  readonly refspec: string;
  readonly forced: boolean;
  readonly deletes: boolean;
  /** The branch it updates, `refs/heads/` stripped; undefined: the current branch (not known). */
  readonly branch: string | undefined;
  /** It updates no branch (a tag, a note). */
  readonly notBranch: boolean;
  /** Only known when it runs. */
  readonly dynamic: boolean;
}

function readRef(refspec: string, all: { force: boolean; delete: boolean }): Ref {
  const plus = refspec.startsWith('+');
  const body = plus ? refspec.slice(1) : refspec;
  const colon = body.indexOf(':');
  const src = colon < 0 ? body : body.slice(0, colon);
  let dst = colon < 0 ? body : body.slice(colon + 1);
  if (dst === '') dst = src;
  const deletes = all.delete || (colon === 0 && body.length > 1);
  dst = dst.replace(/^refs\/heads\//, '');
  // `HEAD`, `@`, `HEAD~1`, `@{u}`, `HEAD@{1}`: the current branch (or its upstream), not known here.
  const current = dst.startsWith('HEAD') || dst.startsWith('@');
  return {
    refspec,
    forced: all.force || plus,
    deletes,
    branch: current ? undefined : dst,
    notBranch: dst.startsWith('refs/'),
    dynamic: dynamicText(body),
  };
}

/** A `-c` of git that makes every push force: `remote.X.mirror=true`, `remote.X.push=+…`. */
function forcingConfig(c: SimpleCommand): string | undefined {
  for (const f of c.flags) {
    if (!f.names.includes('c') || f.value === undefined) continue;
    const v = f.value;
    if (/^remote\..+\.mirror=(true|yes|on|1)$/i.test(v) || /^remote\..+\.push=\+/i.test(v)) return v;
  }
  return undefined;
}

const FORCE = ['f', 'force', 'mirror'];

/** A `-c alias.NAME=push …` (or `=!git push …`) of git that the command's subcommand names. */
function pushAlias(c: SimpleCommand): string | undefined {
  const sub = c.positionals[0];
  if (sub === undefined) return undefined;
  for (const f of c.flags) {
    if (!f.names.includes('c') || f.value === undefined) continue;
    const m = /^alias\.([^=]+)=\s*(?:!\s*git\s+)?(push\b.*)$/is.exec(f.value);
    if (m !== null && m[1]!.toLowerCase() === sub.toLowerCase()) return m[2]!;
  }
  return undefined;
}

/** `git` and `hub` (a git wrapper that passes `push` on). */
const GITS = new Set(['git', 'hub']);

function check(
  call: Parameters<GuardDefinition<ForcePushOptions>['check']>[0],
  options: ForcePushOptions,
  ctx: GuardContext,
): GuardHit[] {
  if (call.tool !== 'Bash') return [];
  const globs = protectedGlobs(options.branches);
  const isProtected = (b: string) => globs.some((g) => pathGlobMatches(g, b));
  const hits: GuardHit[] = [];
  for (const c of call.view.commands) {
    const has = (...names: string[]) => names.some((n) => c.options.includes(n));
    // Made only for a reason: most commands give none.
    const shown = () => shownCommand(c, ctx);
    const lease = has('force-with-lease') && !options.allowLease;
    const forcing =
      has(...FORCE, 'delete', 'd', 'prune') || lease || c.positionals.some((p) => /^\+|^:./.test(p));
    // A command or subcommand that is only known when it runs, with `push` and a force.
    if (
      (c.dynamic && c.positionals.includes('push') && forcing) ||
      (!c.dynamic && GITS.has(c.name) && dynamicText(c.positionals[0] ?? '') && forcing)
    ) {
      hits.push({
        saw: `${shown()}: cannot tell whether it force-pushes (a word is only known when it runs)`,
        command: c,
      });
      continue;
    }
    if (c.dynamic || !GITS.has(c.name)) continue;
    // `git -c alias.p='push -f' p origin main`: an alias for push, with its own options.
    const alias = c.positionals[0] === 'push' ? undefined : pushAlias(c);
    if (alias !== undefined) {
      if (forcing || /(^|\s)(-[a-z]*f|--force|--mirror|--delete|-d|--prune|\+|:)/.test(alias))
        hits.push({
          saw: `${shown()}: pushes through the alias "${alias}", which may force-push`,
          command: c,
        });
      continue;
    }
    if (c.positionals[0] !== 'push') continue;
    if (has('n', 'dry-run')) continue;
    const config = forcingConfig(c);
    const all = { force: has('f', 'force') || lease || config !== undefined, delete: has('delete', 'd') };
    const mirror = has('mirror');
    const prune = has('prune');
    // `--repo=R` names the repository: then every positional after `push` is a refspec.
    const refspecs = c.positionals.slice(has('repo') ? 1 : 2);
    const why = config !== undefined ? ` (-c ${config})` : lease ? ' (--force-with-lease)' : '';
    if (mirror || has('all', 'branches')) {
      if (mirror || all.force || prune)
        hits.push({
          saw: `${shown()} ${mirror ? 'mirrors' : 'force-pushes'} every branch, protected ones included${why}`,
          command: c,
        });
      continue;
    }
    if (refspecs.length === 0) {
      // `git push --tags` pushes the tags only, no branch.
      if (has('tags')) continue;
      if (all.force || all.delete || prune)
        hits.push({
          saw: `${shown()} ${prune ? 'prunes' : 'force-pushes'} without naming a branch: the current branch is not known here, so it counts as protected${why}`,
          command: c,
        });
      continue;
    }
    for (const refspec of refspecs) {
      const ref = readRef(refspec, all);
      if (!ref.forced && !ref.deletes && !prune) continue;
      const verb = ref.deletes ? 'deletes' : prune ? 'prunes' : 'force-pushes';
      if (ref.dynamic) {
        hits.push({
          saw: `${shown()}: cannot tell which branch ${refspec} ${verb} (only known when it runs)`,
          command: c,
        });
        break;
      }
      if (ref.notBranch) continue;
      if (ref.branch === undefined) {
        hits.push({
          saw: `${shown()} ${verb} the current branch (${refspec}), which is not known here, so it counts as protected${why}`,
          command: c,
        });
        break;
      }
      if (ref.branch.includes('*') || isProtected(ref.branch)) {
        hits.push({ saw: `${shown()} ${verb} ${ref.branch}, a protected branch${why}`, command: c });
        break;
      }
    }
  }
  return hits;
}

export const forcePushGuard: GuardDefinition<ForcePushOptions> = {
  name: 'force-push',
  defaultDecision: 'deny',
  options: OPTIONS,
  tools: ['Bash'],
  check,
};
