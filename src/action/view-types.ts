/**
 * [G-ACT-1] The action view as data: one agent-independent reading of a tool call, computed once
 * per call and shared by permission rules, guards and CEL conditions (docs/action-view.md). Plain
 * JSON values only — no functions, no classes — so that it can be handed to CEL, written into a
 * test, and compared. Fields are only ever added.
 */
import type { CommandFlag } from './command-options.ts';
import type { Access } from './file-access-table.ts';
import type { McpName } from './mcp-tool-name.ts';

export type { Access, CommandFlag, McpName };

/** One redirection of a simple command, with its target and what it does to it. */
export interface Redirect {
  /** The operator as written, file descriptor included: `>`, `2>>`, `&>`, `<`, `<>`. */
  readonly op: string;
  /** The target's value (quotes removed, known expansions expanded). */
  readonly target: string;
  readonly mode: 'read' | 'write' | 'append';
  /** The target holds an expansion not known here: it names no path. */
  readonly dynamic: boolean;
}

/** One stage of one pipeline a command stands in: `curl x | sh` → curl `{id, stage: 0}`, sh `{id, stage: 1}`. */
export interface PipeStage {
  /** The pipeline, numbered in the order met (unique within one view). */
  readonly id: number;
  /** 0 for the first element, 1 for the one reading its output, … */
  readonly stage: number;
}

/**
 * How a command was found inside another one: a launcher, shell or `eval` runs it (`launch`); or
 * the output of the substitution it stands in (`$(…)`, backticks, `<(…)`, `>(…)`) becomes a word
 * of the holder (`word`), its standard input (`stdin`: a `<` target, a here-string, an unquoted
 * here-document) or another redirect's target (`redirect`).
 */
export interface CommandParent {
  /** Index in `commands` of the launcher or holder. */
  readonly command: number;
  readonly by: 'launch' | 'word' | 'stdin' | 'redirect';
  /** The holder's word or target as in its `argv`, flag values or `redirects` (`word`, `stdin`, `redirect`). */
  readonly text?: string;
}

/** One simple command the command line would run. */
export interface SimpleCommand {
  /** The basename of the program word after quote removal (`/bin/rm`, `\rm`, `'r'm` → `rm`); as written when `dynamic`. */
  readonly name: string;
  /** The words from the program on, values as for `Redirect.target`. */
  readonly argv: readonly string[];
  /** Every name of every option given, without dashes: `rm -rf` → `r`, `R`, `recursive`, `f`, `force`. */
  readonly options: readonly string[];
  /** Each option as given, with every name it has and the value it took. */
  readonly flags: readonly CommandFlag[];
  /** The words that are not options nor their values, in order (a subcommand first: `git push` → `push`, …). */
  readonly positionals: readonly string[];
  readonly redirects: readonly Redirect[];
  /** The program word holds an expansion not known here (`$CMD`, `$(which rm)`): the name cannot be read. */
  readonly dynamic: boolean;
  /** Indices in `argv` of the words that hold such an expansion. */
  readonly dynamicArgs: readonly number[];
  /** The command as written in the text it was read from. */
  readonly raw: string;
  /** The folder it runs in (`cd DIR &&` and `git -C DIR` followed where DIR is literal). */
  readonly cwd: string;
  /** The launchers it was found through, outermost first: `sudo`, `bash -c`, `$(…)`, `find -exec`, `xargs`. */
  readonly via: readonly string[];
  /**
   * The pipelines (of two stages or more) it stands in, outermost first. A command inside a
   * `( … )`, `{ …; }`, `if`/`while`/`for` body, substitution or launcher stands in its holder's
   * stages too: what runs in stage 2 reads what every command of stages 0 and 1 wrote.
   */
  readonly pipes: readonly PipeStage[];
  /** The command it was found inside; none at the top level of the line. */
  readonly parent?: CommandParent;
  /**
   * The text a here-document or here-string gives its standard input (`python3 - <<'EOF' … EOF`:
   * the program), as written (a here-string's word as for `argv`); also a launched command's
   * (`sudo python3 <<EOF`).
   */
  readonly stdin?: string;
}

/** One file the call names. */
export interface ViewPath {
  /** Absolute: `~` expanded, relative to the call's `cwd` (or the command's), `..` folded. */
  readonly path: string;
  /** `path` with every symlink of its existing prefix resolved. */
  readonly real: string;
  /**
   * [G-LIB-3] The directory entry `path` names: its folder's real path joined with its last name,
   * which is what a delete or rename of it removes — a symlink named without a trailing `/` is the
   * link, not its target. `real` when it ends with `/`, `.` or `..` (then the target is meant).
   */
  readonly entry: string;
  /** `real` is the project's real path or inside it. */
  readonly inProject: boolean;
  readonly access: Access;
  /** As written (a trailing `/` kept). */
  readonly written: string;
  /** A file tool's field, a redirection, or a command's argument or option value. */
  readonly from: 'tool' | 'redirect' | 'argument';
  /** The command (index in `commands`) that names it. */
  readonly command?: number;
  /** It holds glob characters (`*`, `?`, `[`): it stands for the files it matches. */
  readonly glob: boolean;
}

export interface ActionView {
  readonly commands: readonly SimpleCommand[];
  /** The command line could not be read whole: unbalanced, nested too deep, or over a bound. */
  readonly unreadable: boolean;
  /** Why, when `unreadable`. */
  readonly unreadableReason?: string;
  readonly paths: readonly ViewPath[];
  /** Lower-cased host names, each once. */
  readonly hosts: readonly string[];
  /** `mcp__SERVER__TOOL` read back; null for any other tool. */
  readonly mcp: McpName | null;
}
