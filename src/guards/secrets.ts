/**
 * [G-LIB-1, G-LIB-3] The `secrets` guard: a read, copy, upload or encoding of a secret file
 * (`secret-files.ts`) — through a file tool that shows content (`Read`, `Grep`, Gemini's
 * `read_many_files`, Copilot's `view`), or a command that shows, copies, uploads or encodes it
 * (the read table of the action view: `cat`, `cp` sources, `curl -F @f`, `base64`, `source`, `<`
 * …; `git show|diff|blame|cat-file|grep`, `git log -p`), a recursive read of a folder holding
 * one of the home's secret places (`tar czf h.tgz ~`), and — best effort — an interpreter's
 * program text (`python3 -c "open('.env')"`) or its arguments naming one. Naming a secret
 * without reading it (`ls .env`, `rm .env`, `touch .env`, `cp .env.example .env`) passes;
 * writes to secrets are `permissions` business (`Edit(.env)`).
 */
import path from 'node:path';
import { z } from 'zod';
import { braceVariants } from '../action/brace-words.ts';
import { fileAccessOf } from '../action/file-access-table.ts';
import type { ActionView, SimpleCommand, ViewPath } from '../action/view-types.ts';
import { codeGiven, pathTokens } from './code-strings.ts';
import { CompiledByObjects, cacheKey } from './compiled-cache.ts';
import { readForms, readsFolders, shown, shownCommand } from './guard-paths.ts';
import type { GuardContext, GuardDefinition, GuardHit } from './guard-types.ts';
import { SecretFiles, secretName } from './secret-files.ts';

const optionsSchema = z
  .object({
    /** More secret files: `/abs/**`, `~/x`, `dir/x` (under the project), `name` (at any depth). */
    paths: z.array(z.string().min(1)).optional(),
  })
  .strict();

export type SecretsOptions = z.infer<typeof optionsSchema>;

/** Commands that read a file only to count or digest it: they show nothing of its content. */
const SUMMARY = new Set([
  'wc',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'shasum',
  'md5',
]);

/** Options whose file a command uses as a credential without showing it (`ssh -i key`). */
const USES: Readonly<Record<string, readonly string[]>> = {
  ssh: ['i'],
  scp: ['i'],
  sftp: ['i'],
  curl: ['cert', 'key', 'cacert'],
  openssl: ['key', 'inkey', 'kfile'],
  // `node --env-file=.env app.js` loads it for the program; with `-e`/`-p` the line could show it.
  node: ['env-file'],
  nodejs: ['env-file'],
};

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

/** File tools that list names, never content. */
const LISTING_TOOLS = new Set(['Glob', 'LS']);

/** `git` subcommands that show what a file holds (`git show HEAD:.env`). */
const GIT_SHOWS = new Set(['show', 'diff', 'blame', 'annotate', 'cat-file', 'grep', 'difftool']);

function has(c: SimpleCommand, ...names: string[]): boolean {
  return c.options.some((o) => names.includes(o));
}

/** `p` is named only as a credential the command uses (`ssh -i ~/.ssh/id_rsa host`). */
function usedOnly(c: SimpleCommand, p: ViewPath): boolean {
  const uses = USES[c.name];
  if (uses === undefined || p.from !== 'argument') return false;
  if ((c.name === 'node' || c.name === 'nodejs') && codeGiven(c) !== undefined) return false;
  const used = c.flags.some((f) => f.value === p.written && f.names.some((n) => uses.includes(n)));
  const other =
    c.positionals.includes(p.written) ||
    c.flags.some((f) => f.value === p.written && !f.names.some((n) => uses.includes(n)));
  return used && !other;
}

function homeExpanded(token: string, home: string): string {
  return token === '~' || token.startsWith('~/') ? home + token.slice(1) : token;
}

interface Check {
  readonly view: ActionView;
  readonly secrets: SecretFiles;
  readonly ctx: GuardContext;
  readonly hits: GuardHit[];
  readonly seen: Set<string>;
}

