/**
 * `rule` handlers end to end (SPEC §14.4): real policy files, the real engine
 * (`gateDialect: 'policy'`), `hookwerk hook` as the agents call it (in this process through the
 * CLI's own entry, and as real `hookwerk hook --agent claude|codex` processes), `validate` and
 * `install`. A rule sits beside command hooks with the same matcher, `if`, order and merge
 * [G-CEL-1]; it errs or runs out as a hook error that follows `failMode` [G-CEL-2]; one that does
 * not compile is an error of its file [G-CEL-3, G-FAIL-1]; and CEL is loaded only when a policy has
 * a rule. The conditions themselves, as units: rule-cel.test.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHookArgs } from '../src/cli/hook.ts';
import type { HookReply } from '../src/dialects/agent/hook-agent.ts';
import { policyProblems } from '../src/dialects/policy/strict.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import { coldDecider } from '../src/hook/cold-decider.ts';
import { silentLogger } from '../src/records/logger.ts';
import { cleanEnv, REPO, runCli } from './cli-runner.ts';
import { openEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';

interface Setup {
  home: string;
  project: string;
  /** `~/.hookwerk/policy.json`: the user's policy, trusted. */
  policy: string;
}

function setup(policy?: unknown): Setup {
  const dir = tempDir('hw-rule-');
  const s = {
    home: path.join(dir, 'home'),
    project: path.join(dir, 'project'),
    policy: path.join(dir, 'home', '.hookwerk', 'policy.json'),
  };
  mkdirSync(path.dirname(s.policy), { recursive: true });
  mkdirSync(s.project, { recursive: true });
  if (policy !== undefined) writePolicy(s, policy);
  return s;
}

function writePolicy(s: Setup, policy: unknown): void {
  writeFileSync(s.policy, typeof policy === 'string' ? policy : JSON.stringify(policy, null, 2));
}

const PUSH = 'tool == "Bash" && input.command.contains("push")';
const rule = (when: string, extra: Record<string, unknown> = {}) => ({ type: 'rule', when, ...extra });
const pre = (matcher: string, ...hooks: unknown[]) => ({ hooks: { PreToolUse: [{ matcher, hooks }] } });

/** The engine `hookwerk hook` makes for a call (cold), on the setup's files. */
function engine(s: Setup) {
  return openEngine({
    projectDir: s.project,
    home: s.home,
    gateDialect: 'policy',
    watch: false,
    logger: silentLogger,
  });
}

async function decide(s: Setup, command: string, opts: { agent?: string } = {}): Promise<AgentDecision> {
  const e = await engine(s);
  const d = await e.decide('PreToolUse', { tool_name: 'Bash', tool_input: { command } }, opts);
  if (!('continue' in d)) throw new Error('not a policy decision');
  return d;
}

const bashCall = (s: Setup, command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 's1',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command },
  });

/** `hookwerk hook --agent A` decided in this process: the CLI's entry, the real cold decider. */
function hook(s: Setup, input: string, agent = 'claude'): Promise<HookReply> {
  return answerHookArgs(
    ['--agent', agent],
    { stdin: Buffer.from(input), cwd: s.project, env: cleanEnv({ HOME: s.home, HOOKWERK_DAEMON: 'off' }) },
    { decider: coldDecider },
  );
}

/** `hookwerk hook --agent A` as a real process, as the agent runs it. */
function hookProcess(s: Setup, input: string, agent: string, env: Record<string, string> = {}) {
  return runCli(['hook', '--agent', agent], {
    home: s.home,
    cwd: s.project,
    env: { HOOKWERK_DAEMON: 'off', ...env },
    stdin: { text: input },
  });
}

const specific = (stdout: string) => (stdout === '' ? undefined : JSON.parse(stdout).hookSpecificOutput);

