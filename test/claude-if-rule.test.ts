/**
 * [C-RUN-1] The `if` field of a Claude Code handler: `Tool` or `Tool(pattern)`, a `*` glob on
 * `tool_input.command` (Bash: each subcommand) or `tool_input.file_path`. Pure, table-driven.
 */
import { describe, expect, it } from 'vitest';
import {
  bashSubcommands,
  compileGlob,
  compileIfRule,
  globMatches,
  ifRuleAdmits,
} from '../src/dialects/agent/if-rule.ts';

const bash = (rule: string, command: string) => ifRuleAdmits(compileIfRule(rule), 'Bash', { command });
const file = (rule: string, tool: string, file_path: string) =>
  ifRuleAdmits(compileIfRule(rule), tool, { file_path });

describe('[C-RUN-1] globs: * is any text, everything else literal', () => {
  const cases: Array<[string, string, boolean]> = [
    ['git *', 'git status', true],
    ['git *', 'gitk', false],
    ['*', '', true],
    ['', '', true],
    ['', 'x', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYbZc', true],
    ['a*b*c', 'acb', false],
    ['ab*ba', 'aba', false],
    ['*.ts', '/src/a.ts', true],
    ['*.ts', '/src/a.tsx', false],
    ['rm -rf .*', 'rm -rf .*', true], // `.` is literal, not a regex dot
    ['rm -rf .*', 'rm -rf x', false],
    ['a+b', 'aab', false],
    ['[abc]', '[abc]', true],
    ['[abc]', 'a', false],
    ['x\\*y', 'x*y', true],
    ['x\\*y', 'xzy', false],
    ['a\\\\*', 'a\\zzz', true],
  ];
  for (const [pattern, text, expected] of cases) {
    it(`[C-RUN-1] ${JSON.stringify(pattern)} vs ${JSON.stringify(text)} → ${expected}`, () => {
      expect(globMatches(compileGlob(pattern), text)).toBe(expected);
    });
  }

  it('[C-RUN-1] matching is linear-time on hostile input', () => {
    const pattern = `${'a*'.repeat(2000)}b`;
    const text = 'a'.repeat(200_000);
    // A backtracking matcher would not end within the test's timeout on this; the cost is a bench row.
    expect(globMatches(compileGlob(pattern), text)).toBe(false);
    expect(bash(`Bash(${pattern})`, text)).toBe(false);
  });
});

describe('[C-RUN-1] reading the rule', () => {
  it('[C-RUN-1] Tool alone matches the tool name only', () => {
    const r = compileIfRule('Bash');
    expect(r.kind).toBe('tool');
    expect(ifRuleAdmits(r, 'Bash', { command: 'anything' })).toBe(true);
    expect(ifRuleAdmits(r, 'BashOutput', {})).toBe(false);
    expect(ifRuleAdmits(r, 'Write', { file_path: '/x' })).toBe(false);
    expect(ifRuleAdmits(compileIfRule('Bash(*)'), 'Bash', { command: 'x' })).toBe(true);
    expect(compileIfRule('  Edit  ').kind).toBe('tool');
  });

  it('[C-RUN-1] a rule it cannot read admits (runs the handler)', () => {
    for (const rule of ['', '   ', 'Bash(git *', 'Bash(git *) && more', '(x)', 'two words', 'Bash()']) {
      const r = compileIfRule(rule);
      expect(r.kind, rule).toBe('unreadable');
      expect(ifRuleAdmits(r, 'Bash', { command: 'ls' })).toBe(true);
      expect(ifRuleAdmits(r, 'Write', { file_path: '/x' })).toBe(true);
    }
  });

  it('[C-RUN-1] the tool must match before the pattern is tried', () => {
    expect(file('Edit(*.ts)', 'Edit', '/p/a.ts')).toBe(true);
    expect(bash('Edit(*.ts)', 'cat a.ts')).toBe(false);
    expect(ifRuleAdmits(compileIfRule('Bash(ls *)'), 'Read', { file_path: 'ls x' })).toBe(false);
  });

  it('[C-RUN-1] no tool (not a tool event): a readable rule does not admit', () => {
    expect(ifRuleAdmits(compileIfRule('Bash'), undefined, undefined)).toBe(false);
    expect(ifRuleAdmits(compileIfRule('Bash(git *)'), undefined, { command: 'git x' })).toBe(false);
  });

  it('[C-RUN-1] a tool call with nothing to test admits', () => {
    expect(ifRuleAdmits(compileIfRule('Bash(git *)'), 'Bash', {})).toBe(true);
    expect(ifRuleAdmits(compileIfRule('Bash(git *)'), 'Bash', 'not an object')).toBe(true);
    expect(
      ifRuleAdmits(compileIfRule('WebFetch(domain:example.com)'), 'WebFetch', { url: 'https://x' }),
    ).toBe(true);
    expect(ifRuleAdmits(compileIfRule('Bash(git *)'), 'Bash', { command: 42 })).toBe(true);
  });

  it('[C-RUN-1] Claude Code rule families and MCP server rules', () => {
    expect(file('Edit(*.py)', 'Write', '/p/a.py')).toBe(true);
    expect(file('Edit(*.py)', 'MultiEdit', '/p/a.py')).toBe(true);
    expect(
      ifRuleAdmits(compileIfRule('Edit(*.ipynb)'), 'NotebookEdit', { notebook_path: '/p/n.ipynb' }),
    ).toBe(true);
    expect(file('Write(*.py)', 'Edit', '/p/a.py')).toBe(false);
    expect(ifRuleAdmits(compileIfRule('mcp__github'), 'mcp__github__create_issue', {})).toBe(true);
    expect(ifRuleAdmits(compileIfRule('mcp__github'), 'mcp__githubx__create_issue', {})).toBe(false);
    expect(ifRuleAdmits(compileIfRule('mcp__github__*'), 'mcp__github__create_issue', {})).toBe(true);
  });
});

describe('[C-RUN-1] Bash: each subcommand', () => {
  const cases: Array<[rule: string, command: string, admits: boolean]> = [
    ['Bash(git *)', 'git status', true],
    ['Bash(git *)', 'git', true], // a trailing " *" also matches the bare command
    ['Bash(git *)', 'gitk --all', false],
    ['Bash(git*)', 'gitk --all', true],
    ['Bash(rm *)', 'ls && rm -rf /tmp/x', true],
    ['Bash(rm *)', 'ls || rm -rf x', true],
    ['Bash(rm *)', 'ls; rm -rf x', true],
    ['Bash(rm *)', 'ls | rm -rf x', true],
    ['Bash(rm *)', 'sleep 1 & rm x', true],
    ['Bash(rm *)', 'ls\nrm x', true],
    ['Bash(rm *)', 'echo $(rm -rf x)', true],
    ['Bash(rm *)', 'echo `rm -rf x`', true],
    ['Bash(rm *)', 'echo "$(rm -rf x)"', true],
    ['Bash(rm *)', 'echo "`rm -rf x`"', true],
    ['Bash(rm *)', 'echo $(ls $(rm -rf x))', true],
    ['Bash(rm *)', 'diff <(rm a) b', true],
    ['Bash(rm *)', '(cd /tmp && rm -rf x)', true],
    ['Bash(rm *)', 'FOO=1 BAR="a b" rm -rf x', true],
    ['Bash(rm *)', 'if true; then rm -rf x; fi', true],
    ['Bash(rm *)', 'timeout 10 rm -rf x', true],
    ['Bash(rm *)', 'nice -n 5 nohup rm -rf x', true],
    ['Bash(rm *)', 'env -i A=1 rm x', true],
    ['Bash(rm *)', 'echo "rm -rf x"', false], // quoted text is not a command
    ['Bash(rm *)', "echo 'a && rm -rf x'", false],
    ['Bash(rm *)', 'echo "a; rm -rf x"', false],
    ['Bash(rm *)', 'echo rm -rf x', false],
    ['Bash(rm *)', 'FOO=rm ls', false],
    ['Bash(rm *)', 'ls # && rm x', false],
    ['Bash(npm run test)', 'npm run test 2>&1', true], // redirections dropped
    ['Bash(npm run test)', 'npm run test > out.txt', true],
    ['Bash(npm run test)', 'npm run test &>log', true],
    ['Bash(npm run test)', 'npm run test && echo done', true],
    ['Bash(npm run test)', 'npm run test:unit', false],
    ['Bash(npm:*)', 'npm install', true], // the old prefix form
    ['Bash(npm:*)', 'npm', true],
    ['Bash(npm:*)', 'npmx', false],
    ['Bash(git push *)', 'cd repo && git push origin main', true],
    ['Bash(git push *)', 'git pull', false],
    ['Bash(* --force)', 'git push --force', true],
  ];
  for (const [rule, command, admits] of cases) {
    it(`[C-RUN-1] ${rule} on ${JSON.stringify(command)} → ${admits}`, () => {
      expect(bash(rule, command)).toBe(admits);
    });
  }

  it('[C-RUN-1] a command it cannot parse admits', () => {
    for (const command of [
      'echo "unclosed',
      "echo 'unclosed",
      'echo $(unclosed',
      'echo `unclosed',
      'echo )',
    ]) {
      expect(bashSubcommands(command), command).toBeUndefined();
      expect(bash('Bash(git *)', command)).toBe(true);
    }
    const deep = `${'$('.repeat(100)}rm x${')'.repeat(100)}`;
    expect(bash('Bash(git *)', deep)).toBe(true);
  });

  it('[C-RUN-1] subcommands are listed in order, with the inner ones', () => {
    expect(bashSubcommands('A=1 make && echo "$(date)" | tee log; (cd x; ls)')).toEqual([
      'A=1 make',
      'date',
      'echo "$(date)"',
      'tee log',
      'cd x',
      'ls',
    ]);
  });

  it('[C-RUN-1] here-document bodies and $((…)) are read as commands too; the delimiter line is none', () => {
    expect(bashSubcommands('bash <<EOF\nrm -rf x\nEOF\nls')).toEqual(['bash <<EOF', 'rm -rf x', 'ls']);
    expect(bash('Bash(rm *)', "cat <<'EOF' | sh\nrm x\nEOF")).toBe(true);
    expect(bashSubcommands('echo $((1 + 2)) $(( $(date) ))')).toEqual([
      '1 + 2',
      'date',
      '$(date)',
      'echo $((1 + 2)) $(( $(date) ))',
    ]);
  });

  it('[C-RUN-1] an unclosed ${ cannot be parsed; a redirection glued to a word is dropped too', () => {
    expect(bashSubcommands('echo ${x')).toBeUndefined();
    expect(bash('Bash(npm run test)', 'npm run test>out.txt')).toBe(true);
    expect(bash('Bash(npm run test)', 'npm run test 2>&1|tee log')).toBe(true);
  });

  it('[C-RUN-1] PowerShell and other tools with a command test it whole', () => {
    expect(
      ifRuleAdmits(compileIfRule('PowerShell(Remove-Item *)'), 'PowerShell', { command: 'Remove-Item x' }),
    ).toBe(true);
  });
});

describe('[C-RUN-1] file paths', () => {
  const cases: Array<[rule: string, path: string, admits: boolean]> = [
    ['Edit(*.ts)', '/home/u/p/src/a.ts', true],
    ['Edit(*.ts)', '/home/u/p/src/a.js', false],
    ['Edit(src/*.ts)', '/home/u/p/src/a.ts', true],
    ['Edit(src/*.ts)', '/home/u/p/lib/a.ts', false],
    ['Edit(./src/*)', '/home/u/p/src/a.ts', true],
    ['Edit(/src/**)', '/home/u/p/src/deep/a.ts', true],
    ['Edit(~/.bashrc)', '/home/u/.bashrc', true],
    ['Edit(//etc/*)', '/etc/passwd', true],
    ['Edit(//etc/*)', '/home/u/etc/passwd', false],
    ['Read(.env)', '/home/u/p/.env', true],
    ['Read(.env)', '/home/u/p/x.env', false],
    ['Read(*.env)', '/home/u/p/x.env', true],
  ];
  for (const [rule, path, admits] of cases) {
    it(`[C-RUN-1] ${rule} on ${path} → ${admits}`, () => {
      const tool = rule.slice(0, rule.indexOf('('));
      expect(file(rule, tool, path)).toBe(admits);
    });
  }
});
