/**
 * [T-SELF-1, G-LIB-1, G-LIB-3] The `self-protect` guard: the agent may not switch hookwerk off
 * from inside. It stops a tool call that would write, delete, move or chmod a file hookwerk keeps
 * (`protected-files.ts`) — through file tools, Codex patches, redirects and the action view's
 * command writes, a delete or move of a folder holding one, and — the "any word containing the
 * path" rule, for writing commands (`git checkout -- .hookwerk/policy.json`, `perl -pi -e …`) and
 * interpreters' program texts only (`python3 -c "…/.hookwerk/…"`) — a word naming one; a read of
 * the trust token (T-SELF-2); running `hookwerk trust|install|uninstall|daemon stop`; and killing
 * hookwerk (`kill`/`pkill`/`killall` naming it, or fed by a command naming it; `systemctl stop`,
 * `launchctl unload` of it). Reading or listing the other files passes. On by default for every
 * agent (only a managed policy turns it off: `dialects/policy/guard-settings.ts`). Where best
 * effort ends: docs/guards.md.
 */
import path from 'node:path';
import { z } from 'zod';
import { type ArgsAccess, fileAccessOf } from '../action/file-access-table.ts';
import type { ActionView, SimpleCommand, ViewPath } from '../action/view-types.ts';
import { codeGiven, pathTokens } from './code-strings.ts';
import { CompiledCache, cacheKey } from './compiled-cache.ts';
import { DEFAULT_GUARD_TOOLS } from './default-guards.ts';
import { globCovers, landsOn, readForms, readsFolders, shown, shownCommand } from './guard-paths.ts';
import type { GuardContext, GuardDefinition, GuardHit } from './guard-types.ts';
import { forbiddenHookwerk, hookwerkArgs } from './hookwerk-command.ts';
import { ProtectedFiles } from './protected-files.ts';

const optionsSchema = z.object({}).strict();
export type SelfProtectOptions = z.infer<typeof optionsSchema>;

const PREFIX = 'hookwerk protects its own files:';

/** `git` subcommands that write files of the work tree they name. */
const GIT_WRITES = new Set([
  'checkout',
  'restore',
  'rm',
  'mv',
  'reset',
  'clean',
  'stash',
  'apply',
  'am',
  'merge',
  'pull',
  'rebase',
  'cherry-pick',
  'revert',
  'switch',
  'worktree',
  'read-tree',
  'checkout-index',
]);
/** Editors and in-place rewriters the view's table does not list (any word of theirs may be a target). */
const REWRITERS = new Set([
  'patch',
  'ed',
  'ex',
  'vi',
  'vim',
  'nvim',
  'nano',
  'emacs',
  'crudini',
  'setfacl',
  'chflags',
  'xattr',
]);
/** The view's table entries whose positionals are targets. */
const WRITING_ARGS = new Set<ArgsAccess>(['write', 'delete', 'copy', 'move', 'link', 'dd', 'zip', 'tar']);
const KILLERS = new Set(['kill', 'pkill', 'killall', 'skill']);
const SERVICE_STOPS: Readonly<Record<string, ReadonlySet<string>>> = {
  systemctl: new Set(['stop', 'kill', 'disable', 'mask', 'restart']),
  launchctl: new Set(['unload', 'bootout', 'remove', 'stop', 'kill', 'disable']),
};

function has(c: SimpleCommand, ...names: string[]): boolean {
  return c.options.some((o) => names.includes(o));
}

/** A command that may write files its words name, beyond the view's table. */
function rewrites(c: SimpleCommand): boolean {
  if (c.name === 'git') return GIT_WRITES.has(c.positionals[0] ?? '');
  if (c.name === 'perl' || c.name === 'ruby') return has(c, 'i');
  if (c.name === 'yq') return has(c, 'i', 'inplace');
  if (c.name === 'sed') return has(c, 'i', 'in-place');
  return REWRITERS.has(c.name);
}