describe('[G-CEL-1] a rule decides like a hook, in-process', () => {
  it('a deny rule denies with its reason; its run is one record named by the rule, with its outcome and duration', async () => {
    const s = setup(pre('Bash', rule(PUSH, { decision: 'deny', reason: 'no pushing from here' })));
    const d = await decide(s, 'git push origin main');
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no pushing from here' });
    expect(d.runs).toHaveLength(1);
    expect(d.runs[0]).toMatchObject({
      hook: `rule: ${PUSH}`,
      source: `${s.policy}#/hooks/PreToolUse/0/hooks/0`,
      dialect: 'policy',
      outcome: 'deny',
      decision: 'deny',
      permission: 'deny',
      reason: 'no pushing from here',
    });
    expect(typeof d.runs[0]?.durationMs).toBe('number');
    const ok = await decide(s, 'git status');
    expect(ok).toMatchObject({ decision: 'allow', blocked: false });
    expect(ok.runs).toEqual([expect.objectContaining({ outcome: 'ok', decision: 'allow' })]);
    expect(ok.runs[0]?.permission).toBeUndefined();
  });

  it('[G-ACT-1] the action view reaches the condition: a force push to main is seen through respellings', async () => {
    const FORCE =
      'commands.exists(c, c.name == "git" && c.positionals.size() > 1 && c.positionals[0] == "push" && "force" in c.options && c.positionals.exists(p, p.endsWith("main")))';
    const s = setup(pre('Bash', rule(FORCE, { decision: 'deny', reason: 'no force push to main' })));
    for (const command of [
      'git push origin main --force',
      'git push -f origin HEAD:main',
      'git -C . push -f origin main',
      "bash -c 'git push --force origin main'",
      'echo ok && sudo git push -f origin main',
    ])
      expect((await decide(s, command)).decision, command).toBe('deny');
    for (const command of [
      'git push origin main',
      'echo "git push -f origin main"',
      'git push -f origin feature',
    ])
      expect((await decide(s, command)).decision, command).toBe('allow');
    // The paths too: a Read of a symlinked secret is judged on its real path.
    const p = setup(
      pre('Read', rule('paths.exists(p, p.real.endsWith("/.env"))', { decision: 'deny', reason: 'secret' })),
    );
    writeFileSync(path.join(p.project, '.env'), 'K=1');
    symlinkSync(path.join(p.project, '.env'), path.join(p.project, 'notes.txt'));
    const e = await engine(p);
    const d = await e.decide('PreToolUse', {
      tool_name: 'Read',
      cwd: p.project,
      tool_input: { file_path: path.join(p.project, 'notes.txt') },
    });
    expect(d).toMatchObject({ decision: 'deny', reason: 'secret' });
  });

  it('ask and allow are permission decisions like a hook\'s; a context-only rule adds context; "name" names it', async () => {
    const s = setup({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              rule('input.command.startsWith("npm publish")', {
                decision: 'ask',
                reason: 'publish for real?',
              }),
              rule('input.command == "npm test"', { decision: 'allow', name: 'tests are fine' }),
            ],
          },
        ],
        UserPromptSubmit: [
          {
            hooks: [
              rule('event == "UserPromptSubmit"', { additionalContext: 'house rules: no force pushes' }),
            ],
          },
        ],
      },
    });
    expect(await decide(s, 'npm publish --tag next')).toMatchObject({
      decision: 'ask',
      reason: 'publish for real?',
    });
    const allowed = await decide(s, 'npm test');
    expect(allowed).toMatchObject({ decision: 'allow', blocked: false });
    expect(allowed.runs.find((r) => r.hook === 'tests are fine')).toMatchObject({ permission: 'allow' });
    const e = await engine(s);
    const prompt = await e.decide('UserPromptSubmit', { prompt: 'hi' });
    expect(prompt).toMatchObject({ decision: 'allow', additionalContext: 'house rules: no force pushes' });
  });

  it('the matcher and the `if` rule select a rule as they select a hook: not selected, not run, not recorded', async () => {
    const s = setup({
      hooks: {
        PreToolUse: [
          { matcher: 'Read', hooks: [rule('true', { decision: 'deny', reason: 'read' })] },
          { matcher: 'Bash', hooks: [rule('true', { decision: 'deny', reason: 'git', if: 'Bash(git *)' })] },
        ],
      },
    });
    const ls = await decide(s, 'ls -la');
    expect(ls).toMatchObject({ decision: 'allow', runs: [] });
    const git = await decide(s, 'git status');
    expect(git).toMatchObject({ decision: 'deny', reason: 'git' });
    expect(git.runs).toHaveLength(1);
  });

  it('merged with command hooks in configuration order, not finish order [C-ANS-4]', async () => {
    // The command hook answers long after the rule: the order of the file still decides.
    const command = {
      type: 'command',
      command: `sleep 0.2; printf '%s' '${JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'from the command',
          additionalContext: 'command context',
        },
      })}'`,
    };
    const ruleHook = rule(PUSH, {
      decision: 'deny',
      reason: 'from the rule',
      additionalContext: 'rule context',
    });
    const s = setup(pre('Bash', command, ruleHook));
    const first = await decide(s, 'git push');
    expect(first).toMatchObject({
      decision: 'deny',
      reason: 'from the command\nfrom the rule',
      additionalContext: 'command context\nrule context',
    });
    expect(first.runs.map((r) => r.hook)).toEqual([command.command, `rule: ${PUSH}`]);
    writePolicy(s, pre('Bash', ruleHook, command));
    expect(await decide(s, 'git push')).toMatchObject({
      reason: 'from the rule\nfrom the command',
      additionalContext: 'rule context\ncommand context',
    });
  });

  it('`agent` is the agent asking (decide(…, {agent}), hookwerk hook --agent)', async () => {
    const s = setup(pre('Bash', rule('agent == "codex"', { decision: 'deny', reason: 'not from codex' })));
    expect(await decide(s, 'ls', { agent: 'codex' })).toMatchObject({
      decision: 'deny',
      reason: 'not from codex',
    });
    expect(await decide(s, 'ls', { agent: 'gemini' })).toMatchObject({ decision: 'allow' });
    expect(specific((await hook(s, bashCall(s, 'ls'), 'codex')).stdout)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'not from codex',
    });
    expect((await hook(s, bashCall(s, 'ls'), 'claude')).stdout).toBe('');
  });

  it('explain shows a rule with its `when` [G-FAIL-5]', async () => {
    const s = setup(pre('Bash', rule(PUSH, { decision: 'deny', reason: 'r', failMode: 'closed' })));
    const e = await engine(s);
    // (After the guard on by default, self-protect [T-SELF-1], which explain lists before the hooks.)
    const line = e
      .explain('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'git push' } })
      .find((l) => l.kind !== 'guard');
    expect(line?.handler).toEqual({ type: 'rule', when: PUSH, failMode: 'closed', timeoutMs: 10 });
  });

  it("in an agent's own file `rule` is an unknown handler type: skipped with a warning", async () => {
    const s = setup();
    mkdirSync(path.join(s.home, '.claude'), { recursive: true });
    writeFileSync(
      path.join(s.home, '.claude', 'settings.json'),
      JSON.stringify(pre('Bash', rule('true', { decision: 'deny', reason: 'x' }))),
    );
    const e = await openEngine({
      projectDir: s.project,
      home: s.home,
      gateDialect: 'claude',
      watch: false,
      logger: silentLogger,
    });
    const d = await e.decide('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(d).toMatchObject({ decision: 'allow', runs: [] });
    expect(e.gate.config.warnings.map((w) => w.message)).toContain(
      'unknown handler type "rule" (command or http); this handler is skipped',
    );
  });
});

