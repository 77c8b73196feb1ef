import path from 'node:path';
import { isInside } from './real-path.ts';
import {
  lexShell,
  type Part as ShellPart,
  type Token as ShellToken,
  type Word as ShellWord,
} from './shell-lexer.ts';

/**
 * Which files a hook's shell command line refers to, for consent [L-TRUST-1, L-TRUST-5] and for
 * validation. Hook commands run as `/bin/sh -c COMMAND` in the project folder, so this reads the
 * line as a POSIX shell would (with the shell lexer) — quotes, the variables whose value is known
 * here, `cd` — without ever running anything. A word whose value cannot be known here (another
 * variable, a command substitution, a relative word after `cd` to an unknown folder) is reported as
 * unresolved rather than guessed. A here-document body is read as more lines of the command. Not
 * followed, so taken literally: `eval`, globs, functions and aliases, `CDPATH`, and whether a `cd`
 * or `&&`/`||` branch really runs.
 */

interface CommandPathOptions {
  /** Value of `${CLAUDE_PLUGIN_ROOT}` (plugin hooks); without it the variable stays unresolved. */
  pluginRoot?: string;
  /** The hooks' home folder, for `~/…`; without it such words stay unresolved. */
  home?: string;
}

interface ScriptPathOptions {
  /** Value of `$CLAUDE_PROJECT_DIR`; defaults to the `cwd` the command runs in. */
  projectDir?: string;
  /** Value of `${CLAUDE_PLUGIN_ROOT}`; without it the variable stays unresolved. */
  pluginRoot?: string;
}

/**
 * A script-like word of a command that consent does not pin: it names a path outside the
 * project, or its path cannot be known (`expansion`: an unknown variable, a command
 * substitution, `~` without a home; `directory`: a relative word after a `cd` to an unknown
 * folder).
 */
type UnpinnedPath =
  | { kind: 'outside'; word: string; path: string }
  | { kind: 'unresolved'; word: string; cause: 'expansion' | 'directory' };

// ---------------------------------------------------------------------------------------------
// Reading the line (with the shell lexer): words made of parts, and operators, as `sh` reads them.

/** One piece of a word as written. `quoted` text is never a tilde or an operator. */
type Part =
  | { kind: 'text'; text: string; quoted: boolean }
  | { kind: 'var'; name: string; raw: string }
  /**
   * `${x:-y}`, `$1`, `$?`, `$((…))`, `$(…)`, `` `…` ``, `<(…)`, and `$'…'` (dash and bash read it
   * differently): never known here; `commands` is what a substitution runs.
   */
  | { kind: 'opaque'; raw: string; commands?: Token[] };

interface Word {
  parts: Part[];
  /** The redirection operator (`>`, `<`, `>&`, `<<` …) this word is the target of. */
  redirect?: string;
}

type Token = { kind: 'word'; word: Word } | { kind: 'op'; op: string };

/** A newline separates commands like `;`; bash's `|&` is `|` then `&` to `sh`. */
const SH_OPERATORS = new Map([
  ['\n', [';']],
  ['|&', ['|', '&']],
]);

function lex(command: string, depth = 0): Token[] {
  return tokensOf(command, lexShell(command, { depth }).tokens, depth);
}

/**
 * The lexer's tokens as this module reads them. A here-document body is read as more lines of
 * the command, as it may be a script (`sh <<EOF`).
 */
function tokensOf(source: string, tokens: readonly ShellToken[], depth: number): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    if (token.kind === 'word') out.push({ kind: 'word', word: wordOf(source, token, depth) });
    else if (token.kind === 'operator')
      for (const op of SH_OPERATORS.get(token.op) ?? [token.op]) out.push({ kind: 'op', op });
    else if (token.kind === 'redirection') {
      // To `sh`, bash's `&>x` is `&` then `>x`; `<<<x` ends up as `<x`.
      const background = token.op.startsWith('&');
      if (background) out.push({ kind: 'op', op: '&' });
      const op = token.op === '<<<' ? '<' : background ? token.op.slice(1) : token.op;
      if (token.target !== undefined)
        out.push({ kind: 'word', word: { ...wordOf(source, token.target, depth), redirect: op } });
    } else if (token.kind === 'heredoc') {
      const body = lexShell(source, { ...token.body, depth: depth + 1 });
      for (const t of tokensOf(source, body.tokens, depth + 1)) out.push(t);
    }
  }
  return out;
}