interface Check {
  readonly view: ActionView;
  /** Commands already stopped for a path they name (the word rule adds nothing to them). */
  readonly byPath: Set<number>;
  readonly kept: ProtectedFiles;
  readonly ctx: GuardContext;
  readonly hits: GuardHit[];
  readonly seen: Set<string>;
}

function add(check: Check, saw: string, extra: { command?: SimpleCommand; path?: ViewPath }): void {
  if (extra.path?.command !== undefined) check.byPath.add(extra.path.command);
  if (check.seen.has(saw)) return;
  check.seen.add(saw);
  check.hits.push({ saw: `${PREFIX} ${saw}`, ...extra });
}

function checkPath(check: Check, tool: string, p: ViewPath, c: SimpleCommand | undefined): void {
  const { kept, ctx } = check;
  // Who did it, as text: made only for a hit (most paths are not kept files).
  const who = () => (c !== undefined ? shownCommand(c.raw) : p.from === 'tool' ? tool : 'a redirect');
  const shell = p.from !== 'tool';
  const extra = c === undefined ? { path: p } : { path: p, command: c };
  if (p.access === 'write' || p.access === 'delete') {
    const deletes = p.access === 'delete';
    const forms = landsOn(p);
    // `find DIR -name '*.tmp' -delete` deletes what its names match under DIR, not DIR whole.
    const names = deletes ? findNames(c) : undefined;
    const takesAlong = (f: string) =>
      names === undefined
        ? kept.holds(f)
        : kept.holds(f) && names.some((n) => ProtectedFiles.nameMayBeKept(n.pattern, n.nocase));
    const hit = p.glob
      ? forms.some((f) => kept.coveredBy(f, shell, deletes))
      : forms.some((f) => (deletes ? kept.keeps(f) || takesAlong(f) : kept.keeps(f)));
    if (hit) add(check, `${who()} ${deletes ? 'deletes or moves' : 'writes'} ${shown(p.path, ctx)}`, extra);
    return;
  }
  // [T-SELF-2] The trust token is kept from reads too (and from a copy or archive of its folder);
  // the other files may be read.
  const folder = path.posix.dirname(kept.token);
  const token = readForms(p).some((f) =>
    p.glob ? globCovers(f, kept.token, shell) : f === kept.token || (f === folder && readsFolders(c, tool)),
  );
  if (token) add(check, `${who()} reads the trust token (${shown(kept.token, ctx)})`, extra);
}

/**
 * The `-name`/`-iname` patterns of a `find` that has them and no other test choosing by place
 * (`-path`, `-regex`…); undefined for any other command (its delete takes its target whole).
 */
function findNames(c: SimpleCommand | undefined): { pattern: string; nocase: boolean }[] | undefined {
  if (c?.name !== 'find') return undefined;
  const out: { pattern: string; nocase: boolean }[] = [];
  for (const [i, w] of c.argv.entries()) {
    if (/^-i?(path|wholename|regex)$/.test(w)) return undefined;
    const next = c.argv[i + 1];
    if ((w === '-name' || w === '-iname') && next !== undefined)
      out.push({ pattern: next, nocase: w === '-iname' });
  }
  return out.length > 0 ? out : undefined;
}

/**
 * The words of a writing command but those the view reads as paths it only reads (`cp` sources),
 * and `ln`'s link contents (`ln -s ~/.hookwerk/policy.json x` writes `x` only).
 */
function targetWords(view: ActionView, c: SimpleCommand, index: number): string[] {
  const readOnly = new Set(
    view.paths
      .filter((p) => p.command === index && (p.access === 'read' || p.access === 'execute'))
      .map((p) => p.written),
  );
  if (fileAccessOf(c.name)?.args === 'link')
    for (const w of has(c, 't', 'target-directory') ? c.positionals : c.positionals.slice(0, -1))
      readOnly.add(w);
  const out: string[] = [];
  for (const word of c.argv.slice(1))
    for (const part of word.split(/[=:,]/))
      if (part !== '' && !part.startsWith('-') && !readOnly.has(part)) out.push(part);
  return out;
}

