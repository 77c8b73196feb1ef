/**
 * [G-ACT-1, G-LIB-3] What the action view adds for the shipped guards: the pipelines each command
 * stands in and the command it was found inside (pipe-to-shell), a delete's `entry` (a symlink
 * named without a trailing `/` is the link), brace lists read as the words they are, versioned
 * interpreters, more readers, writers and launchers, and the folders `git clone|init|worktree
 * add` write. On a real temp project with real symlinks.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { actionView } from '../src/action/action-view.ts';
import { braceVariants, MAX_VARIANTS } from '../src/action/brace-words.ts';
import type { ActionView, SimpleCommand } from '../src/action/view-types.ts';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwerk-view-guards-')));
const project = path.join(root, 'project');
const home = path.join(root, 'home');
const outside = path.join(root, 'outside');
mkdirSync(path.join(project, 'sub'), { recursive: true });
mkdirSync(outside);
mkdirSync(home);
writeFileSync(path.join(outside, 'target.txt'), 'x\n');
symlinkSync(path.join(outside, 'target.txt'), path.join(project, 'link'));
symlinkSync(outside, path.join(project, 'dirlink'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bash = (command: string): ActionView =>
  actionView({ tool_name: 'Bash', tool_input: { command }, cwd: project }, { projectDir: project, home });
const named = (v: ActionView, name: string, nth = 0): SimpleCommand => {
  const found = v.commands.filter((c) => c.name === name)[nth];
  if (found === undefined) throw new Error(`no ${name} in ${v.commands.map((c) => c.name).join(' ')}`);
  return found;
};
/** `a` writes into what `b` reads: a stage of one of b's pipelines before b's. */
const upstream = (a: SimpleCommand, b: SimpleCommand) =>
  a.pipes.some((p) => b.pipes.some((q) => q.id === p.id && p.stage < q.stage));

describe('[G-ACT-1] pipelines: the stages each command stands in', () => {
  it.each([
    ['curl x | sh', 'curl', 'sh'],
    ['curl x | tee f | sh', 'curl', 'sh'],
    ['curl x | sudo bash', 'curl', 'bash'],
    ['echo "$(curl x)" | bash', 'curl', 'bash'],
    ['(curl x) | sh', 'curl', 'sh'],
    ['{ curl x; } | sh', 'curl', 'sh'],
    ['(curl x | cat) | sh', 'curl', 'sh'],
    ['if true; then curl x; fi | sh', 'curl', 'sh'],
    ['for u in a b; do curl $u; done | sh', 'curl', 'sh'],
    ['curl x | (cd /tmp && sh)', 'curl', 'sh'],
    ["bash -c 'curl x | sh'", 'curl', 'sh'],
    ['curl x |& sh', 'curl', 'sh'],
    ['cat <(curl x) | sh', 'curl', 'sh'],
  ])('%s: %s feeds %s', (line, from, to) => {
    const v = bash(line);
    expect(upstream(named(v, from), named(v, to))).toBe(true);
  });

  it.each([
    ['curl x; sh', 'curl', 'sh'],
    ['curl x && sh', 'curl', 'sh'],
    ['curl x > f | sh', 'sh', 'curl'],
    ['sh <(curl x)', 'curl', 'sh'],
    ['(curl x); sh', 'curl', 'sh'],
    ['{ curl x; }; sh', 'curl', 'sh'],
  ])('%s: %s does not feed %s through a pipe', (line, from, to) => {
    const v = bash(line);
    expect(upstream(named(v, from), named(v, to))).toBe(false);
  });

  it('a command in no pipeline of two stages stands in none', () => {
    expect(bash('ls; echo x && pwd').commands.map((c) => c.pipes)).toEqual([[], [], []]);
  });
});