function wordOf(source: string, word: ShellWord, depth: number): Word {
  const parts: Part[] = [];
  for (const part of word.parts) {
    const next = partOf(source, part, depth);
    const last = parts.at(-1);
    if (next.kind === 'text' && last?.kind === 'text' && last.quoted === next.quoted) last.text += next.text;
    else if (next.kind !== 'text' || next.text !== '') parts.push(next);
  }
  return { parts };
}

function partOf(source: string, part: ShellPart, depth: number): Part {
  const raw = source.slice(part.start, part.end);
  if (part.kind === 'text' && part.quoting !== 'ansi')
    return { kind: 'text', text: part.text, quoted: part.quoting !== 'unquoted' };
  if (part.kind === 'variable') return { kind: 'var', name: part.name, raw };
  if (part.kind !== 'command') return { kind: 'opaque', raw };
  // The shell unescapes a backtick body (`\$`, `` \` ``, `\\`) before running it: that text is read.
  const commands =
    part.form === '`'
      ? lex(unescapeBackticks(source.slice(part.inner.start, part.inner.end)), depth + 1)
      : tokensOf(source, part.tokens, depth + 1);
  return { kind: 'opaque', raw, commands };
}

function unescapeBackticks(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const next = body[i + 1];
    if (body[i] === '\\' && next !== undefined && '`\\$'.includes(next)) {
      out += next;
      i++;
    } else out += body[i];
  }
  return out;
}

/** The word as written, quotes removed, nothing expanded. */
function rawOf(word: Word): string {
  return word.parts.map((p) => (p.kind === 'text' ? p.text : p.raw)).join('');
}

// ---------------------------------------------------------------------------------------------
// Expansion: what a word means in the folder where it stands.

interface Scope {
  projectDir: string;
  pluginRoot: string | undefined;
  home: string | undefined;
  /** The folder the line starts in: Gemini CLI's `$GEMINI_CWD` (the input's `cwd`). */
  startCwd: string;
  /** Known variables the line itself assigns or names (`PWD=…`, `unset PWD`): no longer known. */
  reassigned: ReadonlySet<string>;
}

const KNOWN_VARIABLES = new Set([
  'CLAUDE_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
  'GEMINI_CWD',
  'PWD',
  'CLAUDE_PLUGIN_ROOT',
]);

function scopeFor(projectDir: string, opts: { pluginRoot?: string; home?: string; cwd?: string }): Scope {
  const root = path.resolve(projectDir);
  return {
    projectDir: root,
    pluginRoot: opts.pluginRoot === undefined ? undefined : path.resolve(root, opts.pluginRoot),
    home: opts.home,
    startCwd: opts.cwd === undefined ? root : path.resolve(root, opts.cwd),
    reassigned: new Set(),
  };
}

/** `$PWD` is the folder the shell is in when it expands the word: after a `cd`, that folder. */
function variable(name: string, scope: Scope, cwd: string | undefined): string | undefined {
  if (scope.reassigned.has(name)) return undefined;
  // Both name the project folder: Claude Code's, and Gemini CLI's as hookwerk sets it [G-RUN-1].
  if (name === 'CLAUDE_PROJECT_DIR' || name === 'GEMINI_PROJECT_DIR') return scope.projectDir;
  if (name === 'PWD') return cwd;
  if (name === 'GEMINI_CWD') return scope.startCwd;
  if (name === 'CLAUDE_PLUGIN_ROOT') return scope.pluginRoot;
  return undefined;
}

interface Expanded {
  text: string;
  /** False when some part has no known value (the text then shows it as written). */
  complete: boolean;
}

function expand(word: Word, scope: Scope, cwd: string | undefined): Expanded {
  let text = '';
  let complete = true;
  for (const part of word.parts) {
    const value =
      part.kind === 'text' ? part.text : part.kind === 'var' ? variable(part.name, scope, cwd) : undefined;
    if (value === undefined) complete = false;
    text += value ?? rawOf({ parts: [part] });
  }
  return withTilde(word, { text, complete }, scope);
}

/** An unquoted `~` or `~/…` starting a word is the home folder; `~user` is not known here. */
function withTilde(word: Word, expanded: Expanded, scope: Scope): Expanded {
  const first = word.parts[0];
  if (first?.kind !== 'text' || first.quoted || !first.text.startsWith('~')) return expanded;
  const prefix = /^~[^/]*/.exec(first.text)?.[0];
  if (prefix !== '~' || scope.home === undefined) return { ...expanded, complete: false };
  return { ...expanded, text: scope.home + expanded.text.slice(1) };
}