describe('[G-CEL-2] a rule that errs or runs out is a hook error that follows failMode', () => {
  it('a runtime error (a missing key): closed denies with the cause, open gives no opinion and is recorded', async () => {
    const closed = setup(
      pre('Bash', rule('input.timeout > 5.0', { decision: 'deny', reason: 'slow', failMode: 'closed' })),
    );
    const d = await decide(closed, 'ls');
    expect(d.decision).toBe('deny');
    expect(d.reason).toBe(
      'hook failed (rule error: no such key: timeout (test for a key with has() first)); failMode "closed" blocks',
    );
    expect(d.runs[0]).toMatchObject({
      outcome: 'error',
      cause: 'rule_error',
      failed: 'closed',
      decision: 'deny',
    });

    const open = setup(pre('Bash', rule('input.timeout > 5.0', { decision: 'deny', reason: 'slow' })));
    const o = await decide(open, 'ls');
    expect(o).toMatchObject({ decision: 'allow', blocked: false });
    expect(o.runs[0]).toMatchObject({ outcome: 'error', cause: 'rule_error', failed: 'open' });
    // Never silent: hookwerk hook names the failed rule on stderr, every call.
    const reply = await hook(open, bashCall(open, 'ls'));
    expect(reply.stdout).toBe('');
    expect(reply.stderr).toContain(
      `hookwerk: policy rule failed: rule error: no such key: timeout (test for a key with has() first) (hook "rule: input.timeout > 5.0", ${open.policy}#/hooks/PreToolUse/0/hooks/0): no opinion`,
    );
  });

  it('a rule whose value is not a bool is an error too', async () => {
    const s = setup(
      pre('Bash', rule('input.command', { decision: 'deny', reason: 'r', onFailure: 'block' })),
    );
    const d = await decide(s, 'ls');
    expect(d.decision).toBe('deny');
    expect(d.runs[0]).toMatchObject({
      cause: 'rule_error',
      reason: "rule error: the condition's value is of type string, not bool",
    });
  });

  it('the budget: a comprehension over a large input runs out, and a closed rule denies', async () => {
    const s = setup({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Edit',
            hooks: [
              rule('input.edits.all(a, input.edits.all(b, a != b || a == b))', {
                decision: 'deny',
                reason: 'r',
                failMode: 'closed',
              }),
            ],
          },
        ],
      },
    });
    const e = await engine(s);
    const edits = Array.from({ length: 3000 }, (_, i) => `edit ${i}`);
    const d = await e.decide('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: 'a', edits } });
    if (!('continue' in d)) throw new Error('not a policy decision');
    expect(d.decision).toBe('deny');
    // The step limit or the clock, whichever comes first on this machine: the same hook error.
    expect(d.runs[0]).toMatchObject({ outcome: 'timeout', cause: 'rule_budget', failed: 'closed' });
    expect(d.runs[0]?.reason).toMatch(
      /^rule ran out of its budget \((over 100000 comprehension steps|10 ms)\)$/,
    );
  });
});

