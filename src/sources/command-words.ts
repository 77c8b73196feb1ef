import path from 'node:path';

/**
 * Splits a shell command line into words with quotes removed (POSIX-ish: '…', "…", \x).
 * Good enough to find the script paths a command refers to; it never runs anything.
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!))
        current += command[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      current += command[++i];
      inWord = true;
    } else if (/\s/.test(c) || ';|&<>()'.includes(c)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/**
 * [L-TRUST-1] Every word of the command that, with quotes removed and resolved against the
 * project folder, names a path inside the project. Sorted, without duplicates.
 */
export function projectPathsOf(command: string, projectDir: string): string[] {
  const root = path.resolve(projectDir);
  const out = new Set<string>();
  for (const word of commandWords(command)) {
    if (word === '' || word.includes('\0')) continue;
    const resolved = path.resolve(root, word);
    const rel = path.relative(root, resolved);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) out.add(resolved);
  }
  return [...out].sort();
}

/**
 * Words that look like script paths (contain a `/`; not an option, a URL or a variable),
 * resolved as the shell would: `~/` against `home`, others against `cwd`.
 */
export function scriptPathsOf(command: string, cwd: string, home: string): string[] {
  return commandWords(command)
    .filter((w) => w.includes('/') && !w.startsWith('-') && !/^[a-z]+:\/\//i.test(w) && !w.includes('$'))
    .map((w) => (w.startsWith('~/') ? path.join(home, w.slice(2)) : path.resolve(cwd, w)));
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

/**
 * The script a command line runs, if it names one: the first word when it is a path, or the first
 * operand of a known interpreter. Used to fail a hook whose script is missing *before* running it:
 * `sh missing.sh` exits 2 under dash, which would otherwise read as a deny.
 */
export function primaryScriptOf(command: string, cwd: string, home: string): string | undefined {
  const words = commandWords(command);
  let i = 0;
  if (words[0] === 'npx' || words[0] === 'exec') i++;
  const first = words[i];
  if (first === undefined || first.includes('$')) return undefined;
  const base = first.slice(first.lastIndexOf('/') + 1);
  // Only `interpreter SCRIPT …`: with options first (`-c`, `-m mod`, `-u`) the operand may be no file.
  const operand = INTERPRETERS.has(base) ? words[i + 1] : first;
  if (operand === undefined || operand.startsWith('-') || operand.includes('$')) return undefined;
  if (operand === first && !first.includes('/')) return undefined;
  return operand.startsWith('~/') ? path.join(home, operand.slice(2)) : path.resolve(cwd, operand);
}