function literalOf(word: Word | undefined, scope: Scope, cwd: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const expanded = expand(word, scope, cwd);
  return expanded.complete ? expanded.text : undefined;
}

type Target = { kind: 'path'; path: string } | { kind: 'unresolved'; cause: 'expansion' | 'directory' };

/** The absolute path a word names, resolved against `cwd` (undefined: a folder not known). */
function resolveWord(word: Word, scope: Scope, cwd: string | undefined): Target | undefined {
  const { text, complete } = expand(word, scope, cwd);
  if (!complete) return { kind: 'unresolved', cause: 'expansion' };
  if (text === '' || text.includes('\0')) return undefined;
  if (path.isAbsolute(text)) return { kind: 'path', path: path.resolve(text) };
  if (cwd === undefined) return { kind: 'unresolved', cause: 'directory' };
  return { kind: 'path', path: path.resolve(cwd, text) };
}

/**
 * The known variables the line assigns (`PWD=x`, `export PWD=x`) or names as a word (`unset PWD`,
 * `read PWD`, `for PWD in`): from then on their value is not the one known here. Erring on the
 * side of "unknown" keeps such a word out of the pins and in the review.
 */
function reassignedIn(tokens: Token[], inherited: ReadonlySet<string>): Set<string> {
  const out = new Set(inherited);
  for (const token of tokens) {
    if (token.kind !== 'word') continue;
    const name = /^[A-Za-z_]\w*(?==|$)/.exec(rawOf(token.word))?.[0];
    if (name !== undefined && KNOWN_VARIABLES.has(name)) out.add(name);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Simple commands and the folder each runs in.

interface Step {
  words: Word[];
  /** The folder the simple command runs in; undefined after a `cd` to a folder not known here. */
  cwd: string | undefined;
}

const END: Token = { kind: 'op', op: '' };

/**
 * Splits the line into simple commands, following `cd`. A `cd` lasts for the rest of the line,
 * but not beyond the `( … )` subshell it is in, and not at all as a pipeline element or a
 * background job (those run in a subshell too). A `cd` is taken to succeed.
 */
function stepsOf(tokens: Token[], scope: Scope, start: string | undefined): Step[] {
  const steps: Step[] = [];
  const outer: Array<string | undefined> = [];
  let cwd = start;
  let words: Word[] = [];
  let before = '';
  for (const token of [...tokens, END]) {
    if (token.kind === 'word') {
      words.push(token.word);
      continue;
    }
    if (words.length > 0) {
      steps.push({ words, cwd });
      if (before !== '|' && token.op !== '|' && token.op !== '&') cwd = afterCd(words, scope, cwd);
    }
    words = [];
    before = token.op;
    if (token.op === '(') outer.push(cwd);
    else if (token.op === ')' && outer.length > 0) cwd = outer.pop();
  }
  return steps;
}

/** The folder after a simple command: `cwd`, unless it is a `cd`. */
function afterCd(words: Word[], scope: Scope, cwd: string | undefined): string | undefined {
  const roles = classify(words, scope, cwd);
  if (programName(roles, scope, cwd) !== 'cd') return cwd;
  return cdTarget(
    roles.filter((r) => r.role === 'cd').map((r) => r.word),
    scope,
    cwd,
  );
}

const CD_OPTIONS = new Set(['-L', '-P', '-e', '--']);

/** Where `cd OPERANDS` goes; undefined when not known (`cd` alone is `$HOME`, `cd -` the last folder). */
function cdTarget(operands: Word[], scope: Scope, cwd: string | undefined): string | undefined {
  let i = 0;
  while (i < operands.length && CD_OPTIONS.has(literalOf(operands[i], scope, cwd) ?? '')) i++;
  const dir = operands.length === i + 1 ? operands[i]! : undefined;
  if (dir === undefined || literalOf(dir, scope, cwd) === '-') return undefined;
  const target = resolveWord(dir, scope, cwd);
  return target?.kind === 'path' ? target.path : undefined;
}

// ---------------------------------------------------------------------------------------------
// What each word of a simple command is.

/**
 * `program`: the word run; `script`: the file an interpreter or `source`/`.` runs; `cd`: a `cd`
 * operand; `assignment`: the value of a leading `NAME=value`; `input`/`output`: a redirection
 * target; `command`: STRING of `sh -c STRING`, read as a command line of its own; `none`: no path
 * at all (a file descriptor, a here-document delimiter).
 */
type Role = 'program' | 'script' | 'argument' | 'cd' | 'assignment' | 'input' | 'output' | 'command' | 'none';

interface Classified {
  word: Word;
  role: Role;
}

/** Interpreters whose first operand is the script they run (`sh x.sh`, `node x.cjs`, `npx tsx x.ts`). */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'node',
  'python',
  'python3',
  'ruby',
  'perl',
  'deno',
  'bun',
  'tsx',
]);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);
/** Words that run the next word as the program. */
const WRAPPERS = new Set(['exec', 'npx', 'command', 'nohup']);
/** Reserved words that may open a simple command (`if ./check.sh; then …`). */
const RESERVED = new Set(['{', '!', 'if', 'then', 'else', 'elif', 'do', 'while', 'until']);