describe('[G-CEL-3] a rule that does not compile is an error of its file [G-FAIL-1]', () => {
  const cases: ReadonlyArray<[what: string, handler: unknown, line: string]> = [
    [
      'a syntax error',
      rule('tool == "Bash" &&', { decision: 'deny', reason: 'r' }),
      '$.hooks.PreToolUse[0].hooks[0].when: CEL syntax error at 1:',
    ],
    [
      'a condition over 4 KiB',
      rule(`tool == "${'x'.repeat(4100)}"`, { decision: 'deny', reason: 'r' }),
      `$.hooks.PreToolUse[0].hooks[0].when: the condition is ${4100 + 'tool == ""'.length} bytes long; a rule's "when" may be at most 4096`,
    ],
    [
      'an unknown variable',
      rule('tol == "Bash"', { decision: 'deny', reason: 'r' }),
      '$.hooks.PreToolUse[0].hooks[0].when: unknown variable "tol"',
    ],
    [
      'a deny without a reason',
      rule(PUSH, { decision: 'deny' }),
      '$.hooks.PreToolUse[0].hooks[0].reason: a "deny" rule needs a reason',
    ],
    [
      'no decision and no context',
      rule(PUSH),
      '$.hooks.PreToolUse[0].hooks[0]: a rule needs a "decision" ("deny", "ask" or "allow") or an "additionalContext"',
    ],
    [
      'a decision hookwerk does not know',
      rule(PUSH, { decision: 'block', reason: 'r' }),
      '$.hooks.PreToolUse[0].hooks[0].decision: decision must be "deny", "ask" or "allow"',
    ],
    [
      'a timeout (a rule is bounded by its budget)',
      rule(PUSH, { decision: 'deny', reason: 'r', timeout: 5 }),
      '$.hooks.PreToolUse[0].hooks[0].timeout: unknown key "timeout"',
    ],
  ];
  for (const [what, handler, line] of cases) {
    it(`${what}: the gate denies naming the file, the JSON path and the reason`, async () => {
      const s = setup(pre('Bash', handler));
      const d = await decide(s, 'ls');
      expect(d.decision).toBe('deny');
      expect(d.reason).toContain(`hookwerk: ~/.hookwerk/policy.json: ${line}`);
      expect(d.reason).toMatch(/ — fix it, or check it with hookwerk validate$/);
      expect(d.runs).toEqual([expect.objectContaining({ outcome: 'policy_error' })]);
    });
  }

  it('hookwerk hook denies with it; validate and install name it and fail', async () => {
    const s = setup(pre('Bash', rule('tool == "Bash" &&', { decision: 'deny', reason: 'r' })));
    const reply = await hook(s, bashCall(s, 'ls'));
    expect(specific(reply.stdout)).toMatchObject({ permissionDecision: 'deny' });
    expect(specific(reply.stdout).permissionDecisionReason).toMatch(
      /^hookwerk: ~\/\.hookwerk\/policy\.json: \$\.hooks\.PreToolUse\[0\]\.hooks\[0\]\.when: CEL syntax error at 1:\d+: /,
    );
    const validate = await runCli(['validate', '--dialect', 'policy', '--project', s.project], {
      home: s.home,
    });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(
      `${s.policy}: $.hooks.PreToolUse[0].hooks[0].when: CEL syntax error at 1:`,
    );
    const install = await runCli(['install', '--agent', 'claude', '--project', s.project], { home: s.home });
    expect(install.code).toBe(1);
    expect(install.stderr).toContain('$.hooks.PreToolUse[0].hooks[0].when: CEL syntax error at 1:');
    expect(existsSync(path.join(s.project, '.claude', 'settings.json'))).toBe(false);
  });

  it('a decision the event cannot act on is a warning, never an error', () => {
    const problems = policyProblems('p.json', {
      hooks: {
        Notification: [{ hooks: [rule('true', { decision: 'deny', reason: 'r' })] }],
        Stop: [{ hooks: [rule('true', { decision: 'ask', reason: 'r' })] }],
      },
    });
    expect(problems).toEqual([
      {
        file: 'p.json',
        path: '$.hooks.Notification[0].hooks[0].decision',
        message: "Notification cannot block: this rule's deny is recorded, and changes nothing",
        level: 'warning',
      },
      {
        file: 'p.json',
        path: '$.hooks.Stop[0].hooks[0].decision',
        message:
          'decision "ask" only means something on PreToolUse (and "allow" on PermissionRequest): on Stop this rule gives no opinion',
        level: 'warning',
      },
    ]);
  });
});

