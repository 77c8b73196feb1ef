/**
 * `hookwerk test` [G-TEST-1], as a team runs it in CI: real test files, the real CLI as a process,
 * real hook scripts. Each case runs through what `hookwerk hook --agent A` runs and is judged by
 * what that agent reads in the reply — so the same guard reads as `deny`, `ask`, `allow` or `none`
 * differently per agent where the agent's protocol says so (Codex has no ask and no plain allow;
 * Cursor's preToolUse has no ask). Test runs never reach the journal.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

type Input = Record<string, unknown>;

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** One guard script, answering in Claude Code's protocol: deny (exit 2), ask, allow, or nothing. */
const GUARD = `#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf'*) echo 'no rm -rf here' >&2; exit 2;;
  *'npm publish'*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"publishing needs a human"}}';;
  *'npm test'*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"tests are fine"}}';;
esac
exit 0
`;

/** A folder with the guard script and a policy file that runs it on Bash calls. */
function policyFolder(): { dir: string; policy: string; guard: string } {
  const dir = tempDir('hw-pt-pol-');
  const guard = path.join(dir, 'guard.sh');
  writeFileSync(guard, GUARD);
  chmodSync(guard, 0o755);
  const policy = path.join(dir, 'policy.json');
  writeJson(policy, {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
  });
  return { dir, policy, guard };
}

/** Each agent's own input for a shell command (Cursor twice: its preToolUse and beforeShellExecution). */
const SHAPES: ReadonlyArray<{ label: string; agent: string; input: (command: string) => Input }> = [
  { label: 'claude', agent: 'claude', input: (command) => ({ tool_name: 'Bash', tool_input: { command } }) },
  {
    label: 'gemini',
    agent: 'gemini',
    input: (command) => ({
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
      tool_input: { command },
    }),
  },
  {
    label: 'codex',
    agent: 'codex',
    input: (command) => ({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      turn_id: 't1',
    }),
  },
  // Copilot's input names no event: the case's default (PreToolUse) is Copilot's preToolUse.
  { label: 'copilot', agent: 'copilot', input: (command) => ({ toolName: 'bash', toolArgs: { command } }) },
  {
    label: 'cursor',
    agent: 'cursor',
    input: (command) => ({ tool_name: 'Shell', tool_input: { command } }),
  },
  {
    label: 'cursor shell',
    agent: 'cursor',
    input: (command) => ({ hook_event_name: 'beforeShellExecution', command }),
  },
];

/** What each agent does with the guard's four answers [R-HOOK-1, R-HOOK-2, A-CDX-1, A-CUR-1]. */
const READS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  claude: { 'rm -rf /': 'deny', 'npm publish': 'ask', 'npm test': 'allow', ls: 'none' },
  gemini: { 'rm -rf /': 'deny', 'npm publish': 'ask', 'npm test': 'allow', ls: 'none' },
  codex: { 'rm -rf /': 'deny', 'npm publish': 'deny', 'npm test': 'none', ls: 'none' },
  copilot: { 'rm -rf /': 'deny', 'npm publish': 'ask', 'npm test': 'allow', ls: 'none' },
  cursor: { 'rm -rf /': 'deny', 'npm publish': 'deny', 'npm test': 'allow', ls: 'none' },
  'cursor shell': { 'rm -rf /': 'deny', 'npm publish': 'ask', 'npm test': 'allow', ls: 'none' },
};

const caseLine = z.object({
  type: z.literal('case'),
  file: z.string(),
  name: z.string(),
  agent: z.string(),
  event: z.string(),
  expect: z.string(),
  got: z.string(),
  reason: z.string().optional(),
  by: z.array(z.string()),
  passed: z.boolean(),
  why: z.string().optional(),
});
const summaryLine = z.object({
  type: z.literal('summary'),
  passed: z.number(),
  failed: z.number(),
  notes: z.array(z.string()),
});