function classify(words: Word[], scope: Scope, cwd: string | undefined): Classified[] {
  const plain = words.filter((w) => w.redirect === undefined);
  const redirects = words.filter((w) => w.redirect !== undefined);
  return [...plainRoles(plain, scope, cwd), ...redirects.map((word) => ({ word, role: redirectRole(word) }))];
}

function plainRoles(words: Word[], scope: Scope, cwd: string | undefined): Classified[] {
  const name = (i: number) => literalOf(words[i], scope, cwd) ?? '';
  let p = 0;
  while (p < words.length && RESERVED.has(name(p))) p++;
  const assignmentsFrom = p;
  while (p < words.length && assignedValue(words[p]!) !== undefined) p++;
  const assignmentsTo = p;
  while (WRAPPERS.has(name(p))) p++;
  const program = path.posix.basename(name(p));
  const operand = words[p + 1];
  const scriptAt = operand !== undefined && takesScript(program, rawOf(operand)) ? p + 1 : -1;
  const commandAt = SHELLS.has(program) && name(p + 1) === '-c' ? p + 2 : -1;
  return words.map((word, i): Classified => {
    const value = i >= assignmentsFrom && i < assignmentsTo ? assignedValue(word) : undefined;
    if (value !== undefined) return { word: value, role: 'assignment' };
    if (i === p) return { word, role: 'program' };
    if (i > p && program === 'cd') return { word, role: 'cd' };
    if (i === commandAt) return { word, role: 'command' };
    return { word, role: i === scriptAt ? 'script' : 'argument' };
  });
}

/** Only `interpreter SCRIPT …`: with options first (`-c`, `-m mod`) the operand may be no file. */
function takesScript(program: string, operand: string): boolean {
  if (program === 'source' || program === '.') return true;
  return INTERPRETERS.has(program) && !operand.startsWith('-');
}

/** The value of `NAME=value` (name and `=` unquoted), as a word of its own; undefined if none. */
function assignedValue(word: Word): Word | undefined {
  const [first, ...rest] = word.parts;
  if (first?.kind !== 'text' || first.quoted) return undefined;
  const prefix = /^[A-Za-z_]\w*=/.exec(first.text)?.[0];
  if (prefix === undefined) return undefined;
  const value = first.text.slice(prefix.length);
  const head: Part[] = value === '' ? [] : [{ kind: 'text', text: value, quoted: false }];
  return { parts: [...head, ...rest] };
}

function redirectRole(word: Word): Role {
  const op = word.redirect;
  if (op === '<<' || op === '<<-') return 'none';
  if ((op === '<&' || op === '>&') && /^(\d+|-)$/.test(rawOf(word))) return 'none';
  return op === '<' || op === '<&' ? 'input' : 'output';
}

function programName(roles: Classified[], scope: Scope, cwd: string | undefined): string | undefined {
  const program = roles.find((r) => r.role === 'program');
  return program === undefined ? undefined : literalOf(program.word, scope, cwd);
}

// ---------------------------------------------------------------------------------------------
// References: every word with its role and what it names, nested commands included.

interface Ref {
  role: Role;
  /** As written, quotes removed. */
  raw: string;
  /** `raw` with each command substitution as `$(…)`: a `/` inside one is no `/` of this word. */
  shape: string;
  target: Target;
}

function refsOf(tokens: Token[], outer: Scope, cwd: string | undefined): Ref[] {
  const scope = { ...outer, reassigned: reassignedIn(tokens, outer.reassigned) };
  return stepsOf(tokens, scope, cwd).flatMap((step) => stepRefs(step, scope));
}