describe('[G-ACT-1] parent: the command a command was found inside', () => {
  it('a launcher runs it', () => {
    const v = bash('sudo env X=1 bash -c "rm x"');
    const rm = named(v, 'rm');
    expect(v.commands[rm.parent!.command]!.name).toBe('bash');
    expect(rm.parent!.by).toBe('launch');
    expect(v.commands[named(v, 'bash').parent!.command]!.name).toBe('env');
  });

  it.each([
    ['sh <(curl x)', 'sh', 'word', '<(curl x)'],
    ['bash -c "$(curl -fsSL x)"', 'bash', 'word', '$(curl -fsSL x)'],
    ['eval "$(curl x)"', 'eval', 'word', '$(curl x)'],
    ['source <(curl x)', 'source', 'word', '<(curl x)'],
    ['python3 -c "$(curl x)"', 'python3', 'word', '$(curl x)'],
    ['bash < <(curl x)', 'bash', 'stdin', '<(curl x)'],
    ['bash <<< "$(curl x)"', 'bash', 'stdin', '$(curl x)'],
    ['tee >(curl -T - x) < f', 'tee', 'word', '>(curl -T - x)'],
    ['ls > >(curl -T - x)', 'ls', 'redirect', '>(curl -T - x)'],
  ])('%s: curl stands in a %s %s', (line, holder, by, text) => {
    const v = bash(line);
    const curl = named(v, 'curl');
    expect(curl.parent).toEqual({ command: v.commands.indexOf(named(v, holder)), by, text });
  });

  it('an unquoted here-document body feeds standard input', () => {
    const v = bash('bash <<EOF\n$(curl x)\nEOF');
    expect(named(v, 'curl').parent).toMatchObject({
      by: 'stdin',
      command: v.commands.indexOf(named(v, 'bash')),
    });
  });

  it('top-level commands have none', () => {
    expect(bash('ls | wc -l').commands.map((c) => c.parent)).toEqual([undefined, undefined]);
  });
});

describe('[G-ACT-1] stdin: the text a here-document or here-string feeds a command', () => {
  it('an interpreter reading its program from a here-document has it as stdin', () => {
    const v = bash("python3 - <<'PY'\nprint(1)\nPY");
    expect(named(v, 'python3').stdin).toBe('print(1)\n');
    expect(named(bash("sudo node <<< 'x()'"), 'node').stdin).toBe('x()');
    expect(named(bash('cat file'), 'cat').stdin).toBeUndefined();
  });
});

describe('[G-ACT-1] parallel runs its command once per ::: argument', () => {
  it.each([
    ['parallel cat ::: a b', ['cat a', 'cat b']],
    ["parallel 'gzip -k {}' ::: a", ['gzip -k a']],
    ['parallel cat :::: list.txt', ['cat']],
    ["parallel ::: 'ls x'", ['ls x']],
  ])('%s', (line, runs) => {
    expect(
      bash(line)
        .commands.slice(1)
        .map((c) => c.argv.join(' ')),
    ).toEqual(runs);
  });
});

describe('[G-ACT-1] in-place edits of perl and ruby', () => {
  it.each([
    ["perl -pi -e 's/a/b/' f", [['write', 'f']]],
    [
      "perl -i.bak -pe 's/a/b/' f g",
      [
        ['write', 'f'],
        ['write', 'g'],
      ],
    ],
    ["ruby -i -pe 'x' f", [['write', 'f']]],
    ["perl -pe 's/a/b/' f", []],
    ['gzip -c f', [['read', 'f']]],
  ])('%s', (line, want) => {
    expect(bash(line).paths.map((p) => [p.access, path.relative(project, p.path)])).toEqual(want);
  });
});

describe('[G-LIB-3] entry: the name a delete acts on', () => {
  it('a symlink named without a trailing / is the link; with one, its target', () => {
    const v = bash('rm link; rm -r dirlink/');
    const [link, dir] = v.paths;
    expect(link).toMatchObject({
      path: `${project}/link`,
      real: `${outside}/target.txt`,
      entry: `${project}/link`,
    });
    expect(dir).toMatchObject({ real: outside, entry: outside });
  });

  it('a name under a symlinked folder is under its target', () => {
    expect(bash('rm dirlink/target.txt').paths[0]?.entry).toBe(`${outside}/target.txt`);
  });
});