describe('the fast path and the real processes [R-HOOK-1, R-HOOK-2, R-HOOK-4]', () => {
  it('hookwerk hook --agent claude|codex: deny, ask, an explicit allow, and no opinion; rules are indexed', async () => {
    const s = setup(
      pre(
        'Bash',
        rule(PUSH, { decision: 'deny', reason: 'no pushing' }),
        rule('input.command.startsWith("npm publish")', { decision: 'ask', reason: 'publish?' }),
        rule('input.command == "npm test"', { decision: 'allow' }),
      ),
    );
    const claude = async (command: string) => {
      const r = await hookProcess(s, bashCall(s, command), 'claude');
      expect(r.code).toBe(0);
      return r.stdout;
    };
    // The first call finds no index, loads the policy and writes one, where a rule is an entry like
    // a hook's (its matcher, closed or not): the next calls trust it and still reach the engine.
    expect(specific(await claude('git push'))).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no pushing',
    });
    const indexDir = path.join(s.home, '.hookwerk', 'cache', 'policy-index');
    const [indexFile] = readdirSync(indexDir);
    const index = JSON.parse(readFileSync(path.join(indexDir, indexFile ?? ''), 'utf8'));
    expect(index.events).toEqual([
      [
        'PreToolUse',
        [
          { matcher: 'Bash', closed: false },
          { matcher: 'Bash', closed: false },
          { matcher: 'Bash', closed: false },
          // [T-SELF-1] self-protect, on by default: the tools it looks at reach the engine, closed.
          {
            matcher:
              'Bash|Delete|Edit|Glob|Grep|LS|MultiEdit|NotebookEdit|NotebookRead|Read|Write|apply_patch',
            closed: true,
          },
        ],
      ],
    ]);
    expect(specific(await claude('npm publish'))).toMatchObject({
      permissionDecision: 'ask',
      permissionDecisionReason: 'publish?',
    });
    // An explicit allow passes on as allow; no opinion is Claude Code's empty answer [R-HOOK-2].
    expect(specific(await claude('npm test'))).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
    });
    expect(await claude('ls')).toBe('');
    // Codex: a deny as Codex reads it; an allow without a rewrite is its "no opinion".
    const codex = await hookProcess(s, bashCall(s, 'git push'), 'codex');
    expect(specific(codex.stdout)).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no pushing',
    });
    expect((await hookProcess(s, bashCall(s, 'npm test'), 'codex')).stdout.trim()).toBe('{}');
  });
});

