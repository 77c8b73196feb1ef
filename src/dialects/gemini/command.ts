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
 * - in double quotes, a heredoc, `${…}` or `$((…))`: left to the shell as written;
 * - escaped (`\$NAME`): left alone, a literal `$NAME` as the shell makes it;
 * - in single quotes (`'$NAME'`): the shell expands nothing there, but Gemini CLI's text
 *   replacement does. The value is written in only when it is made of characters no shell or
 *   interpreter reads as syntax (letters, digits, `_ . / + % -`), the only values for which Gemini
 *   CLI's own replacement gives the value there; otherwise the text stays `$NAME`, which a nested
 *   shell (`sh -c '… $NAME …'`) expands from the environment. Writing any other value in would hand
 *   it, as code, to that nested shell. `'${NAME}'` stays as written, as in Gemini CLI.
 *
 * The scanner only has to be right for the rewrite to be exact: whatever it gets wrong, it never
 * writes a value that is not plain into the text, so no value is ever parsed as code.
 */

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

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;

type FrameKind = 'command' | 'double' | 'param' | 'arith' | 'backtick';

interface Frame {
  kind: FrameKind;
  /** `command` and `arith` frames opened by `$(` / `$((`: parentheses still open. */
  parens?: number;
}

interface Heredoc {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

/** Word boundaries for `#` (a comment starts only at the start of a word). */
const BEFORE_WORD = new Set([undefined, ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/**
 * The command with each reference to a Gemini variable rewritten for where it stands (see the
 * file comment); `env` is the hook's environment (its values decide the single-quoted case).
 */
export function geminiCommand(command: string, env: Readonly<Record<string, string>>): string {
  return new CommandRewriter(command, env).run();
}

class CommandRewriter {
  readonly #text: string;
  readonly #env: Readonly<Record<string, string>>;
  readonly #out: string[] = [];
  readonly #stack: Frame[] = [{ kind: 'command' }];
  readonly #heredocs: Heredoc[] = [];
  #i = 0;

  constructor(text: string, env: Readonly<Record<string, string>>) {
    this.#text = text;
    this.#env = env;
  }

  run(): string {
    const text = this.#text;
    while (this.#i < text.length) {
      const frame = this.#stack[this.#stack.length - 1] ?? { kind: 'command' };
      if (frame.kind === 'double') this.#inDouble();
      else this.#inCode(frame);
    }
    return this.#out.join('');
  }

  #copy(n: number): void {
    this.#out.push(this.#text.slice(this.#i, this.#i + n));
    this.#i += n;
  }

  #inDouble(): void {
    const c = this.#text[this.#i];
    if (c === '\\') this.#copy(2);
    else if (c === '"') {
      this.#stack.pop();
      this.#copy(1);
    } else if (c === '`') {
      this.#stack.push({ kind: 'backtick' });
      this.#copy(1);
    } else if (c === '$') this.#dollar(false);
    else this.#copy(1);
  }

  /** Unquoted text: a command (top level, `$(…)`, backticks), `${…}` or `$((…))`. */
  #inCode(frame: Frame): void {
    const text = this.#text;
    const c = text[this.#i];
    const isCommand = frame.kind === 'command' || frame.kind === 'backtick';
    if (c === '\\') this.#copy(2);
    else if (c === "'") this.#singleQuoted(1, false);
    else if (c === '$') this.#dollar(isCommand);
    else if (c === '#' && isCommand && BEFORE_WORD.has(text[this.#i - 1])) this.#comment();
    else if (c === '<' && isCommand && text.startsWith('<<', this.#i) && !text.startsWith('<<<', this.#i))
      this.#heredocOperator();
    else {
      this.#copy(1);
      if (c === '"') this.#stack.push({ kind: 'double' });
      else if (c === '`') {
        if (frame.kind === 'backtick') this.#stack.pop();
        else this.#stack.push({ kind: 'backtick' });
      } else if (c === '}' && frame.kind === 'param') this.#stack.pop();
      else if (c === '(' && frame.parens !== undefined) frame.parens++;
      else if (c === ')' && frame.parens !== undefined && --frame.parens === 0) this.#stack.pop();
      else if (c === '\n' && isCommand && this.#heredocs.length > 0) this.#heredocBodies();
    }
  }

  /** `$…` at the cursor; `bare`: unquoted in a command, where a reference is rewritten. */
  #dollar(bare: boolean): void {
    const text = this.#text;
    const next = text[this.#i + 1];
    if (next === "'" && bare) {
      this.#singleQuoted(2, true);
    } else if (next === '(' && text[this.#i + 2] === '(') {
      this.#stack.push({ kind: 'arith', parens: 2 });
      this.#copy(3);
    } else if (next === '(') {
      this.#stack.push({ kind: 'command', parens: 1 });
      this.#copy(2);
    } else if (next === '{') {
      const name = this.#identifierAt(this.#i + 2);
      const end = this.#i + 2 + name.length;
      if (NAMES.has(name) && text[end] === '}') {
        this.#out.push(bare ? wordOf(name) : text.slice(this.#i, end + 1));
        this.#i = end + 1;
      } else {
        this.#stack.push({ kind: 'param' });
        this.#copy(2);
      }
    } else {
      const name = this.#identifierAt(this.#i + 1);
      if (bare && NAMES.has(name)) {
        this.#out.push(wordOf(name));
        this.#i += 1 + name.length;
      } else this.#copy(1 + name.length);
    }
  }

  /** The shell variable name starting at `at` (the longest, as the shell reads it), or `''`. */
  #identifierAt(at: number): string {
    IDENTIFIER.lastIndex = at;
    return IDENTIFIER.exec(this.#text)?.[0] ?? '';
  }

  /**
   * `'…'` (or bash's `$'…'`, where a backslash escapes the quote) starting at the cursor, `open`
   * characters long. Copied with the single-quote rule of the file comment.
   */
  #singleQuoted(open: number, escapes: boolean): void {
    const text = this.#text;
    let end = this.#i + open;
    while (end < text.length && text[end] !== "'") end += escapes && text[end] === '\\' ? 2 : 1;
    end = Math.min(end, text.length);
    this.#out.push(text.slice(this.#i, this.#i + open), this.#literal(text.slice(this.#i + open, end)));
    this.#i = end;
    if (this.#i < text.length) this.#copy(1);
  }

  /** Text no shell expands here: `$NAME` gets a plain value, any other value leaves it as it is. */
  #literal(text: string): string {
    return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
      if (!NAMES.has(name)) return whole;
      const value = this.#env[name] ?? '';
      return PLAIN.test(value) ? value : whole;
    });
  }

  #comment(): void {
    const end = this.#text.indexOf('\n', this.#i);
    this.#copy((end < 0 ? this.#text.length : end) - this.#i);
  }

  /** `<<WORD` / `<<-WORD`: the body follows the next newline; a quoted WORD means no expansion. */
  #heredocOperator(): void {
    const text = this.#text;
    let j = this.#i + 2;
    const stripTabs = text[j] === '-';
    if (stripTabs) j++;
    while (text[j] === ' ' || text[j] === '\t') j++;
    let word = '';
    let quoted = false;
    while (j < text.length && !/[\s;&|<>()]/.test(text[j] ?? '')) {
      const c = text[j] ?? '';
      if (c === "'" || c === '"') {
        quoted = true;
        const close = text.indexOf(c, j + 1);
        const stop = close < 0 ? text.length : close;
        word += text.slice(j + 1, stop);
        j = stop + 1;
      } else if (c === '\\') {
        quoted = true;
        word += text[j + 1] ?? '';
        j += 2;
      } else {
        word += c;
        j++;
      }
    }
    if (word !== '') this.#heredocs.push({ delimiter: word, quoted, stripTabs });
    this.#copy(Math.min(j, text.length) - this.#i);
  }

  /**
   * The bodies of the pending heredocs, line by line. An unquoted body is expanded by the shell
   * without splitting, so it is left as written; a quoted one is literal, like single quotes.
   */
  #heredocBodies(): void {
    const text = this.#text;
    for (const doc of this.#heredocs.splice(0)) {
      while (this.#i < text.length) {
        const nl = text.indexOf('\n', this.#i);
        const end = nl < 0 ? text.length : nl;
        const line = text.slice(this.#i, end);
        this.#out.push(doc.quoted ? this.#literal(line) : line);
        this.#i = end;
        if (this.#i < text.length) this.#copy(1);
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
      }
    }
  }
}

/** The bare reference: the exact value as one word, or nothing when it is unset or empty. */
function wordOf(name: string): string {
  return `\${${name}:+"$${name}"}`;
}
