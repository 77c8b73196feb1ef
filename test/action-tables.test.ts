/**
 * [G-ACT-1] The action view's shipped data tables, checked as data: every option line
 * parses, no spelling is given twice, the aliases and arities the SPEC names are there, and the
 * launcher and file-access tables only name commands and options the option table knows.
 */
import { describe, expect, it } from 'vitest';
import { parseOptionLine, readArgs, specOf } from '../src/action/command-options.ts';
import { FILE_ACCESS } from '../src/action/file-access-table.ts';
import { LAUNCHERS, RUNS_NOTHING_WITH } from '../src/action/launcher-table.ts';
import { type CommandSpec, OPTION_TABLE } from '../src/action/option-table.ts';

function specs(): [string, CommandSpec][] {
  const out: [string, CommandSpec][] = [];
  for (const [name, spec] of Object.entries(OPTION_TABLE)) {
    out.push([name, spec]);
    for (const [sub, s] of Object.entries(spec.subcommands ?? {})) out.push([`${name} ${sub}`, s]);
  }
  return out;
}

/** Every option name a command's table gives (its `as` target's). */
function namesOf(command: string): Set<string> {
  const spec = OPTION_TABLE[command];
  const target = spec?.as !== undefined ? OPTION_TABLE[spec.as] : spec;
  return new Set((target?.options ?? []).flatMap((line) => parseOptionLine(line).names));
}

const arity = (command: string, spelling: string, words: string[] = []) => {
  const read = readArgs(
    specOf(command),
    [spelling, 'VALUE', ...words].map((text) => ({ text, dynamic: false })),
  );
  return read.flags[0]?.value;
};

describe('[G-ACT-1] the option table', () => {
  it.each(specs())('%s: every line parses, no spelling twice', (_name, spec) => {
    const seen = new Set<string>();
    for (const line of spec.options ?? []) {
      for (const s of parseOptionLine(line).spellings) {
        expect(seen.has(s), `${s} twice`).toBe(false);
        seen.add(s);
      }
    }
  });

  it('a malformed line is refused', () => {
    expect(() => parseOptionLine('=X')).toThrow();
    expect(() => parseOptionLine('-x =X -y')).toThrow();
    expect(() => parseOptionLine('x')).toThrow();
  });

  it('`as` names a command of the table', () => {
    for (const spec of Object.values(OPTION_TABLE))
      if (spec.as !== undefined) expect(OPTION_TABLE[spec.as]?.options).toBeDefined();
  });

  it.each([
    ['rm', ['-r', '-R', '--recursive']],
    ['rm', ['-f', '--force']],
    ['chmod', ['-R', '--recursive']],
    ['chown', ['-R', '--recursive']],
    ['cp', ['-R', '-r', '--recursive']],
    ['curl', ['-o', '--output']],
    ['curl', ['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode']],
    ['curl', ['-F', '--form']],
    ['sed', ['-i', '--in-place']],
  ])('%s: %j are one option [G-ACT-1]', (command, spellings) => {
    const lines = OPTION_TABLE[command]!.options!.map(parseOptionLine);
    const line = lines.find((l) => l.spellings.includes(spellings[0]!));
    expect(line?.spellings).toEqual(expect.arrayContaining(spellings));
  });

  it('git push: -f = --force; --force-with-lease, --force-if-includes, --mirror on their own; -d = --delete', () => {
    const lines = OPTION_TABLE.git!.subcommands!.push!.options!.map(parseOptionLine);
    const of = (s: string) => lines.find((l) => l.spellings.includes(s))?.spellings;
    expect(of('-f')).toEqual(['-f', '--force']);
    expect(of('--force-with-lease')).toEqual(['--force-with-lease']);
    expect(of('--force-if-includes')).toEqual(['--force-if-includes']);
    expect(of('--mirror')).toEqual(['--mirror']);
    expect(of('-d')).toEqual(['-d', '--delete']);
  });

  it.each([
    ['git', '-C'],
    ['git', '-c'],
    ['git', '--git-dir'],
    ['git', '--work-tree'],
    ['npm', '--registry'],
    ['npm', '--prefix'],
    ['sudo', '-u'],
    ['sudo', '-g'],
    ['env', '-u'],
    ['nice', '-n'],
    ['timeout', '-s'],
    ['timeout', '-k'],
    ['xargs', '-n'],
    ['xargs', '-I'],
    ['xargs', '-P'],
  ])('%s %s takes a value, so the positionals stay right [G-ACT-1]', (command, spelling) => {
    expect(arity(command, spelling, ['POS'])).toBe('VALUE');
  });
});

describe('[G-ACT-1] the launcher and file-access tables', () => {
  it('every launcher but find (its own reader) has an option table; those that run words read POSIX order', () => {
    for (const [name, how] of Object.entries(LAUNCHERS)) {
      if (name === 'find') continue;
      expect(OPTION_TABLE[name], name).toBeDefined();
      // `su` reads GNU order; a launcher by subcommand (`pnpm exec`) reads its own table's order.
      if (how.kind !== 'su' && how.kind !== 'sub') expect(OPTION_TABLE[name]?.posix, name).toBe(true);
    }
    for (const [name, options] of Object.entries(RUNS_NOTHING_WITH))
      for (const o of options) expect(namesOf(name).has(o), `${name} ${o}`).toBe(true);
  });

  it('every option the file-access table names is an option of that command', () => {
    for (const [name, access] of Object.entries(FILE_ACCESS)) {
      const known = namesOf(name);
      const named = [
        ...Object.keys(access.values ?? {}),
        ...(access.skipFirstUnless ?? []),
        ...(access.writtenWith ?? []),
        ...(access.codeOptions ?? []),
        ...(access.atValues ?? []),
      ];
      for (const option of named) expect(known.has(option), `${name}: ${option}`).toBe(true);
    }
  });

  it('the read, write and delete commands of G-ACT-1 are there', () => {
    const args = (c: string) => FILE_ACCESS[c]?.args;
    for (const c of ['cat', 'less', 'head', 'tail', 'grep', 'base64', 'xxd']) expect(args(c), c).toBe('read');
    for (const c of ['source', '.']) expect(args(c), c).toBe('first-read');
    for (const c of ['tee', 'truncate', 'touch', 'chmod', 'chown']) expect(args(c), c).toBe('write');
    for (const c of ['rm', 'rmdir', 'unlink', 'shred']) expect(args(c), c).toBe('delete');
    for (const c of ['cp', 'install', 'scp', 'rsync']) expect(args(c), c).toBe('copy');
    expect(args('mv')).toBe('move');
    expect(args('ln')).toBe('link');
    expect(args('tar')).toBe('tar');
    expect(args('zip')).toBe('zip');
    expect(args('dd')).toBe('dd');
    expect(FILE_ACCESS.sed?.writtenWith).toEqual(['in-place']);
    expect(FILE_ACCESS.curl?.atValues).toEqual(expect.arrayContaining(['data', 'form']));
  });
});
