/**
 * [G-ACT-1, G-ACT-2] Every simple command a command line would run, found with the one shell
 * lexer: through `;` `&&` `||` `|` `&` and newlines, `( … )` and `{ …; }`, `$( … )`, backticks,
 * `<( … )`, `>( … )`, here-documents and here-strings; through the launchers of
 * `launcher-table.ts` (`sudo`, `env`, `timeout`, `xargs`, `find -exec`…: the launcher is listed
 * and so is what it runs) and into the command lines they are given (`bash -c`, `eval`, `su -c`,
 * `ssh HOST CMD`, `watch`, `parallel`), recursively, at most `MAX_DEPTH` levels. `cd DIR` moves the
 * folder of the rest of its list when DIR is literal (not past a pipe, a `&` or the end of a
 * subshell). Nothing runs, nothing is read from disk. Past a bound the walk stops and says why
 * (`problem`): the view is then unreadable.
 */
import path from 'node:path';
import { ownEntry } from '../core/plain-object.ts';
import { resolvedPath } from '../core/resolved-path.ts';
import { type HereDocument, lexShell, type Token } from '../core/shell-lexer.ts';
import { braceVariants } from './brace-words.ts';
import { type CommandFlag, flagValue, hasOption, optionNames, readArgs, specOf } from './command-options.ts';
import {
  type CommandFacts,
  commandHosts,
  commandPaths,
  HOST_COMMANDS,
  type PathRef,
} from './command-paths.ts';
import { fileAccessOf } from './file-access-table.ts';
import { readFind } from './find-command.ts';
import { launcherOf, RUNS_NOTHING_WITH } from './launcher-table.ts';
import type { CommandParent, PipeStage, Redirect, SimpleCommand } from './view-types.ts';
import { hereDocumentLists, type NestedList, type ViewWord, viewWord, type WordEnv } from './view-words.ts';

/** Launchers, substitutions and command strings unfolded one inside another, at most. */
export const MAX_DEPTH = 8;
export const MAX_COMMANDS = 256;
/** Command text lexed in all, nested strings included (each is a part of the line, so rarely near). */
const MAX_LEXED = 1024 * 1024;

/** A command as the walk lists it: its `pipes` and `parent` are settled once the whole line is read. */
type Building = { -readonly [K in keyof SimpleCommand]: SimpleCommand[K] };

const NO_PIPES: readonly PipeStage[] = [];

/** What one walk collects. */
export interface Walk {
  readonly home: string;
  readonly projectDir: string;
  readonly commands: Building[];
  readonly paths: PathRef[];
  /** Made when the first host is named. */
  hosts: Set<string> | undefined;
  /** The first bound met, in words; the view is unreadable when set. */
  problem: string | undefined;
  lexed: number;
  /** The next pipeline's id, and the ids of those that got a second stage. */
  nextPipe: number;
  /** Made when the first pipeline gets a second stage. */
  piped: Set<number> | undefined;
}

/** The folder commands run in; `known` false after a `cd` to a folder not known here. */
interface Place {
  readonly cwd: string;
  readonly known: boolean;
}

interface Context {
  readonly place: Place;
  readonly depth: number;
  readonly via: readonly string[];
  /** A shell's script when it reads one from stdin: the segment's here-document or here-string. */
  readonly stdin?: string;
  /** `find -exec`'s `{}`, `xargs -I`'s replace string: what it stands for (`command-paths.ts`). */
  readonly placeholder?: { readonly text: string; readonly stands: readonly string[] };
  /** The pipeline stages of the holders: a launched or nested command stands in them too. */
  readonly pipes: readonly PipeStage[];
  /** The parent of the commands read directly in this context (a launcher's); none for a nested list (set by its holder). */
  readonly parent?: CommandParent;
}

