/**
 * [G-RUN-2] Gemini CLI's variables in a hook's command string, without pasting their values where
 * a shell parses them.
 *
 * Gemini CLI replaces `$GEMINI_PROJECT_DIR` (and the other names below) in the command text with
 * the value quoted by shell-quote before `bash -c` runs it. That quoting is right only outside any
 * quotes: inside the double quotes most commands use (`"$GEMINI_PROJECT_DIR/hook.sh"`), a `$(…)`,
 * a backtick or a `"` in the input's `cwd`, its `session_id` or the folder's name runs as code.
 *
 * Here no value is written into the command. Every hook's environment already holds these
 * variables, so the shell expands them itself, and a value that comes out of an expansion is never
 * parsed again. Only the *reference* may be rewritten, by where it stands:
 * - bare (`$NAME`, `${NAME}`): becomes `${NAME:+"$NAME"}`, one word holding the exact value (no
 *   splitting, no globbing) or no word when it is empty, as Gemini CLI's quoting gives;
 * - in double quotes, an unquoted here-document, `${…}` or `$((…))`: left to the shell as written;
 * - escaped (`\$NAME`): left alone, a literal `$NAME` as the shell makes it;
 * - in single quotes (`'$NAME'`, or a quoted here-document's body): the shell expands nothing
 *   there, but Gemini CLI's text replacement does. The value is written in only when it is made of
 *   characters no shell or interpreter reads as syntax (letters, digits, `_ . / + % -`), the only
 *   values for which Gemini CLI's own replacement gives the value there; otherwise the text stays
 *   `$NAME`, which a nested shell (`sh -c '… $NAME …'`) expands from the environment. Writing any
 *   other value in would hand it, as code, to that nested shell. `'${NAME}'` stays as written, as
 *   in Gemini CLI.
 *
 * The edits come from the shell lexer's reading (src/core/shell-lexer.ts), which only has to be
 * right for the rewrite to be exact: whatever it gets wrong, no value that is not plain is ever
 * written into the text, so no value is ever parsed as code.
 */
import { lexShell, type Part, type Span, type Token } from '../../core/shell-lexer.ts';

/** The names Gemini CLI 0.61 replaces in a command (`hooks/hookRunner.js`, `expandCommand`). */
const GEMINI_COMMAND_VARIABLES: readonly string[] = [
  'GEMINI_PROJECT_DIR',
  'GEMINI_CWD',
  'GEMINI_SESSION_ID',
  'GEMINI_PLANS_DIR',
  'CLAUDE_PROJECT_DIR',
];

const NAMES: ReadonlySet<string> = new Set(GEMINI_COMMAND_VARIABLES);

/**
 * A value that is syntax for no shell and no interpreter, whatever surrounds it: shell-quote
 * leaves these characters as they are, so they are also exactly what Gemini CLI puts inside
 * single quotes. (No `=`: `'$NAME cmd'` handed to a nested shell would become an assignment.)
 */
const PLAIN = /^[\p{L}\p{M}\p{N}_./+%-]*$/u;

/**
 * The command with each reference to a Gemini variable rewritten for where it stands (see the
 * file comment); `env` is the hook's environment (its values decide the single-quoted case).
 */
export function geminiCommand(command: string, env: Readonly<Record<string, string>>): string {
  const rewrite = new Rewrite(command, env);
  rewrite.tokens(lexShell(command).tokens);
  return rewrite.text();
}

/** The edits to the command, in order; everything between them is copied as written. */
class Rewrite {
  readonly #source: string;
  readonly #env: Readonly<Record<string, string>>;
  readonly #edits: { span: Span; text: string }[] = [];

  constructor(source: string, env: Readonly<Record<string, string>>) {
    this.#source = source;
    this.#env = env;
  }

  /** A command list: its words stand where a bare reference is rewritten. */
  tokens(tokens: readonly Token[]): void {
    for (const token of tokens) {
      if (token.kind === 'word') this.#parts(token.parts, true);
      // A here-document's delimiter is a literal word.
      else if (token.kind === 'redirection' && token.op !== '<<' && token.op !== '<<-')
        this.#parts(token.target?.parts ?? [], true);
      // An unquoted body is expanded by the shell without splitting: left as written. A quoted one
      // is literal, like single quotes.
      else if (token.kind === 'heredoc' && token.quoted) this.#literal(token.body);
    }
  }

  /** `inCommand`: the parts of a word of a command, not those inside `${…}` or `$((…))`. */
  #parts(parts: readonly Part[], inCommand: boolean): void {
    for (const part of parts) {
      if (part.kind === 'variable' && inCommand && part.quoting === 'unquoted' && NAMES.has(part.name))
        this.#edits.push({ span: part, text: wordOf(part.name) });
      else if (part.kind === 'text' && (part.quoting === 'single' || part.quoting === 'ansi')) {
        // `'…'` or `$'…'`: the text between the quotes.
        const start = part.start + (part.quoting === 'ansi' ? 2 : 1);
        this.#literal({ start, end: start + part.text.length });
      } else if (part.kind === 'command') this.tokens(part.tokens);
      else if (part.kind === 'parameter' || part.kind === 'arithmetic') this.#parts(part.parts, false);
    }
  }

  /** Text no shell expands here: `$NAME` gets a plain value, any other value leaves it as it is. */
  #literal(span: Span): void {
    const text = this.#source.slice(span.start, span.end);
    const replaced = text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
      if (!NAMES.has(name)) return whole;
      const value = this.#env[name] ?? '';
      return PLAIN.test(value) ? value : whole;
    });
    if (replaced !== text) this.#edits.push({ span, text: replaced });
  }

  text(): string {
    let out = '';
    let at = 0;
    for (const { span, text } of this.#edits) {
      if (span.start < at) continue; // never two edits of one place
      out += this.#source.slice(at, span.start) + text;
      at = span.end;
    }
    return out + this.#source.slice(at);
  }
}

/** The bare reference: the exact value as one word, or nothing when it is unset or empty. */
function wordOf(name: string): string {
  return `\${${name}:+"$${name}"}`;
}