/**
 * A simple command's words, plus those of the commands it nests: command substitutions and
 * `sh -c 'STRING'` run in a subshell that starts in the same folder.
 */
function stepRefs(step: Step, scope: Scope): Ref[] {
  const refs: Ref[] = [];
  const roles = classify(step.words, scope, step.cwd);
  for (const { word, role } of roles) {
    const target = role === 'none' ? undefined : resolveWord(word, scope, step.cwd);
    if (target !== undefined) refs.push({ role, raw: rawOf(word), shape: shapeOf(word), target });
    for (const part of word.parts) {
      if (part.kind === 'opaque' && part.commands !== undefined)
        refs.push(...refsOf(part.commands, scope, step.cwd));
    }
  }
  const shell = roles.find((r) => r.role === 'command');
  const nested = shell === undefined ? undefined : literalOf(shell.word, scope, step.cwd);
  if (nested !== undefined) refs.push(...refsOf(lex(nested), scope, step.cwd));
  return refs;
}

function shapeOf(word: Word): string {
  return word.parts
    .map((p) =>
      p.kind === 'text' ? p.text : p.kind === 'opaque' && p.commands !== undefined ? '$(…)' : p.raw,
    )
    .join('');
}

/** Below the project folder (the folder itself is no file to pin). */
function isBelow(root: string, p: string): boolean {
  return p !== root && isInside(root, p);
}

function isOptionOrUrl(raw: string): boolean {
  return raw.startsWith('-') || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
}

// ---------------------------------------------------------------------------------------------
// The API.

/**
 * Splits a shell command line into words with quotes removed (POSIX-ish: '…', "…", \x), nothing
 * expanded. Operators (`;`, `&&`, `|`, redirections …) separate words and are not returned.
 */
export function commandWords(command: string): string[] {
  return lex(command).flatMap((t) => (t.kind === 'word' ? [rawOf(t.word)] : []));
}

/**
 * [L-TRUST-1, L-TRUST-5] Every word of the command that, with quotes removed, the known variables
 * expanded (`$CLAUDE_PROJECT_DIR`, `$PWD`, `${CLAUDE_PLUGIN_ROOT}` with `opts.pluginRoot`, `~` with
 * `opts.home`) and resolved against the folder it stands in (after `cd`), names a path inside the
 * project. Any word but an output redirection's target is a candidate — a missing file is pinned
 * as absent, which costs nothing and catches a file created later. Sorted, without duplicates.
 */
export function projectPathsOf(command: string, projectDir: string, opts: CommandPathOptions = {}): string[] {
  const scope = scopeFor(projectDir, opts);
  const out = new Set<string>();
  for (const ref of refsOf(lex(command), scope, scope.projectDir)) {
    // A file the command only writes (`>> hooks.log`) runs nothing: pinning it would void the
    // approval with the hook's first run.
    if (ref.role === 'output') continue;
    if (ref.target.kind === 'path' && isBelow(scope.projectDir, ref.target.path)) out.add(ref.target.path);
  }
  return [...out].sort();
}

/** A file a command names when it runs in a given folder, and whether running it could run code. */
export interface RunPath {
  path: string;
  /** `program` or `script`: a folder there runs code too (`node DIR` runs `DIR/index.js`). */
  runs: boolean;
}

/**
 * [L-TRUST-9] The paths the command names when it starts in `cwd` (`$PWD` and `$GEMINI_CWD` are
 * that folder; relative words resolve against it, and against each `cd`). `cd` operands and
 * output redirections are left out: a folder entered or a file written runs nothing by itself.
 * In order, without duplicates.
 */
export function runPathsOf(
  command: string,
  projectDir: string,
  cwd: string,
  opts: CommandPathOptions = {},
): RunPath[] {
  const scope = scopeFor(projectDir, { ...opts, cwd });
  const out = new Map<string, RunPath>();
  for (const ref of refsOf(lex(command), scope, scope.startCwd)) {
    if (ref.target.kind !== 'path' || ref.role === 'cd' || ref.role === 'output') continue;
    const runs = ref.role === 'program' || ref.role === 'script';
    const known = out.get(ref.target.path);
    if (known === undefined || (runs && !known.runs))
      out.set(ref.target.path, { path: ref.target.path, runs });
  }
  return [...out.values()];
}

/**
 * [L-TRUST-5] The script-like words of the command that consent does not pin, for the review:
 * words with a `/` or a `~`, the scripts of `source`, `.` and interpreters, and programs given by
 * a variable, that resolve outside the project or cannot be resolved. Sorted, without duplicates.
 */