/** Reserved words that may open a simple command; the command starts after them. */
const RESERVED = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'esac',
]);
/** Reserved words that open a compound command (a stage of a pipeline as a whole: `{ …; } | sh`), and those that close one. */
const OPENERS = new Set(['{', 'if', 'while', 'until', 'for', 'select', 'case']);
const CLOSERS = new Set(['}', 'fi', 'done', 'esac']);
/** Reserved words whose segment runs nothing itself (`for x in …`, `case … in`). */
const NO_COMMAND = new Set(['for', 'select', 'case', 'function']);
const CD_OPTIONS = new Set(['-L', '-P', '-e', '-@', '--']);

/**
 * One simple command's words and redirections: the `word` and `redirection` tokens of `tokens`
 * from `from` to `to` (read in place, no copy [G-PERF-1]), and the bodies of its here-documents
 * (they follow the line's newline, in a later segment's range).
 */
interface Segment {
  readonly kind: 'segment';
  readonly tokens: readonly Token[];
  from: number;
  to: number;
  words: number;
  redirects: number;
  docs: HereDocument[] | undefined;
  before: string;
  after: string;
}

type Item = Segment | { readonly kind: 'open'; readonly before: string } | { readonly kind: 'close' };

const CLOSE: Item = { kind: 'close' };

function freshSegment(tokens: readonly Token[], from: number, before: string): Segment {
  return {
    kind: 'segment',
    tokens,
    from,
    to: from,
    words: 0,
    redirects: 0,
    docs: undefined,
    before,
    after: '',
  };
}

/** The tokens as simple-command segments, each with its here-document bodies, and the subshell marks. */
function segmentsOf(tokens: readonly Token[]): Item[] {
  const items: Item[] = [];
  let owners: Segment[] | undefined;
  let seg = freshSegment(tokens, 0, '');
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'word') seg.words++;
    else if (t.kind === 'redirection') {
      seg.redirects++;
      if ((t.op === '<<' || t.op === '<<-') && t.target !== undefined) {
        owners ??= [];
        owners.push(seg);
      }
    } else if (t.kind === 'heredoc') {
      const owner = owners?.shift();
      if (owner !== undefined) {
        owner.docs ??= [];
        owner.docs.push(t);
      }
    } else if (t.kind === 'operator') {
      // An empty segment before `(`: the operator before the group is the group's (`a | ( … )`).
      const empty = seg.words === 0 && seg.redirects === 0;
      const before = seg.before;
      if (empty) {
        // Nothing was in it: it is the next one.
        seg.from = k + 1;
        seg.before = t.op;
      } else {
        seg.after = t.op;
        seg.to = k;
        items.push(seg);
        seg = freshSegment(tokens, k + 1, t.op);
      }
      if (t.op === '(') items.push({ kind: 'open', before: empty ? before : '' });
      else if (t.op === ')') items.push(CLOSE);
    }
  }
  if (seg.words > 0 || seg.redirects > 0) {
    seg.to = tokens.length;
    items.push(seg);
  }
  return items;
}

/** The first word of a segment, if it is one piece of unquoted text: that text (a reserved word, maybe). */
function plainText(t: Token): string | undefined {
  if (t.kind !== 'word' || t.parts.length !== 1) return undefined;
  const p = t.parts[0]!;
  return p.kind === 'text' && p.quoting === 'unquoted' ? p.text : undefined;
}

/** A segment whose `cd` does not carry: a pipeline element or a background job (a subshell each). */
function ownShell(seg: Segment): boolean {
  return piping(seg.before) || piping(seg.after) || seg.after === '&';
}

function bounded(walk: Walk, ctx: Context): boolean {
  if (ctx.depth <= MAX_DEPTH) return true;
  walk.problem ??= `the command line nests deeper than ${MAX_DEPTH} levels`;
  return false;
}

const piping = (op: string) => op === '|' || op === '|&';

/**
 * The pipelines of one command list: a stack of the stage each open group (`( … )`, `{ …; }`, a
 * compound command) stands in, and the pipeline read now. A `|` moves to the next stage; any other
 * operator starts a new pipeline.
 */
class Pipes {
  readonly #walk: Walk;
  readonly #outer: { stage: PipeStage; paren: boolean }[] = [];
  #now: PipeStage;

