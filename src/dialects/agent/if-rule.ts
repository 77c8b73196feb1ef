/**
 * [C-RUN-1] A Claude Code handler's `if` field: one permission rule, `Tool` or `Tool(pattern)`,
 * that decides before anything is spawned whether the handler runs for this tool call.
 *
 * - `Tool` (or `Tool(*)`): the tool name only.
 * - `Tool(pattern)`: the tool matches and the glob matches `tool_input.command` or
 *   `tool_input.file_path` (a tool other than Bash that has a path: the path). `*` is any text
 *   (including `/` and spaces); `\*` a literal star; everything else is literal. As in Claude
 *   Code's permission rules, a trailing ` *` also matches the bare command (`git *` matches
 *   `git`), and the old `prefix:*` form means `prefix` or `prefix …`.
 * - Bash: the pattern is tested against each subcommand — the command split on `&&`, `||`, `;`,
 *   `|`, `&` and newlines, plus every command inside `$(…)`, backticks, `<(…)`, `>(…)` and
 *   `(…)` subshells, quotes respected, leading `VAR=x` assignments removed; the rule admits when
 *   ANY subcommand matches. A command it cannot parse (an unclosed quote or `$(`) admits.
 * - A rule it cannot read admits (the handler runs).
 *
 * Where SPEC is silent, the choices lean towards running the handler (a guard that runs once too
 * often is cheaper than one that silently does not run): besides each subcommand as written, the
 * subcommand without leading shell keywords (`if`, `then`, `do`, `!`, `{`, …), without the wrappers
 * `timeout`, `nice`, `nohup`, `time`, `env` (Claude Code strips the first three too), and without
 * redirections (`> out`, `2>&1`) is tried; the lines of a here-document body and the text of a
 * `$((…))` are read as commands too (`bash <<EOF`, bash's `$((cmd) …)`); `Edit(…)` rules also cover `Write`, `MultiEdit` and
 * `NotebookEdit`, `Read(…)` rules `Grep` and `Glob` (Claude Code's rule families); `mcp__server`
 * covers that server's tools; a file pattern that is not absolute (`src/*.ts`, `./x`, `/src/x`,
 * `~/x`) also matches the end of the path after any `/` (no project or home folder is known
 * here); `//abs/path` is absolute. A tool call with neither `command` nor a path to test admits.
 * With no tool at all (an event that is not a tool event) a readable rule does not admit: Claude
 * Code never runs a handler with `if` outside tool events.
 *
 * All matching is linear in the text: globs are split on `*` into literal pieces found left to
 * right with `indexOf` (no regular expression is built from user text), and the command is read by
 * the shell lexer (src/core/shell-lexer.ts), one pass with bounded nesting.
 */
import {
  type Lexed,
  lexShell,
  type Part,
  type Redirection,
  type Token,
  type Word,
} from '../../core/shell-lexer.ts';
import type { ToolCallRule } from '../../registry/hook-definition.ts';

/** A compiled `*` glob: literal pieces; between two pieces any text. */
interface Glob {
  readonly pieces: readonly string[];
}

type IfRule =
  | { readonly kind: 'unreadable'; readonly rule: string; readonly problem: string }
  | { readonly kind: 'tool'; readonly rule: string; readonly tool: string }
  | {
      readonly kind: 'pattern';
      readonly rule: string;
      readonly tool: string;
      /** The text between the parentheses. */
      readonly pattern: string;
      /** Candidates: the text matches when any of these globs matches it whole. */
      readonly globs: readonly Glob[];
    };

// ---------------------------------------------------------------------------------------------
// Globs

/** `*` = any text, `\*` = a literal star, `\\` = a literal backslash; all else literal. */
export function compileGlob(pattern: string): Glob {
  const pieces: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && (pattern[i + 1] === '*' || pattern[i + 1] === '\\')) {
      current += pattern[i + 1];
      i++;
    } else if (c === '*') {
      pieces.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  pieces.push(current);
  return { pieces };
}