describe('[G-CEL-1] CEL is loaded only when a rule is compiled', () => {
  it("the hook's bundle does not hold it", () => {
    const bundle = readFileSync(path.join(REPO, 'dist', 'cli', 'hook-bundle.js'), 'utf8');
    expect(bundle).not.toContain('@bufbuild');
    expect(bundle).not.toContain('cel-library');
  });

  it('a cold hookwerk hook whose policy has no rule never loads it; one with a rule does (the probe works)', async () => {
    // NODE_DEBUG=module names every CommonJS module loaded, which is how the modules load CEL
    // (HOOKWERK_COLD_BUNDLE=off: the cold bundle holds CEL as one of its lazy parts [G-PERF-1]).
    const loads = (stderr: string) => stderr.split('\n').filter((l) => l.includes('@bufbuild/cel/dist'));
    const noRule = setup(pre('Bash', { type: 'command', command: 'exit 0' }));
    const without = await hookProcess(noRule, bashCall(noRule, 'git push'), 'claude', {
      NODE_DEBUG: 'module',
      HOOKWERK_COLD_BUNDLE: 'off',
    });
    expect(without.stderr).toContain('MODULE');
    expect(loads(without.stderr)).toEqual([]);
    const withRule = setup(pre('Bash', rule(PUSH, { decision: 'deny', reason: 'no' })));
    const loaded = await hookProcess(withRule, bashCall(withRule, 'git push'), 'claude', {
      NODE_DEBUG: 'module',
      HOOKWERK_COLD_BUNDLE: 'off',
    });
    expect(specific(loaded.stdout)).toMatchObject({ permissionDecision: 'deny' });
    expect(loads(loaded.stderr).length).toBeGreaterThan(0);
  });
});