function checkCommand(check: Check, c: SimpleCommand, index: number): void {
  const { view, kept, ctx } = check;
  // The command as text: made only for a hit.
  const raw = () => shownCommand(c.raw);
  const args = hookwerkArgs(c);
  const forbidden = args === undefined ? undefined : forbiddenHookwerk(args);
  if (forbidden !== undefined) {
    add(check, `${raw()} runs ${forbidden}, which only a person may run`, { command: c });
    return;
  }
  if (KILLERS.has(c.name)) {
    const named = c.argv.slice(1).some((w) => /hookwerk/i.test(w));
    const feeder = view.commands.find(
      (u) =>
        u.argv.some((w) => /hookwerk/i.test(w)) &&
        u.pipes.some((p) => c.pipes.some((q) => q.id === p.id && p.stage < q.stage)),
    );
    if (named || feeder !== undefined) {
      add(check, `${raw()} stops hookwerk${feeder === undefined ? '' : ` (${shownCommand(feeder.raw)})`}`, {
        command: c,
      });
      return;
    }
  }
  const stops = SERVICE_STOPS[c.name];
  if (
    stops !== undefined &&
    c.positionals.some((w) => stops.has(w)) &&
    c.argv.some((w) => /hookwerk/i.test(w))
  ) {
    add(check, `${raw()} stops hookwerk`, { command: c });
    return;
  }
  // Interpreters' program texts: any word naming a kept file, however put together (best effort).
  const given = codeGiven(c);
  if (given !== undefined) {
    for (const code of given.code) {
      const words = pathTokens(code);
      const named = words.find((w) => kept.named(w, c.cwd, ctx.home));
      if (named !== undefined || ProtectedFiles.namedInPieces(words)) {
        add(check, `${raw()} names ${named ?? 'an agent hook file'} in its program`, { command: c });
        return;
      }
    }
  }
  if (check.byPath.has(index)) return;
  const table = fileAccessOf(c.name)?.args;
  const writes =
    rewrites(c) ||
    (given !== undefined && has(c, 'i')) ||
    (table !== undefined && WRITING_ARGS.has(table)) ||
    // Its arguments are targets (`cp`, `tee`, `rm`…): a redirect's command (`echo x > f`) has data for words.
    view.paths.some(
      (p) => p.command === index && p.from === 'argument' && (p.access === 'write' || p.access === 'delete'),
    );
  if (!writes) return;
  for (const word of targetWords(view, c, index)) {
    const dynamic = word.includes('$') || word.includes('`');
    // A literal word is the path it resolves to; one holding an expansion, what its parts say.
    const resolved = path.posix.resolve(c.cwd, word);
    const hit = dynamic ? pathTokens(word).some((w) => kept.named(w, c.cwd, ctx.home)) : kept.keeps(resolved);
    if (hit) {
      add(check, `${raw()} writes ${dynamic ? word : shown(resolved, ctx)}`, { command: c });
      return;
    }
  }
}

const compiled = new CompiledCache<ProtectedFiles>();

function protectedFiles(ctx: GuardContext): ProtectedFiles {
  return compiled.get(cacheKey([ctx.home, ctx.projectDir, ctx.hookFiles]), () => new ProtectedFiles(ctx));
}

export const selfProtectGuard: GuardDefinition<SelfProtectOptions> = {
  name: 'self-protect',
  defaultDecision: 'deny',
  options: optionsSchema,
  // [T-SELF-1] On for every agent; only a managed policy turns it off (T-MGD-1, `guard-settings.ts`).
  onByDefault: true,
  // The tools whose calls the action view reads: a call of any other names no file it could see.
  tools: DEFAULT_GUARD_TOOLS,
  check(call, _options, ctx) {
    const { view } = call;
    const check: Check = {
      view,
      byPath: new Set(),
      kept: protectedFiles(ctx),
      ctx,
      hits: [],
      seen: new Set(),
    };
    for (const p of view.paths)
      checkPath(check, call.tool, p, p.command === undefined ? undefined : view.commands[p.command]);
    for (const [index, c] of view.commands.entries()) checkCommand(check, c, index);
    return check.hits;
  },
};