function add(check: Check, hit: GuardHit): void {
  if (check.seen.has(hit.saw)) return;
  check.seen.add(hit.saw);
  check.hits.push(hit);
}

/** A word of a program (or a `git show` operand) as a secret: by where it points, or its last parts. */
function wordKind(secrets: SecretFiles, word: string, cwd: string, home: string): string | undefined {
  const expanded = homeExpanded(word, home);
  const absolute = path.posix.resolve(cwd, expanded);
  const direct = secrets.kind(absolute) ?? secretName(path.posix.basename(expanded));
  if (direct !== undefined) return direct;
  // `os.environ['HOME'] + '/.aws/credentials'`: the word's last parts under the home.
  const parts = expanded.split('/').filter((s) => s !== '');
  for (let k = parts.length - 1; k >= 1; k--) {
    const kind = secrets.kind(`${home}/${parts.slice(k - 1).join('/')}`);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

function checkPath(check: Check, tool: string, p: ViewPath, named: SimpleCommand | undefined): void {
  let c = named;
  if (p.access !== 'read' && p.access !== 'execute') return;
  if (p.from === 'tool' && LISTING_TOOLS.has(tool)) return;
  if (named !== undefined && (SUMMARY.has(named.name) || usedOnly(named, p))) {
    // The view lists a path once per access, with the first command naming it: another command
    // of the line may still read it (`wc -l .env && cat .env`).
    const other = check.view.commands.find(
      (o) =>
        o !== named &&
        reads(o) &&
        (o.positionals.includes(p.written) ||
          o.redirects.some((r) => r.mode === 'read' && r.target === p.written)),
    );
    if (other === undefined) return;
    c = other;
  }
  const { secrets, ctx } = check;
  let kind: string | undefined;
  if (p.glob)
    kind = secrets.globKind(p.path, p.from !== 'tool') ?? secrets.globKind(p.real, p.from !== 'tool');
  else for (const form of readForms(p)) kind ??= secrets.kind(form);
  // Only a hit is told (G-PERF-1: most paths are no secret).
  const who = () =>
    c !== undefined ? `${shownCommand(c.raw)} reads` : p.from === 'tool' ? `${tool} of` : 'a redirect reads';
  if (kind !== undefined) {
    add(check, {
      saw: `${who()} the secret file ${shown(p.path, ctx)}${p.real !== p.path && !p.glob ? ` (${shown(p.real, ctx)})` : ''}`,
      path: p,
      ...(c === undefined ? {} : { command: c }),
    });
    return;
  }
  if (p.glob || !readsFolders(c, tool)) return;
  for (const form of readForms(p)) {
    const place = secrets.holdsPlace(form);
    if (place === undefined) continue;
    add(check, {
      saw: `${who()} ${shown(p.path, ctx)}, which holds the secret files of ${place}`,
      path: p,
      ...(c === undefined ? {} : { command: c }),
    });
    return;
  }
}

function checkCommand(check: Check, c: SimpleCommand): void {
  const { secrets, ctx } = check;
  const hit = (what: string, word: string) =>
    add(check, { saw: `${shownCommand(c.raw)} ${what} ${word}`, command: c });
  if (
    (c.name === 'git' && GIT_SHOWS.has(c.positionals[0] ?? '')) ||
    (c.name === 'git' && c.positionals[0] === 'log' && has(c, 'p', 'patch', 'u'))
  ) {
    for (const operand of c.positionals.slice(1)) {
      // `HEAD:.env`, `:.env` (the index), `main:config/.env`.
      const file = operand.includes(':') ? operand.slice(operand.indexOf(':') + 1) : operand;
      if (file !== '' && wordKind(secrets, file, c.cwd, ctx.home) !== undefined)
        hit('shows the secret file', file);
    }
    return;
  }
  if (c.name === 'find') {
    checkFind(check, c);
    return;
  }
  // `sh -c 'cat "$1"' _ .env`: the words after the script are its `$0`, `$1`…
  const script = c.positionals[0];
  if (SHELLS.has(c.name) && has(c, 'c') && script !== undefined && /\$\{?[1-9@*]/.test(script))
    for (const arg of c.positionals.slice(2))
      if (wordKind(secrets, arg, c.cwd, ctx.home) !== undefined) hit('gives its script the secret file', arg);
  const given = codeGiven(c);
  if (given === undefined) return;
  for (const code of given.code)
    for (const token of pathTokens(code))
      if (wordKind(secrets, token, c.cwd, ctx.home) !== undefined) {
        hit('names the secret file', `${token} in its program`);
        return;
      }
  for (const arg of given.args)
    if (!arg.startsWith('-') && wordKind(secrets, arg, c.cwd, ctx.home) !== undefined)
      hit('gives its program the secret file', arg);
}

/** Commands that show or copy the files they are given (`find … -exec cat {}`, `| xargs cat`). */
function reads(c: SimpleCommand): boolean {
  const access = fileAccessOf(c.name)?.args;
  return (
    !SUMMARY.has(c.name) &&
    (access === 'read' ||
      access === 'copy' ||
      access === 'first-read' ||
      access === 'zip' ||
      access === 'tar')
  );
}

/**
 * `find . -name .env -exec cat {} +`, `find . -name '.env*' | xargs cat`: a find that looks for
 * a secret by name, whose finds a reader runs on (through `-exec`, or `xargs` after a pipe).
 */
function checkFind(check: Check, find: SimpleCommand): void {
  const { commands } = check.view;
  const index = commands.indexOf(find);
  const named = find.flags.find(
    (f) =>
      f.value !== undefined &&
      f.names.some(
        (n) => n === 'name' || n === 'iname' || n === 'path' || n === 'ipath' || n === 'wholename',
      ) &&
      (secretName(path.posix.basename(f.value)) !== undefined ||
        check.secrets.globKind(`/${path.posix.basename(f.value)}`, false) !== undefined),
  );
  if (named === undefined) return;
  const fed = (c: SimpleCommand) =>
    c.pipes.some((p) => find.pipes.some((q) => q.id === p.id && q.stage < p.stage));
  for (const c of commands) {
    const parent = c.parent === undefined ? undefined : commands[c.parent.command];
    const byExec = c.parent?.by === 'launch' && c.parent.command === index;
    const byXargs = parent?.name === 'xargs' && c.parent?.by === 'launch' && fed(parent);
    if ((byExec || byXargs) && reads(c)) {
      add(check, {
        saw: `${shownCommand(find.raw)} finds the secret files ${named.value} for ${c.name} to read`,
        command: c,
      });
      return;
    }
  }
}

/** Claude Code's `Grep` `glob` filter (`.env*`): the files it searches are named there. */
function checkGrepGlob(check: Check, call: { tool: string; input: Readonly<Record<string, unknown>> }): void {
  const glob = call.input.glob;
  if (call.tool !== 'Grep' || typeof glob !== 'string' || glob === '') return;
  for (const variant of braceVariants(glob) ?? [glob]) {
    const kind = check.secrets.globKind(`/${variant.replace(/^\/+/, '')}`, false);
    if (kind !== undefined) {
      add(check, { saw: `Grep searches the secret files ${variant}` });
      return;
    }
  }
}

const compiled = new CompiledByObjects<SecretFiles>();

function secretFiles(options: SecretsOptions, ctx: GuardContext): SecretFiles {
  return compiled.getFor(
    options,
    ctx,
    () => cacheKey([ctx.home, ctx.projectDir, options.paths]),
    () => new SecretFiles(ctx, options.paths),
  );
}

export const secretsGuard: GuardDefinition<SecretsOptions> = {
  name: 'secrets',
  defaultDecision: 'deny',
  options: optionsSchema,
  check(call, options, ctx) {
    const { view } = call;
    const check: Check = { view, secrets: secretFiles(options, ctx), ctx, hits: [], seen: new Set() };
    for (const p of view.paths)
      checkPath(check, call.tool, p, p.command === undefined ? undefined : view.commands[p.command]);
    for (const c of view.commands) checkCommand(check, c);
    checkGrepGlob(check, call);
    return check.hits;
  },
};