  constructor(walk: Walk) {
    this.#walk = walk;
    this.#now = this.#fresh();
  }

  #fresh(): PipeStage {
    return { id: this.#walk.nextPipe++, stage: 0 };
  }

  /** An element begins after `op`. */
  next(op: string): void {
    if (piping(op)) {
      this.#now = { id: this.#now.id, stage: this.#now.stage + 1 };
      this.#walk.piped ??= new Set();
      this.#walk.piped.add(this.#now.id);
    } else if (op !== '(') this.#now = this.#fresh();
  }

  open(paren: boolean): void {
    this.#outer.push({ stage: this.#now, paren });
    this.#now = this.#fresh();
  }

  /** Closes the innermost group when it is of that kind (a stray `)` of a `case` pattern closes none). */
  close(paren: boolean): void {
    if (this.#outer.at(-1)?.paren !== paren) return;
    this.#now = this.#outer.pop()!.stage;
  }

  stages(outer: readonly PipeStage[]): PipeStage[] {
    if (outer.length === 0 && this.#outer.length === 0) return [this.#now];
    const out = outer.slice();
    for (const o of this.#outer) out.push(o.stage);
    out.push(this.#now);
    return out;
  }
}

/** Reads a command list (`tokens` lexed from `source`). */
function readTokens(walk: Walk, source: string, tokens: readonly Token[], ctx: Context): void {
  if (!bounded(walk, ctx)) return;
  let place = ctx.place;
  const outer: Place[] = [];
  const pipes = new Pipes(walk);
  for (const item of segmentsOf(tokens)) {
    if (item.kind === 'open') {
      outer.push(place);
      pipes.next(item.before);
      pipes.open(true);
    } else if (item.kind === 'close') {
      place = outer.pop() ?? place;
      pipes.close(true);
    } else {
      let firstWord = true;
      for (let k = item.from; k < item.to; k++) {
        const t = item.tokens[k]!;
        if (t.kind !== 'word') continue;
        const word = plainText(t);
        if (firstWord) {
          firstWord = false;
          if (word !== undefined && CLOSERS.has(word)) pipes.close(false);
          else pipes.next(item.before);
        }
        if (word === undefined || !OPENERS.has(word)) break;
        pipes.open(false);
      }
      if (firstWord) pipes.next(item.before);
      const at: Context = { place, depth: ctx.depth, via: ctx.via, pipes: pipes.stages(ctx.pipes) };
      const after = readSegment(
        walk,
        source,
        item,
        ctx.parent === undefined ? at : { ...at, parent: ctx.parent },
      );
      if (!ownShell(item)) place = after;
    }
  }
}

/** A command line given as text (a `-c` string, `eval`'s words, an ssh command): lexed anew. */
function readText(walk: Walk, text: string, ctx: Context): void {
  if (!bounded(walk, ctx)) return;
  walk.lexed += text.length;
  if (walk.lexed > MAX_LEXED) {
    walk.problem ??= 'the command line holds more than 1 MiB of nested command text';
    return;
  }
  const lexed = lexShell(text);
  if (lexed.unbalanced)
    walk.problem ??= 'a command line inside it is unbalanced (an unclosed quote or substitution)';
  readTokens(walk, text, lexed.tokens, ctx);
}

/** A substitution's list; its top commands get their holder as parent once the holder is listed. */
function readNested(walk: Walk, list: NestedList, ctx: Context, label: string): void {
  readTokens(walk, list.source, list.tokens, {
    place: ctx.place,
    depth: ctx.depth + 1,
    via: [...ctx.via, label],
    pipes: ctx.pipes,
  });
}

function modeOf(op: string): Redirect['mode'] {
  if (op === '<') return 'read';
  return op === '>>' || op === '&>>' ? 'append' : 'write';
}

/** The commands one substitution of a segment listed (`from` to `to`), and what it is to its holder. */
interface Held {
  readonly from: number;
  readonly to: number;
  readonly by: CommandParent['by'];
  readonly text: string;
}

/** A segment without redirections shares this (never written to). */
const NO_REDIRECTS: readonly Redirect[] = Object.freeze([]);

/** Reads the list a substitution of a segment holds; notes which commands it listed (`held`, made when first needed). */
function readHeld(
  walk: Walk,
  list: NestedList,
  ctx: Context,
  by: CommandParent['by'],
  text: string,
  label: string,
  held: Held[] | undefined,
): Held[] {
  const from = walk.commands.length;
  readNested(walk, list, ctx, label);
  const h: Held = { from, to: walk.commands.length, by, text };
  if (held === undefined) return [h];
  held.push(h);
  return held;
}

/**
 * The words of the segment being read, before they are copied out at their size: a list grown by
 * `push` from empty holds room for 17 [G-PERF-1]. Nothing reads a segment inside this loop.
 */
const WORDS: ViewWord[] = [];

/** Reads one segment; returns the folder the rest of its list runs in. */
function readSegment(walk: Walk, source: string, seg: Segment, ctx: Context): Place {
  const env: WordEnv = {
    home: walk.home,
    projectDir: walk.projectDir,
    cwd: ctx.place.known ? ctx.place.cwd : undefined,
  };
  let end = 0;
  // Read into the shared list, then copied out at its size (see `WORDS`).
  const from = WORDS.length;
  const tokens = seg.tokens;
  for (let k = seg.from; k < seg.to; k++) {
    const w = tokens[k]!;
    if (w.kind !== 'word') continue;
    if (w.end > end) end = w.end;
    // [G-ACT-1] An unquoted brace list is several words (`mv x{,.bak}` is `mv x x.bak`).
    const part = w.parts[0];
    const variants =
      w.parts.length === 1 && part?.kind === 'text' && part.quoting === 'unquoted' && part.text.includes('{')
        ? braceVariants(part.text)
        : undefined;
    if (variants === undefined || part?.kind !== 'text') WORDS.push(viewWord(source, w, env));
    else for (const text of variants) WORDS.push(viewWord(source, { ...w, parts: [{ ...part, text }] }, env));
  }
  const words = WORDS.slice(from);
  while (WORDS.length > from) WORDS.pop();
  let redirects: Redirect[] | undefined;
  let refs: PathRef[] | undefined;
  let stdin: string | undefined;
  // The commands each substitution of this segment lists, for their parent link.
  let held: Held[] | undefined;
  if (seg.redirects > 0)
    for (let k = seg.from; k < seg.to; k++) {
      const r = tokens[k]!;
      if (r.kind !== 'redirection') continue;
      end = Math.max(end, r.end);
      if (r.target === undefined) continue;
      const target = viewWord(source, r.target, env);
      const input = r.op === '<' || r.op === '<<<';
      for (const n of target.nested)
        held = readHeld(walk, n, ctx, input ? 'stdin' : 'redirect', target.text, '$(…)', held);
      if (r.op === '<<' || r.op === '<<-') continue;
      if (r.op === '<<<') {
        stdin = target.text;
        continue;
      }
      // `2>&1`, `<&0`, `>&-`: a file descriptor, no file.
      if ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(target.text)) continue;
      const mode = modeOf(r.op);
      redirects ??= [];
      redirects.push({
        op: r.fd === undefined ? r.op : r.fd + r.op,
        target: target.text,
        mode,
        dynamic: target.dynamic,
      });
      if (!target.dynamic && target.text !== '') {
        refs ??= [];
        refs.push({
          written: target.text,
          cwd: ctx.place.cwd,
          access: mode === 'read' ? 'read' : 'write',
          from: 'redirect',
        });
      }
    }
  for (const doc of seg.docs ?? []) {
    const body = source.slice(doc.body.start, doc.body.end);
    // An unquoted delimiter: the body is expanded, and the substitutions in it run.
    if (!doc.quoted)
      for (const n of hereDocumentLists(source, doc.body))
        held = readHeld(walk, n, ctx, 'stdin', body, '<<', held);
    stdin ??= body;
  }
  for (const w of words)
    for (const n of w.nested) held = readHeld(walk, n, ctx, 'word', w.text, '$(…)', held);
  const start = commandStart(words);
  const own = start === undefined || start === 0 ? words : words.slice(start);
  const index =
    start === undefined
      ? undefined
      : emitCommand(walk, own, redirects ?? NO_REDIRECTS, stdin === undefined ? ctx : { ...ctx, stdin }, end);
  if (refs !== undefined)
    for (const ref of refs)
      walk.paths.push(
        index === undefined
          ? ref
          : { written: ref.written, cwd: ref.cwd, access: ref.access, from: ref.from, command: index },
      );
  if (index !== undefined && held !== undefined)
    for (const h of held)
      for (let k = h.from; k < h.to; k++) {
        const c = walk.commands[k]!;
        if (c.parent === undefined) c.parent = { command: index, by: h.by, text: h.text };
      }
  return start === undefined ? ctx.place : placeAfter(words, start, ctx.place, walk.home);
}

/** The words after the reserved words and assignments that open a segment: the command's own. */
function commandStart(words: readonly ViewWord[]): number | undefined {
  let i = 0;
  while (i < words.length && words[i]!.plain && RESERVED.has(words[i]!.text)) i++;
  if (i < words.length && words[i]!.plain && NO_COMMAND.has(words[i]!.text)) return undefined;
  while (i < words.length && words[i]!.assigns !== undefined) i++;
  return i < words.length ? i : undefined;
}

/** Where `cd DIR`/`pushd DIR` leaves the shell (a `cd` is taken to succeed); `start`: the command's word. */
function placeAfter(words: readonly ViewWord[], start: number, place: Place, home: string): Place {
  const name = words[start]!;
  if (name.dynamic || (name.text !== 'cd' && name.text !== 'pushd' && name.text !== 'popd')) return place;
  if (name.text === 'popd') return { cwd: place.cwd, known: false };
  let i = start + 1;
  while (i < words.length && CD_OPTIONS.has(words[i]!.text)) i++;
  const dir = words[i];
  if (dir === undefined) return { cwd: home, known: true };
  if (dir.dynamic || dir.text === '-' || dir.text === '') return { cwd: place.cwd, known: false };
  if (path.isAbsolute(dir.text)) return { cwd: resolvedPath(dir.text), known: true };
  return { cwd: resolvedPath(dir.text, place.cwd), known: place.known };
}

/** A folder a launcher option names (`sudo -D`, `env -C`, `git -C`), against `place`. */
function movedTo(place: Place, dir: string | undefined): Place {
  if (dir === undefined || dir === '' || dir.includes('$')) return place;
  if (path.isAbsolute(dir)) return { cwd: resolvedPath(dir), known: true };
  return { cwd: resolvedPath(dir, place.cwd), known: place.known };
}

const textOf = (w: ViewWord): string => w.text;

/** Lists one simple command (`words`: its program first), then what it launches. Its index, if listed. */
function emitCommand(
  walk: Walk,
  words: readonly ViewWord[],
  redirects: readonly Redirect[],
  ctx: Context,
  end: number,
): number | undefined {
  if (!bounded(walk, ctx)) return undefined;
  if (walk.commands.length >= MAX_COMMANDS) {
    walk.problem ??= `the command line holds more than ${MAX_COMMANDS} commands`;
    return undefined;
  }
  const program = words[0]!;
  const rest = words.slice(1);
  const name =
    program.dynamic || !program.text.includes('/') ? program.text : path.posix.basename(program.text);
  let flags: readonly CommandFlag[];
  let positionals: ViewWord[];
  let positionalAt: readonly number[] = [];
  let flagAt: readonly number[] = [];
  let execs: readonly (readonly ViewWord[])[] = [];
  let place = ctx.place;
  if (!program.dynamic && name === 'find') {
    const found = readFind(rest);
    flags = found.flags;
    positionals = [...found.starts];
    execs = found.execs;
  } else {
    const read = readArgs(specOf(program.dynamic ? '' : name), rest);
    flags = read.flags;
    flagAt = read.flagAt;
    positionalAt = read.positionals;
    positionals = read.positionals.map((k) => rest[k]!);
    // [G-ACT-1] `git -C DIR` (before the subcommand): git runs in DIR.
    if (name === 'git') {
      const sub = read.positionals[0] ?? rest.length;
      for (let k = 0; k < read.flags.length; k++) {
        const f = read.flags[k]!;
        if ((read.flagAt[k] ?? 0) < sub && f.names.includes('C')) place = movedTo(place, f.value);
      }
    }
  }
  const last = words.at(-1)!;
  const raw = program.source.slice(
    program.start,
    Math.max(last.end, last.source === program.source ? end : 0),
  );
  // `map` makes each list at its size (one grown by `push` from empty holds room for 17).
  const argv = words.map(textOf);
  let dynamicArgs: number[] | undefined;
  for (let k = 0; k < words.length; k++)
    if (words[k]!.dynamic) {
      dynamicArgs ??= [];
      dynamicArgs.push(k);
    }
  const positionalTexts = positionals.map(textOf);
  const index = walk.commands.length;
  const command: Building = {
    name,
    argv,
    options: optionNames(flags),
    flags,
    positionals: positionalTexts,
    redirects,
    dynamic: program.dynamic,
    dynamicArgs: dynamicArgs ?? [],
    raw,
    cwd: place.cwd,
    via: ctx.via,
    pipes: ctx.pipes,
  };
  if (ctx.parent !== undefined) command.parent = ctx.parent;
  if (ctx.stdin !== undefined) command.stdin = ctx.stdin;
  walk.commands.push(command);
  if (fileAccessOf(name) !== undefined || name === 'find' || name === 'git' || program.text.includes('/')) {
    const facts: CommandFacts = { name, program, flags, positionals, cwd: place.cwd, index };
    if (ctx.placeholder !== undefined) facts.placeholder = ctx.placeholder;
    commandPaths(facts, walk.paths);
  }
  if (HOST_COMMANDS.has(name))
    for (const host of commandHosts(name, flags, positionalTexts)) {
      walk.hosts ??= new Set();
      walk.hosts.add(host);
    }
  if (!program.dynamic && launcherOf(name) !== undefined)
    launch(walk, { name, index, rest, flags, flagAt, positionalAt, positionals, execs, redirects, end }, ctx);
  return index;
}

interface Launched {
  readonly name: string;
  readonly index: number;
  readonly rest: readonly ViewWord[];
  readonly flags: readonly CommandFlag[];
  /** For each flag, the index in `rest` of the word it was read from. */
  readonly flagAt: readonly number[];
  readonly positionalAt: readonly number[];
  readonly positionals: readonly ViewWord[];
  readonly execs: readonly (readonly ViewWord[])[];
  readonly redirects: readonly Redirect[];
  readonly end: number;
}

const PARALLEL_SEPARATORS = new Set([':::', '::::', ':::+', '::::+']);

/** What a launcher runs (`launcher-table.ts`), read one level deeper. */
function launch(walk: Walk, c: Launched, ctx: Context): void {
  const how = launcherOf(c.name);
  if (how === undefined) return;
  const nothing = ownEntry(RUNS_NOTHING_WITH, c.name);
  if (nothing !== undefined && hasOption(c.flags, nothing)) return;
  const inner = (label: string, place = ctx.place): Context => ({
    place,
    depth: ctx.depth + 1,
    via: [...ctx.via, label],
    pipes: ctx.pipes,
    parent: { command: c.index, by: 'launch' },
    ...(ctx.stdin !== undefined ? { stdin: ctx.stdin } : {}),
  });
  const text = (words: readonly ViewWord[]) => words.map((w) => w.text).join(' ');
  const wordsFrom = (k: number | undefined) => (k === undefined ? [] : c.rest.slice(k));
  switch (how.kind) {
    case 'words': {
      const words = wordsFrom(c.positionalAt[how.skip ?? 0]);
      let k = 0;
      while (k < words.length && words[k]!.assigns !== undefined) k++;
      const place = movedTo(ctx.place, flagValue(c.flags, ['chdir']));
      // `xargs -I R` (or `-i`, whose R defaults to `{}`): R stands for input lines, no path known here.
      const replace = c.name === 'xargs' ? flagValue(c.flags, ['replace', 'i']) : undefined;
      const uses = c.name === 'xargs' && hasOption(c.flags, ['i', 'replace']);
      const at = inner(c.name, place);
      const ctxInner = uses ? { ...at, placeholder: { text: replace || '{}', stands: [] } } : at;
      if (k < words.length) emitCommand(walk, words.slice(k), c.redirects, ctxInner, c.end);
      return;
    }
    case 'env': {
      const first = c.positionalAt.find((k) => c.rest[k]?.assigns === undefined);
      const words = wordsFrom(first);
      const place = movedTo(ctx.place, flagValue(c.flags, ['chdir']));
      const split = flagValue(c.flags, ['split-string']);
      if (split !== undefined)
        readText(walk, [split, ...words.map((w) => shellQuote(w.text))].join(' '), inner('env -S', place));
      else if (words.length > 0) emitCommand(walk, words, c.redirects, inner('env', place), c.end);
      return;
    }
    case 'shell': {
      if (hasOption(c.flags, ['c'])) {
        const script = c.positionals[0];
        if (script !== undefined) readText(walk, script.text, inner(`${c.name} -c`));
      } else if ((c.positionals.length === 0 || hasOption(c.flags, ['s'])) && ctx.stdin !== undefined)
        readText(walk, ctx.stdin, inner(`${c.name} <<`));
      return;
    }
    case 'line': {
      if (c.name === 'watch' && hasOption(c.flags, ['exec']))
        emitCommand(walk, c.positionals, [], inner(c.name), c.end);
      else if (c.positionals.length > 0) readText(walk, text(c.positionals), inner(c.name));
      return;
    }
    case 'parallel': {
      const sep = c.positionals.findIndex((w) => PARALLEL_SEPARATORS.has(w.text));
      const command = sep < 0 ? c.positionals : c.positionals.slice(0, sep);
      const rest = sep < 0 ? [] : c.positionals.slice(sep + 1);
      const end = rest.findIndex((w) => PARALLEL_SEPARATORS.has(w.text));
      // `:::` gives arguments (`{}` stands for each, else it is appended); `::::` gives files of them.
      const args = c.positionals[sep]?.text.startsWith('::::') ? [] : end < 0 ? rest : rest.slice(0, end);
      if (command.length === 0) for (const arg of rest) readText(walk, arg.text, inner(c.name));
      else if (args.length === 0) readText(walk, text(command), inner(c.name));
      else
        for (const arg of args) {
          const line = text(command);
          const quoted = shellQuote(arg.text);
          readText(
            walk,
            line.includes('{}') ? line.replaceAll('{}', quoted) : `${line} ${quoted}`,
            inner(c.name),
          );
        }
      return;
    }
    case 'su': {
      // `su USER -c CMD`: the words after the user go to its shell, `-c CMD` included.
      const after = c.positionals.findIndex((w) => w.text === '-c' || w.text === '--command');
      const command =
        flagValue(c.flags, ['command', 'session-command']) ??
        (after > 0 ? c.positionals[after + 1]?.text : undefined);
      if (command !== undefined) readText(walk, command, inner(`${c.name} -c`));
      // `runuser -u USER [--] CMD…` runs the words (su's positional is a user name).
      else if (c.name === 'runuser' && hasOption(c.flags, ['user']) && c.positionals.length > 0)
        emitCommand(walk, c.positionals, c.redirects, inner(c.name), c.end);
      return;
    }
    case 'flock': {
      const command = flagValue(c.flags, ['command']);
      if (command !== undefined) {
        readText(walk, command, inner('flock -c'));
        return;
      }
      const after = wordsFrom(c.positionalAt[0]).slice(1);
      if (after[0]?.text === '-c' || after[0]?.text === '--command') {
        if (after[1] !== undefined) readText(walk, after[1].text, inner('flock -c'));
      } else if (after.length > 0) emitCommand(walk, after, c.redirects, inner(c.name), c.end);
      return;
    }
    case 'ssh': {
      const remote = c.positionals.slice(1);
      if (remote.length > 0) readText(walk, text(remote), inner(c.name));
      return;
    }
    case 'package':
    case 'sub': {
      const call = flagValue(c.flags, ['call']);
      if (call !== undefined) {
        readText(walk, call, inner(`${c.name} -c`));
        return;
      }
      let skip = 0;
      if (how.kind === 'sub') {
        const first = c.positionals.map((w) => w.text);
        const found = how.subs.find((s) => s.every((word, k) => first[k] === word));
        if (found === undefined) return;
        skip = found.length;
      }
      const words = wordsFrom(c.positionalAt[skip]);
      const label = how.kind === 'sub' ? `${c.name} ${c.positionals[0]!.text}` : c.name;
      if (words.length > 0) emitCommand(walk, words, c.redirects, inner(label), c.end);
      return;
    }
    case 'module': {
      const k = c.flags.findIndex((f) => f.names.includes('m'));
      const at = c.flagAt[k];
      const word = at === undefined ? undefined : c.rest[at];
      const value = c.flags[k]?.value;
      if (word === undefined || at === undefined || value === undefined || value === '') return;
      // `-m twine` (the value is the next word: `m` ends its word) or `-mtwine`, `-umtwine`.
      const next = word.text.endsWith('m');
      const module = next ? c.rest[at + 1] : { ...word, text: value };
      if (module === undefined) return;
      const args = c.rest.slice(at + (next ? 2 : 1));
      emitCommand(walk, [module, ...args], c.redirects, inner(`${c.name} -m`), c.end);
      return;
    }
    case 'find': {
      const starts = c.positionals.filter((w) => !w.dynamic).map((w) => w.text);
      for (const body of c.execs)
        emitCommand(
          walk,
          body,
          [],
          { ...inner('find -exec'), placeholder: { text: '{}', stands: starts.length > 0 ? starts : ['.'] } },
          body.at(-1)!.end,
        );
      return;
    }
  }
}

/** `text` as one shell word. */
function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** The stages of pipelines that got a second stage: `stages` itself when all did, a shared empty list when none did. */
function pipedOnly(stages: readonly PipeStage[], piped: ReadonlySet<number>): readonly PipeStage[] {
  let kept = 0;
  for (const p of stages) if (piped.has(p.id)) kept++;
  if (kept === stages.length) return stages;
  if (kept === 0) return NO_PIPES;
  return stages.filter((p) => piped.has(p.id));
}

/** [G-ACT-1] Walks a command line: every simple command, path and host it names. */
export function walkCommandLine(
  command: string,
  ctx: { home: string; projectDir: string; cwd: string },
  limit: number,
): Walk {
  const walk: Walk = {
    home: ctx.home,
    projectDir: ctx.projectDir,
    commands: [],
    paths: [],
    hosts: undefined,
    problem: undefined,
    lexed: 0,
    nextPipe: 0,
    piped: undefined,
  };
  let text = command;
  if (text.length > limit) {
    walk.problem = `the command line is longer than ${Math.round(limit / 1024)} KiB`;
    text = text.slice(0, limit);
  }
  walk.lexed = text.length;
  const lexed = lexShell(text);
  if (lexed.unbalanced)
    walk.problem ??= 'the command line is unbalanced (an unclosed quote, parenthesis or substitution)';
  readTokens(walk, text, lexed.tokens, {
    place: { cwd: ctx.cwd, known: true },
    depth: 0,
    via: [],
    pipes: [],
  });
  // Only pipelines of two stages or more are kept: a lone command stands in none.
  const piped = walk.piped;
  for (const c of walk.commands) c.pipes = piped === undefined ? NO_PIPES : pipedOnly(c.pipes, piped);
  return walk;
}