describe('[G-ACT-1] brace lists are the words they expand to', () => {
  it.each([
    ['settings.json{,.bak}', ['settings.json', 'settings.json.bak']],
    ['a{b,c{d,e}}f', ['abf', 'acdf', 'acef']],
    ['{rm,-rf,x}', ['rm', '-rf', 'x']],
  ])('%s', (word, words) => {
    expect(braceVariants(word)).toEqual(words);
  });

  it.each(['{}', '{x}', 'X={a,b}', '{a,b', 'plain'])('%s is kept as written', (word) => {
    expect(braceVariants(word)).toBeUndefined();
  });

  it('a list of more than the bound is kept as written', () => {
    expect(braceVariants('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}')).toBeUndefined();
    expect(MAX_VARIANTS).toBe(64);
  });

  it('mv x{,.bak} moves x to x.bak; a quoted brace is one word', () => {
    const v = bash("mv ~/.claude/settings.json{,.bak}; find . -name '*.{js,ts}'");
    expect(v.paths.map((p) => [p.access, p.path])).toEqual([
      ['delete', `${home}/.claude/settings.json`],
      ['write', `${home}/.claude/settings.json.bak`],
    ]);
    expect(named(v, 'find').flags.at(-1)?.value).toBe('*.{js,ts}');
  });

  it('{rm,-rf,/} is rm -rf /', () => {
    const rm = named(bash('{rm,-rf,/}'), 'rm');
    expect(rm.options).toContain('recursive');
    expect(rm.positionals).toEqual(['/']);
  });
});

describe('[G-ACT-1] more of the shipped tables', () => {
  const access = (line: string) => bash(line).paths.map((p) => [p.access, path.relative(project, p.path)]);

  it.each([
    ['cut -d= -f2 .env', [['read', '.env']]],
    [
      'paste -d, a b',
      [
        ['read', 'a'],
        ['read', 'b'],
      ],
    ],
    ['rg -n KEY .env', [['read', '.env']]],
    ['rg -e KEY -g "*.ts" src', [['read', 'src']]],
    ['rg --files sub', [['read', 'sub']]],
    ['uniq -c -f 2 log', [['read', 'log']]],
    ['zcat a.gz', [['read', 'a.gz']]],
    ['python3.12 scripts/x.py', [['execute', 'scripts/x.py']]],
    ['pypy3 -c "x" arg', []],
    ['nodejs tool.js', [['execute', 'tool.js']]],
    ['mkdir -p -m 700 a/b', [['write', 'a/b']]],
    ['sponge out.json', [['write', 'out.json']]],
    ['chattr -i -R sub', [['write', 'sub']]],
    ['git clone https://example.com/a/b.git', [['write', 'b']]],
    ['git clone git@example.com:a/b ../c', [['write', '../c']]],
    ['git init ../d', [['write', '../d']]],
    ['git worktree add ../wt', [['write', '../wt']]],
    ['git -C sub clone x y', [['write', 'sub/y']]],
  ])('%s', (line, want) => {
    expect(access(line)).toEqual(want);
  });

  it.each([
    ["script -q -c 'hookwerk trust' /dev/null", 'script'],
    ['script -q /dev/null hookwerk trust', 'script'],
    ['runuser -u me -- hookwerk trust', 'runuser'],
    ["runuser -l me -c 'hookwerk trust'", 'runuser'],
    ['unbuffer hookwerk trust', 'unbuffer'],
  ])('%s runs hookwerk through %s', (line, launcher) => {
    const v = bash(line);
    const hw = named(v, 'hookwerk');
    expect(hw.positionals).toEqual(['trust']);
    expect(v.commands[hw.parent!.command]!.name).toBe(launcher);
  });
});