/**
 * Whole-text match of a `*` glob, in linear time: the first piece is a prefix, the last a
 * suffix, the ones between are found leftmost, in order (leftmost is always right for `*`).
 */
export function globMatches(glob: Glob, text: string): boolean {
  const { pieces } = glob;
  const first = pieces[0]!;
  if (pieces.length === 1) return text === first;
  const last = pieces[pieces.length - 1]!;
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  let pos = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const at = text.indexOf(piece, pos);
    if (at < 0 || at + piece.length > end) return false;
    pos = at + piece.length;
  }
  return true;
}

/** Whether `pattern` ends with a `*` that is not escaped. */
function endsWithWildcard(pattern: string): boolean {
  if (!pattern.endsWith('*')) return false;
  let backslashes = 0;
  for (let i = pattern.length - 2; i >= 0 && pattern[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}

/** The globs a rule's pattern stands for (see the file comment). */
function patternGlobs(pattern: string): Glob[] {
  // The old prefix form `npm:*`: `npm` alone or followed by a space.
  if (pattern.endsWith(':*') && endsWithWildcard(pattern) && pattern.length > 2) {
    const prefix = pattern.slice(0, -2);
    return [compileGlob(prefix), compileGlob(`${prefix} *`)];
  }
  const globs = [compileGlob(pattern)];
  // `git *` also matches `git`.
  if (pattern.endsWith(' *') && endsWithWildcard(pattern)) globs.push(compileGlob(pattern.slice(0, -2)));
  return globs;
}

// ---------------------------------------------------------------------------------------------
// Rules

/** Compiles an `if` rule once (at load time); `unreadable` rules admit every call. */
export function compileIfRule(rule: string): IfRule {
  const text = rule.trim();
  if (text === '') return { kind: 'unreadable', rule, problem: 'empty rule' };
  const open = text.indexOf('(');
  if (open < 0) {
    if (!isToolName(text))
      return { kind: 'unreadable', rule, problem: `not a tool name: ${JSON.stringify(text)}` };
    return { kind: 'tool', rule, tool: text };
  }
  const tool = text.slice(0, open).trim();
  if (!isToolName(tool))
    return { kind: 'unreadable', rule, problem: `not a tool name: ${JSON.stringify(tool)}` };
  if (!text.endsWith(')'))
    return { kind: 'unreadable', rule, problem: 'expected Tool(pattern), with ")" last' };
  const pattern = text.slice(open + 1, -1);
  if (pattern.trim() === '') return { kind: 'unreadable', rule, problem: 'empty pattern in Tool()' };
  if (pattern === '*') return { kind: 'tool', rule, tool };
  return { kind: 'pattern', rule, tool, pattern, globs: patternGlobs(pattern) };
}

function isToolName(name: string): boolean {
  if (name === '') return false;
  for (const c of name) {
    if (c === '(' || c === ')' || c.trim() === '') return false;
  }
  return true;
}

/** Claude Code's rule families: an `Edit` rule covers every tool that edits files, `Read` those that read. */
const RULE_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  Edit: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'],
  Read: ['Read', 'Grep', 'Glob'],
};

function toolMatches(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  if (Object.hasOwn(RULE_FAMILIES, ruleTool) && RULE_FAMILIES[ruleTool]!.includes(toolName)) return true;
  // `mcp__server` covers every tool of that server.
  if (
    ruleTool.startsWith('mcp__') &&
    !ruleTool.slice(5).includes('__') &&
    toolName.startsWith(`${ruleTool}__`)
  )
    return true;
  if (ruleTool.includes('*')) return globMatches(compileGlob(ruleTool), toolName);
  return false;
}

function stringField(input: unknown, key: string): string | undefined {
  if (typeof input !== 'object' || input === null || !Object.hasOwn(input, key)) return undefined;
  const value: unknown = Reflect.get(input, key);
  return typeof value === 'string' ? value : undefined;
}

function anyGlob(globs: readonly Glob[], text: string): boolean {
  return globs.some((g) => globMatches(g, text));
}

/** Why an `if` rule cannot be read (it would then admit every call), or undefined [G-FAIL-1]. */
export function ifRuleProblem(text: string): string | undefined {
  const rule = compileIfRule(text);
  return rule.kind === 'unreadable' ? rule.problem : undefined;
}

/** [C-RUN-1] A handler's `if` rule as the hook model holds it: compiled once, asked per call. */
export function toolCallRuleOf(text: string): ToolCallRule {
  const rule = compileIfRule(text);
  return { rule: rule.rule, admits: (toolName, toolInput) => ifRuleAdmits(rule, toolName, toolInput) };
}

/**
 * [C-RUN-1] Whether the handler runs for this call. `toolName` / `toolInput` are the input's
 * `tool_name` / `tool_input`.
 */
export function ifRuleAdmits(rule: IfRule, toolName: string | undefined, toolInput: unknown): boolean {
  if (rule.kind === 'unreadable') return true;
  if (toolName === undefined || !toolMatches(rule.tool, toolName)) return false;
  if (rule.kind === 'tool') return true;
  const command = stringField(toolInput, 'command');
  const path =
    stringField(toolInput, 'file_path') ??
    stringField(toolInput, 'notebook_path') ??
    stringField(toolInput, 'path');
  // A file tool is matched on its path, even when its input also carries a `command` (a Codex
  // patch's call keeps the patch text there [R-MAP-1]).
  if (path !== undefined && toolName !== 'Bash') return pathMatches(rule, path);
  if (command !== undefined) {
    if (toolName !== 'Bash') return anyGlob(rule.globs, command.trim());
    const subcommands = simpleCommands(command);
    if (subcommands === undefined) return true; // cannot parse: admit
    if (subcommands.length === 0) return anyGlob(rule.globs, command.trim());
    return subcommands.some((sub) => subcommandCandidates(sub).some((c) => anyGlob(rule.globs, c)));
  }
  if (path !== undefined) return pathMatches(rule, path);
  return true; // nothing this rule can test: admit
}

/** File patterns: `//abs` absolute; anything else also matches the path's end after a `/`. */
function pathMatches(rule: Extract<IfRule, { kind: 'pattern' }>, path: string): boolean {
  const pattern = rule.pattern;
  if (pattern.startsWith('//')) return anyGlob(patternGlobs(pattern.slice(1)), path);
  let relative = pattern;
  if (relative.startsWith('./') || relative.startsWith('~/')) relative = relative.slice(2);
  else if (relative.startsWith('/')) relative = relative.slice(1);
  if (anyGlob(rule.globs, path)) return true;
  return anyGlob(patternGlobs(relative), path) || anyGlob(patternGlobs(`*/${relative}`), path);
}

// ---------------------------------------------------------------------------------------------
// Bash subcommands

/** A simple command: its words and redirections, in the command line `source`. */
interface SimpleCommand {
  readonly source: string;
  readonly tokens: readonly (Word | Redirection)[];
}

function textOf(command: SimpleCommand, from = 0): string {
  return command.source.slice(command.tokens[from]!.start, command.tokens.at(-1)!.end);
}

/**
 * The simple commands of a Bash command line, as written, in order: the top-level ones and those
 * inside `$(…)`, backticks, `<(…)`, `>(…)`, `(…)` and here-document bodies, each after those it
 * contains. `undefined` when it cannot be parsed (unclosed quote, `$(`, `${`, backtick or
 * parenthesis, or nesting deeper than 32).
 */
export function bashSubcommands(command: string): string[] | undefined {
  return simpleCommands(command)?.map((c) => textOf(c));
}

function simpleCommands(command: string): SimpleCommand[] | undefined {
  const out: SimpleCommand[] = [];
  return readLexed(command, lexShell(command), 0, out) ? out : undefined;
}

/** Pushes the simple commands of `lexed` onto `out`; false when it is unbalanced. */
function readLexed(source: string, lexed: Lexed, depth: number, out: SimpleCommand[]): boolean {
  return !lexed.unbalanced && readTokens(source, lexed.tokens, depth, out);
}

function readTokens(source: string, tokens: readonly Token[], depth: number, out: SimpleCommand[]): boolean {
  let current: (Word | Redirection)[] = [];
  const flush = () => {
    if (current.length > 0) out.push({ source, tokens: current });
    current = [];
  };
  for (const token of tokens) {
    if (token.kind === 'word' || token.kind === 'redirection') {
      current.push(token);
      const word = token.kind === 'word' ? token : token.target;
      if (word !== undefined && !readParts(source, word.parts, depth, out)) return false;
      continue;
    }
    // Every operator (`&&`, `||`, `;`, `|`, `&`, newline, `(`, `)`) ends a command; so does a comment.
    flush();
    // A here-document body may be a script (`bash <<EOF`): its lines are read as commands too.
    if (token.kind === 'heredoc') {
      const body = lexShell(source, { ...token.body, depth: depth + 1 });
      if (!readLexed(source, body, depth + 1, out)) return false;
    }
  }
  flush();
  return true;
}

/** Pushes the commands inside a word's substitutions. */
function readParts(source: string, parts: readonly Part[], depth: number, out: SimpleCommand[]): boolean {
  return parts.every((part) => {
    if (part.kind === 'command') return readTokens(source, part.tokens, depth + 1, out);
    if (part.kind === 'parameter') return readParts(source, part.parts, depth + 1, out);
    if (part.kind !== 'arithmetic') return true;
    // bash runs `$((a) b)` as a command substitution: any `$((…))` is read as `$( (…) )` too.
    const inner = lexShell(source, { start: part.start + 2, end: part.end - 1, depth: depth + 1 });
    return readLexed(source, inner, depth + 1, out);
  });
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const KEYWORDS = new Set(['!', '{', 'if', 'then', 'else', 'elif', 'do', 'while', 'until']);

/** Skips a wrapper and its options (`timeout -k 5 10 cmd`, `nice -n 5 cmd`); the index after it, or -1. */
function skipWrapper(ws: readonly string[], k: number): number {
  const name = ws[k];
  let j = k + 1;
  const isOption = () => ws[j] !== undefined && ws[j]!.startsWith('-');
  switch (name) {
    case 'nohup':
      return j;
    case 'time':
      while (isOption()) j++;
      return j;
    case 'nice':
      while (isOption()) j += ws[j] === '-n' ? 2 : 1;
      return j;
    case 'timeout':
      while (isOption()) j += ws[j] === '-s' || ws[j] === '-k' ? 2 : 1;
      return j + 1; // the duration
    case 'env':
      while (isOption() || (ws[j] !== undefined && ASSIGNMENT.test(ws[j]!))) j += ws[j] === '-u' ? 2 : 1;
      return j;
    default:
      return -1;
  }
}

/**
 * The texts one subcommand is tested as: without its leading `VAR=x` assignments (and shell
 * keywords); then also without wrappers, and without redirections (`> out`, `2>&1`).
 */
function subcommandCandidates(command: SimpleCommand): string[] {
  const { source, tokens } = command;
  const ws = tokens.map((t) => source.slice(t.start, t.end));
  let k = 0;
  while (k < ws.length && (ASSIGNMENT.test(ws[k]!) || KEYWORDS.has(ws[k]!))) k++;
  if (k >= ws.length) return [];
  const candidates = [textOf(command, k)];
  for (let w = skipWrapper(ws, k); w >= 0 && w < ws.length; w = skipWrapper(ws, w)) {
    candidates.push(textOf(command, w));
  }
  const kept = ws.filter((_, i) => i >= k && tokens[i]!.kind === 'word');
  if (kept.length > 0 && kept.length < ws.length - k) candidates.push(kept.join(' '));
  return candidates;
}
