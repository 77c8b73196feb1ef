/**
 * [G-LIB-1, G-LIB-3] The `outside-project` guard: a write, edit or delete of a path outside the
 * project — through file tools (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`, Copilot's
 * `create`/`edit`, every file of a Codex patch) and the command writes of the action view
 * (redirects, `tee`, `cp`/`mv`/`ln`/`install` targets, `sed -i`, `touch`, `chmod`, `rm`, `mkdir`,
 * `curl -o`, `tar -x -C`, `git clone DIR`…). Where a write lands is its `real` path (a symlink
 * in the project that points out is outside); a delete or move of a name written without a
 * trailing `/` acts on the name itself (G-LIB-3). `/dev/null`, `/dev/stdout`, `/dev/stderr`,
 * `/dev/tty`, `/dev/fd/*` and the system temp folder's sub-paths are exempt; option `allow`
 * adds globs.
 */
import { z } from 'zod';
import type { ViewPath } from '../action/view-types.ts';
import type { PathGlob } from '../core/path-glob.ts';
import { CompiledByObjects, cacheKey } from './compiled-cache.ts';
import {
  globFolder,
  landsOn,
  matchesOrUnder,
  optionGlob,
  shown,
  shownCommand,
  within,
} from './guard-paths.ts';
import type { GuardContext, GuardDefinition, GuardHit } from './guard-types.ts';

const optionsSchema = z
  .object({
    /** More places a write may go: `/abs/**`, `~/x/**`, `dir/x` (under the project), `name` (at any depth). */
    allow: z.array(z.string().min(1)).optional(),
  })
  .strict();

export type OutsideProjectOptions = z.infer<typeof optionsSchema>;

/** The terminal and the process's own streams: writing there writes no file. */
const STREAMS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** Commands that write into a folder they are given (`cp x $TMP/`, `tar -x -C $TMP`), not the folder itself. */
const INTO = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'scp', 'tar', 'unzip', 'wget', 'curl', 'mkdir']);

/** `into`: the command writes into the folder `p` names, so the temp folder itself is a sub-path's parent. */
function exempt(p: string, ctx: GuardContext, into = false): boolean {
  if (STREAMS.has(p) || p.startsWith('/dev/fd/')) return true;
  return p === ctx.tmpDir ? into : within(ctx.tmpDir, p);
}

/** The form of a path that says where it is: a glob's folder (G-LIB-3: its static prefix). */
function place(form: string, p: ViewPath): string {
  return p.glob ? globFolder(form) : form;
}

const compiled = new CompiledByObjects<readonly PathGlob[]>();

function allowGlobs(options: OutsideProjectOptions, ctx: GuardContext): readonly PathGlob[] {
  return compiled.getFor(
    options,
    ctx,
    () => cacheKey([ctx.home, ctx.projectDir, options.allow]),
    () => (options.allow ?? []).map((g) => optionGlob(g, ctx)),
  );
}

export const outsideProjectGuard: GuardDefinition<OutsideProjectOptions> = {
  name: 'outside-project',
  defaultDecision: 'deny',
  options: optionsSchema,
  check(call, options, ctx) {
    const hits: GuardHit[] = [];
    const allow = allowGlobs(options, ctx);
    const { view } = call;
    for (const p of view.paths) {
      if (p.access !== 'write' && p.access !== 'delete') continue;
      // The stream names are judged as written (`/dev/stdout` is a link to a terminal).
      if (exempt(p.path, ctx)) continue;
      const forms = landsOn(p).map((f) => place(f, p));
      const actual = forms.at(-1)!;
      const c = p.command === undefined ? undefined : view.commands[p.command];
      const into = p.access === 'write' && p.from === 'argument' && c !== undefined && INTO.has(c.name);
      if (within(ctx.projectDir, actual) || exempt(actual, ctx, into)) continue;
      if (allow.length > 0 && forms.some((f) => matchesOrUnder(allow, f))) continue;
      const verb = p.access === 'delete' ? 'deletes' : 'writes';
      const who =
        c !== undefined
          ? `${shownCommand(c.raw)} ${verb}`
          : p.from === 'tool'
            ? `${call.tool} ${verb}`
            : `a redirect ${verb}`;
      const where = actual === p.path ? shown(p.path, ctx) : `${shown(p.path, ctx)} (${shown(actual, ctx)})`;
      hits.push({
        saw: `${who} ${where}, outside the project`,
        path: p,
        ...(c === undefined ? {} : { command: c }),
      });
    }
    return hits;
  },
};