function jsonLines(stdout: string) {
  const lines = stdout.trim().split('\n');
  return {
    cases: lines.slice(0, -1).map((l) => caseLine.parse(JSON.parse(l))),
    summary: summaryLine.parse(JSON.parse(lines.at(-1) ?? '')),
  };
}

describe('[G-TEST-1] hookwerk test', () => {
  it('[G-TEST-1, R-HOOK-1] each agent’s own input shape: passing and failing cases, judged by what that agent reads in the reply; --json gives one object per case and a summary', async () => {
    const { dir, guard } = policyFolder();
    const cases = SHAPES.flatMap((s) =>
      Object.entries(READS[s.label] ?? {}).map(([command, expect]) => ({
        name: `${s.label}: ${command}`,
        agent: s.agent,
        input: s.input(command),
        expect,
      })),
    );
    // One case per shape that fails: it expects no objection to `rm -rf /`.
    const failing = SHAPES.map((s) => ({
      name: `${s.label}: wrongly expects rm -rf to pass`,
      agent: s.agent,
      input: s.input('rm -rf /tmp/x'),
      expect: 'none',
    }));
    const file = path.join(dir, 'agents.test.json');
    writeJson(file, { policy: 'policy.json', cases: [...cases, ...failing] });
    const home = tempDir('hw-pt-home-');
    const project = tempDir('hw-pt-proj-');

    const text = await runCli(['test', file], { home, cwd: project });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(1);
    const lines = text.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe(`${cases.length} passed, ${failing.length} failed`);
    expect(lines.slice(0, -1).sort()).toEqual(
      failing
        .map(
          (f) =>
            `FAIL ${f.name}: expected none, got deny (reason: "no rm -rf here"; by ${JSON.stringify(guard)})`,
        )
        .sort(),
    );

    const json = await runCli(['test', file, '--json'], { home, cwd: project });
    expect(json.code).toBe(1);
    const { cases: results, summary } = jsonLines(json.stdout);
    expect(summary).toEqual({ type: 'summary', passed: cases.length, failed: failing.length, notes: [] });
    for (const c of cases) {
      const r = results.find((x) => x.name === c.name);
      expect({ name: c.name, got: r?.got, passed: r?.passed }).toEqual({
        name: c.name,
        got: c.expect,
        passed: true,
      });
    }
    const copilot = results.find((r) => r.name === 'copilot: npm publish');
    expect(copilot).toMatchObject({ event: 'preToolUse', reason: 'publishing needs a human', by: [guard] });
    expect(results.find((r) => r.name === 'gemini: ls')).toMatchObject({ event: 'BeforeTool', got: 'none' });

    // [R-HOOK-3] The test runs ran hooks, and none of them reached the journal or the fast path's index.
    expect(existsSync(path.join(home, '.hookwerk'))).toBe(false);
  });

  it('[G-TEST-1] --policy runs a file under edit, not the approved text; the output says the approved one differs', async () => {
    const home = tempDir('hw-pt-home-');
    const project = tempDir('hw-pt-proj-');
    const { guard } = policyFolder();
    const projectPolicy = path.join(project, '.hookwerk', 'policy.json');
    // Approved: a guard that stops nothing. Then edited to run the real guard: not approved yet.
    writeJson(projectPolicy, {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 0' }] }] },
    });
    expect((await runCli(['trust', '--yes'], { home, cwd: project })).code).toBe(0);
    writeJson(projectPolicy, {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    });
    const tests = path.join(project, 'edit.test.json');
    writeJson(tests, {
      cases: [
        {
          name: 'rm -rf is denied',
          input: { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
          expect: 'deny',
        },
      ],
    });

    const approved = await runCli(['test', tests], { home, cwd: project });
    expect(approved.code).toBe(1);
    expect(approved.stdout).toContain(
      'FAIL rm -rf is denied: expected deny, got none (ran "exit 0", none objected',
    );
    expect(approved.stderr).toContain(
      `${projectPolicy} changed since it was approved: the approved text runs`,
    );

    const edited = await runCli(['test', tests, '--policy', '.hookwerk/policy.json'], { home, cwd: project });
    expect(edited).toEqual({ code: 0, stdout: '1 passed, 0 failed\n', stderr: '' });

    // A policy file never installed anywhere, given by the test file itself (relative to it).
    const draft = path.join(project, 'drafts', 'next.json');
    writeJson(draft, {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    });
    writeJson(path.join(project, 'drafts', 'next.test.json'), {
      policy: 'next.json',
      cases: [
        {
          name: 'rm -rf is denied',
          input: { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
          expect: 'deny',
        },
      ],
    });
    const drafted = await runCli(['test', 'drafts/next.test.json'], { home, cwd: project });
    expect(drafted).toEqual({ code: 0, stdout: '1 passed, 0 failed\n', stderr: '' });

    // [G-FAIL-1] Read as strictly as any policy file: a typo in the draft denies, and says where.
    writeJson(draft, {
      hooks: { PreToolUse: [{ matchr: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    });
    writeJson(path.join(project, 'drafts', 'ls.test.json'), {
      policy: 'next.json',
      cases: [
        { name: 'ls runs', input: { tool_name: 'Bash', tool_input: { command: 'ls' } }, expect: 'none' },
      ],
    });
    const typo = await runCli(['test', 'drafts/ls.test.json'], { home, cwd: project });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(`${draft} cannot be used: the gate events are denied`);
    expect(typo.stdout).toContain(
      `FAIL ls runs: expected none, got deny (reason: "hookwerk: ${draft}: $.hooks.PreToolUse[0].matchr: unknown key \\"matchr\\"`,
    );
  });

  it('[G-TEST-1, L-TRUST-3] an unapproved project policy does not run, as in hookwerk hook, and the output says so; default discovery finds .hookwerk/tests/ of the project and the home', async () => {
    const home = tempDir('hw-pt-home-');
    const project = tempDir('hw-pt-proj-');
    const { guard } = policyFolder();
    writeJson(path.join(project, '.hookwerk', 'policy.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    });
    const rm = { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
    writeJson(path.join(project, '.hookwerk', 'tests', 'project.json'), {
      cases: [{ name: 'project: rm -rf is denied', input: rm, expect: 'deny' }],
    });
    writeJson(path.join(home, '.hookwerk', 'tests', 'mine.json'), {
      cases: [
        {
          name: 'home: ls runs',
          input: { tool_name: 'Bash', tool_input: { command: 'ls' } },
          expect: 'none',
        },
      ],
    });
    // Not a test file: not *.json.
    writeFileSync(path.join(project, '.hookwerk', 'tests', 'README.md'), 'tests of our policy\n');

    const before = await runCli(['test'], { home, cwd: project });
    expect(before.code).toBe(1);
    expect(before.stderr).toContain(
      `${path.join(project, '.hookwerk', 'policy.json')} is not approved: its hooks do not run`,
    );
    expect(before.stderr).toContain(`hookwerk trust --project ${project}`);
    const lines = before.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(lines[0]).toMatch(
      /^FAIL \.hookwerk\/tests\/project\.json › project: rm -rf is denied: expected deny, got none \(.*project hook skipped, untrusted/,
    );

    expect((await runCli(['trust', '--yes'], { home, cwd: project })).code).toBe(0);
    const after = await runCli(['test'], { home, cwd: project });
    expect(after).toEqual({ code: 0, stdout: '2 passed, 0 failed\n', stderr: '' });

    const none = tempDir('hw-pt-empty-');
    const empty = await runCli(['test'], { home: tempDir('hw-pt-home-'), cwd: none });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no policy test files');
  });

  it('[G-TEST-1] a bad test file: file, JSON path and cause for every problem, exit 1, no stack trace, no case run', async () => {
    const root = tempDir('hw-pt-bad-');
    const dir = path.join(root, 'tests');
    const marker = path.join(root, 'ran');
    // Beside the tests' folder: a folder given runs every *.json in it as a test file.
    writeJson(path.join(root, 'policy.json'), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] },
    });
    const good = path.join(dir, 'a-good.json');
    writeJson(good, { policy: '../policy.json', cases: [{ name: 'x', input: {}, expect: 'none' }] });
    const bad = path.join(dir, 'b-bad.json');
    writeFileSync(
      bad,
      `{
  // comments are fine, as in a policy file
  "cases": [
    {"name": "typo", "input": {}, "expcet": "deny"},
    {"name": "shape", "input": [], "expect": "maybe", "agent": "vim"},
    {"name": "typo", "input": {}, "expect": "deny"},
  ],
}`,
    );
    const broken = path.join(dir, 'c-broken.json');
    writeFileSync(broken, '{"cases": [');

    const r = await runCli(['test', dir], { home: tempDir('hw-pt-home-'), cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr.trim().split('\n')).toEqual([
      `hookwerk test: ${bad}: $.cases[0].expect: expect is missing (it must be one of deny, ask, allow, none)`,
      `hookwerk test: ${bad}: $.cases[0].expcet: unknown key "expcet" (a test file is strict: check its spelling)`,
      `hookwerk test: ${bad}: $.cases[1].agent: agent must be one of claude, gemini, codex, copilot, cursor`,
      `hookwerk test: ${bad}: $.cases[1].input: input must be a JSON object: the agent's own hook input`,
      `hookwerk test: ${bad}: $.cases[1].expect: expect must be one of deny, ask, allow, none`,
      `hookwerk test: ${broken}: $: invalid JSON: syntax error (unexpected end of file at line 1, column 12)`,
    ]);
    expect(existsSync(marker)).toBe(false);

    // Duplicate names, once the rest is fine; a missing file or policy is an error, never "no tests".
    writeJson(bad, {
      cases: [
        { name: 'twice', input: {}, expect: 'none' },
        { name: 'twice', input: {}, expect: 'none' },
      ],
    });
    const dup = await runCli(['test', bad], { home: tempDir('hw-pt-home-'), cwd: dir });
    expect(dup.stderr.trim()).toBe(
      `hookwerk test: ${bad}: $.cases[1].name: "twice" is the name of cases[0] too: a failure must name one case`,
    );
    const missing = await runCli(['test', 'nope.json'], { home: tempDir('hw-pt-home-'), cwd: dir });
    expect([missing.code, missing.stderr.trim()]).toEqual([
      1,
      `hookwerk test: ${path.join(dir, 'nope.json')}: $: no such file or folder`,
    ]);
    const noPolicy = await runCli(['test', good, '--policy', 'gone.json'], {
      home: tempDir('hw-pt-home-'),
      cwd: dir,
    });
    expect([noPolicy.code, noPolicy.stderr.trim()]).toEqual([
      1,
      `hookwerk test: ${path.join(dir, 'gone.json')}: $: the policy file ${path.join(dir, 'gone.json')} does not exist or is not a file`,
    ]);
  });

  it('[G-TEST-1] by names the hook that made the verdict: its command, its source or its place in the file; --agent overrides every case’s agent', async () => {
    const { dir, guard } = policyFolder();
    const rm = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
    const file = path.join(dir, 'by.test.json');
    writeJson(file, {
      policy: 'policy.json',
      cases: [
        { name: 'by command', input: rm, expect: 'deny', by: guard },
        { name: 'by place', input: rm, expect: 'deny', by: '/hooks/PreToolUse/0/hooks/0' },
        {
          name: 'by source',
          input: rm,
          expect: 'deny',
          by: `${path.join(dir, 'policy.json')}#/hooks/PreToolUse/0/hooks/0`,
        },
        { name: 'by someone else', input: rm, expect: 'deny', by: 'destructive-delete' },
        { name: 'wrong reason', input: rm, expect: 'deny', reason: 'not allowed' },
        {
          name: 'codex never asks',
          agent: 'claude',
          input: { ...rm, tool_input: { command: 'npm publish' } },
          expect: 'deny',
        },
      ],
    });
    const r = await runCli(['test', file, '--agent', 'codex'], { home: tempDir('hw-pt-home-'), cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual([
      `FAIL by someone else: expected deny by "destructive-delete", got deny (reason: "no rm -rf here"; by ${JSON.stringify(guard)})`,
      `FAIL wrong reason: expected deny with a reason containing "not allowed", got deny (reason: "no rm -rf here"; by ${JSON.stringify(guard)})`,
      '4 passed, 2 failed',
    ]);
    const bad = await runCli(['test', file, '--agent', 'vim'], { home: tempDir('hw-pt-home-'), cwd: dir });
    expect([bad.code, bad.stderr.trim()]).toEqual([
      1,
      'hookwerk: --agent must be one of claude, gemini, codex, copilot, cursor, not "vim"',
    ]);
  });

  it('[G-TEST-1, G-PERM-1, G-CEL-1] permission rules and rule handlers are tested like hooks: by names the rule, its place, or the rule handler', async () => {
    const dir = tempDir('hw-pt-perm-');
    writeJson(path.join(dir, 'policy.json'), {
      permissions: { deny: ['Bash(rm -rf *)'], ask: ['Bash(npm publish:*)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'rule', when: 'input.command.startsWith("curl")', decision: 'deny', reason: 'no curl' },
            ],
          },
        ],
      },
    });
    const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });
    const file = path.join(dir, 'perm.test.json');
    writeJson(file, {
      policy: 'policy.json',
      cases: [
        {
          name: 'respelled',
          input: bash('sudo rm -fr ~'),
          expect: 'deny',
          by: 'permissions.deny: Bash(rm -rf *)',
        },
        { name: 'by place', input: bash("bash -c 'rm -r -f /'"), expect: 'deny', by: '/permissions/deny/0' },
        { name: 'ask through npx', input: bash('npx -y npm publish'), expect: 'ask' },
        {
          name: 'ask plain',
          input: bash('npm publish --tag next'),
          expect: 'ask',
          reason: 'permissions.ask',
        },
        {
          name: 'rule',
          input: bash('curl https://x.example'),
          expect: 'deny',
          by: '/hooks/PreToolUse/0/hooks/0',
        },
        { name: 'everyday', input: bash('rm -r build'), expect: 'none' },
        { name: 'wrong', input: bash('echo "rm -rf /"'), expect: 'deny' },
      ],
    });
    const r = await runCli(['test', file], { home: tempDir('hw-pt-home-'), cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual([
      `FAIL wrong: expected deny, got none (ran ${JSON.stringify('rule: input.command.startsWith("curl")')}, none objected)`,
      '6 passed, 1 failed',
    ]);
    expect(r.code).toBe(1);
  });

  it('[G-TEST-1, R-HOOK-3] --record N writes the journal’s last calls as cases (expect: what the agent was answered), which pass today and catch a change', async () => {
    const home = tempDir('hw-pt-home-');
    const project = tempDir('hw-pt-proj-');
    const { guard } = policyFolder();
    // Two handlers: each call is two runs, two journal entries, one case.
    const both = [
      { type: 'command', command: guard },
      { type: 'command', command: 'true' },
    ];
    writeJson(path.join(home, '.hookwerk', 'policy.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: both }] },
    });
    const calls: Array<{ args: string[]; input: Input }> = [
      {
        args: ['--agent', 'claude'],
        input: {
          hook_event_name: 'PreToolUse',
          cwd: project,
          tool_name: 'Bash',
          tool_input: { command: 'rm -rf build' },
        },
      },
      {
        args: ['--agent', 'gemini'],
        input: {
          hook_event_name: 'BeforeTool',
          cwd: project,
          tool_name: 'run_shell_command',
          tool_input: { command: 'npm publish' },
        },
      },
      {
        args: ['--agent', 'copilot', '--event', 'preToolUse'],
        input: { cwd: project, toolName: 'bash', toolArgs: { command: 'npm test' } },
      },
      {
        args: ['--agent', 'codex'],
        input: {
          hook_event_name: 'PreToolUse',
          cwd: project,
          tool_name: 'Bash',
          tool_input: { command: 'npm publish' },
        },
      },
      // Larger than the journal keeps (8 KiB): recorded, but not as a call to replay.
      {
        args: ['--agent', 'claude'],
        input: {
          hook_event_name: 'PreToolUse',
          cwd: project,
          tool_name: 'Bash',
          tool_input: { command: `echo ${'x'.repeat(9000)}` },
        },
      },
    ];
    for (const c of calls) {
      const r = await runCli(['hook', ...c.args], {
        home,
        cwd: project,
        stdin: { text: JSON.stringify(c.input) },
      });
      expect(r.code).toBe(0);
    }
    const out = path.join(project, 'pinned.json');
    const rec = await runCli(['test', '--record', '10', '-o', out], { home, cwd: project });
    expect(rec.code).toBe(0);
    expect(rec.stdout).toBe('');
    expect(rec.stderr.trim().split('\n')).toEqual([
      'hookwerk test: 4 cases from the last 10 journal entries (~/.hookwerk/records)',
      'hookwerk test: 5 entries are further runs of those calls: each call is one case',
      'hookwerk test: 1 calls had an input larger than 8192 bytes, which the journal does not keep: not written',
    ]);
    const pinned = z
      .object({
        cases: z.array(
          z.object({
            name: z.string(),
            agent: z.string(),
            event: z.string(),
            input: z.record(z.string(), z.unknown()),
            expect: z.string(),
          }),
        ),
      })
      .parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(pinned.cases.map((c) => [c.agent, c.event, c.expect])).toEqual([
      ['claude', 'PreToolUse', 'deny'],
      ['gemini', 'BeforeTool', 'ask'],
      ['copilot', 'preToolUse', 'allow'],
      ['codex', 'PreToolUse', 'deny'],
    ]);
    expect(pinned.cases[2]?.input).toEqual(calls[2]?.input);
    const journal = path.join(home, '.hookwerk', 'records');
    const entries = () =>
      readFileSync(path.join(journal, 'runs-000000000001.jsonl'), 'utf8').trim().split('\n').length;
    expect(entries()).toBe(10);

    // Today's behaviour passes, and no test run adds to the journal.
    expect(await runCli(['test', out], { home, cwd: project })).toEqual({
      code: 0,
      stdout: '4 passed, 0 failed\n',
      stderr: '',
    });
    expect(entries()).toBe(10);
    // A change to the guard (publishing allowed now) is caught by the pinned cases.
    writeFileSync(
      guard,
      GUARD.replace(
        '"ask","permissionDecisionReason":"publishing needs a human"',
        '"allow","permissionDecisionReason":"ok"',
      ),
    );
    const changed = await runCli(['test', out], { home, cwd: project });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('FAIL gemini BeforeTool Bash ');
    expect(changed.stdout).toContain(': expected ask, got allow (reason: "ok"');
    expect(changed.stdout.trim().split('\n').at(-1)).toBe('2 passed, 2 failed');
    expect(entries()).toBe(10);

    // To stdout without -o; --record takes nothing else.
    const stdout = await runCli(['test', '--record', '1'], { home, cwd: project });
    expect(stdout.code).toBe(0);
    expect(JSON.parse(stdout.stdout)).toEqual({ cases: [] });
    // The newest entry is the second run of the last call: no call of its own to replay.
    expect(stdout.stderr).toContain('0 cases from the last 1 journal entry');
    expect(stdout.stderr).toContain('1 entries carry no call to replay');
    const mixed = await runCli(['test', '--record', '1', out], { home, cwd: project });
    expect([mixed.code, mixed.stderr.trim()]).toEqual([
      1,
      'hookwerk: --record N writes cases from the journal and runs none: it takes only -o FILE',
    ]);
  }, 120_000); // eight CLI processes one after another: a budget for a loaded machine
});