export function outsidePathsOf(
  command: string,
  projectDir: string,
  opts: CommandPathOptions = {},
): UnpinnedPath[] {
  const scope = scopeFor(projectDir, opts);
  const found = new Map<string, UnpinnedPath>();
  for (const ref of refsOf(lex(command), scope, scope.projectDir)) {
    const unpinned = unpinnedOf(ref, scope.projectDir);
    if (unpinned !== undefined) found.set(JSON.stringify(unpinned), unpinned);
  }
  return [...found.keys()].sort().map((key) => found.get(key)!);
}

function unpinnedOf(ref: Ref, root: string): UnpinnedPath | undefined {
  if (!looksLikeScript(ref)) return undefined;
  if (ref.target.kind === 'unresolved') return { kind: 'unresolved', word: ref.raw, cause: ref.target.cause };
  if (ref.target.path === root || isBelow(root, ref.target.path)) return undefined;
  return { kind: 'outside', word: ref.raw, path: ref.target.path };
}

function looksLikeScript(ref: Ref): boolean {
  if (ref.role === 'script') return true;
  if (ref.role !== 'program' && ref.role !== 'argument') return false;
  // `$HOOK args`: the program is whatever the variable holds. A bare name is looked up in PATH.
  if (ref.role === 'program' && ref.target.kind === 'unresolved' && ref.target.cause === 'expansion')
    return true;
  return (ref.shape.includes('/') || ref.shape.startsWith('~')) && !isOptionOrUrl(ref.shape);
}

/** Roles whose missing file is a problem (an output redirection creates its file). */
const CHECKED_ROLES = new Set<Role>(['program', 'script', 'argument', 'cd', 'input']);

/**
 * Words that look like script paths (contain a `/`; not an option or a URL; their value known),
 * resolved as the shell would: `~/` against `home`, the known variables expanded, others against
 * `cwd` as changed by `cd`. In order, without duplicates.
 */
export function scriptPathsOf(
  command: string,
  cwd: string,
  home: string,
  opts: ScriptPathOptions = {},
): string[] {
  const scope = scopeFor(opts.projectDir ?? cwd, { ...opts, home, cwd });
  const out = new Set<string>();
  for (const ref of refsOf(lex(command), scope, path.resolve(cwd))) {
    if (!CHECKED_ROLES.has(ref.role) || ref.target.kind !== 'path') continue;
    if (ref.raw.includes('/') && !isOptionOrUrl(ref.raw)) out.add(ref.target.path);
  }
  return [...out];
}

/**
 * The script a command line runs, if it names one: in its first simple command that is neither
 * a `cd` nor assignments only, the program when it is a path, or the first operand of a known
 * interpreter (or of `source`/`.`), resolved as `scriptPathsOf` does. Used to fail a hook whose
 * script is missing *before* running it: `sh missing.sh` exits 2 under dash, which would
 * otherwise read as a deny.
 */
export function primaryScriptOf(
  command: string,
  cwd: string,
  home: string,
  opts: ScriptPathOptions = {},
): string | undefined {
  const scope = scopeFor(opts.projectDir ?? cwd, { ...opts, home, cwd });
  const tokens = lex(command);
  const inner = { ...scope, reassigned: reassignedIn(tokens, scope.reassigned) };
  for (const step of stepsOf(tokens, inner, path.resolve(cwd))) {
    const roles = classify(step.words, inner, step.cwd);
    const program = roles.find((r) => r.role === 'program');
    if (program === undefined || literalOf(program.word, inner, step.cwd) === 'cd') continue;
    return scriptOfStep(roles, program.word, inner, step.cwd);
  }
  return undefined;
}

function scriptOfStep(
  roles: Classified[],
  program: Word,
  scope: Scope,
  cwd: string | undefined,
): string | undefined {
  const name = literalOf(program, scope, cwd);
  if (name === undefined) return undefined;
  const script = roles.find((r) => r.role === 'script')?.word;
  const base = path.posix.basename(name);
  const interpreted = INTERPRETERS.has(base) || base === 'source' || base === '.';
  // A program without a `/` is looked up in PATH: no script of the project.
  const word = interpreted ? script : name.includes('/') ? program : undefined;
  if (word === undefined || rawOf(word).startsWith('-')) return undefined;
  const target = resolveWord(word, scope, cwd);
  return target?.kind === 'path' ? target.path : undefined;
}
