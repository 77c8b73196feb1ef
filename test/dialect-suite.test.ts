/**
 * One suite over every entry of the dialect tables (issue 31), as a router library runs one suite
 * over all its routers: each gate dialect of GATE_DIALECTS loads its own files, lets a guard deny
 * and allow, applies its matcher, kills a hook at its timeout (and what the hook started), fails
 * closed on request, names a broken file with its JSON path, refuses an unknown event, keeps project
 * hooks for consent, and explains a selection — through `engine.decide` and the real CLI. Each agent
 * of HOOK_AGENTS answers a guard through `hookwerk hook` in its own protocol. The cases that start
 * hook processes run twice, the second time through the Node launcher [X-PROC-1] (a machine without
 * a C compiler), so CI needs no second pass over whole files. Per-dialect facts are in
 * dialect-fixtures.ts; what a dialect does not have is named in its SKIPS table.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookInputError } from '../src/core/errors.ts';
import { isCallProblem } from '../src/dialects/agent/hook-agent.ts';
import { GATE_DIALECTS, type GateDialect, loadGateDialect } from '../src/dialects/gate-dialects.ts';
import { agentEventOf, HOOK_AGENTS, type HookAgentName } from '../src/dialects/hook-agents.ts';
import { createHookEngine } from '../src/engine.ts';
import type { GateDecision, HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { silentLogger } from '../src/records/logger.ts';
import { runCli, STACK } from './cli-runner.ts';
import {
  GATE_CASES,
  GATE_FIXTURES,
  type GateCase,
  type GateFixture,
  HOOK_FIXTURES,
  type Hook,
  type Input,
  type Place,
  SKIPS,
} from './dialect-fixtures.ts';
import { processAlive } from './helpers.ts';
import { trustInProcess } from './trust-in-process.ts';

// ---------------------------------------------------------------------------------------------
// helpers (concurrent-safe: each test owns its folders and engines; nothing is shared)

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place(name: string): Place {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), `hw-ds-${name}-`)));
  scratch.push(root);
  const p = {
    project: path.join(root, 'project'),
    home: path.join(root, 'home'),
    system: path.join(root, 'etc'),
  };
  for (const dir of Object.values(p)) mkdirSync(dir);
  return p;
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
}

const REASON = 'no rm -rf here';
/** A guard every dialect runs unchanged: exit 2 with a stderr reason on `rm -rf`, else `allow`. */
const guard = (fx: GateFixture): Hook => ({
  command: `input=$(cat); case "$input" in *'rm -rf'*) echo '${REASON}' >&2; exit 2;; esac; ${fx.allow}`,
});

/**
 * Cases that run the CLI several times: a budget for a loaded 2-core machine with the other test
 * files running (each CLI start costs a few hundred ms of CPU). A budget, not a threshold.
 */
const CLI_BUDGET_MS = 120_000;

type Launcher = 'auto' | 'node';
/** The launchers the process cases run under: the default, and the Node one [X-PROC-1]. */
const LAUNCHERS: readonly Launcher[] = ['auto', 'node'];
const launcherEnv = (l: Launcher): Record<string, string> =>
  l === 'node' ? { HOOKWERK_LAUNCHER: 'node' } : {};

/** An engine for `name` over `p`, closed when `fn` is done. Consent is granted unless `realTrust`. */
async function withEngine<T>(
  name: GateDialect,
  p: Place,
  opts: { launcher?: Launcher; realTrust?: boolean },
  fn: (engine: HookEngine) => Promise<T>,
): Promise<T> {
  const options: HookEngineOptions = {
    ...GATE_FIXTURES[name].options(p),
    watch: false,
    logger: silentLogger,
    ...(opts.launcher === 'node' ? { launcher: 'node' } : {}),
    ...(opts.realTrust ? {} : { trust: () => ({ trusted: true, reason: 'test' }) }),
  };
  const engine = await createHookEngine(options);
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

function cli(
  name: GateDialect,
  p: Place,
  args: string[],
  more: { stdin?: Input; env?: Record<string, string> } = {},
) {
  return runCli(args, {
    home: p.home,
    env: { ...GATE_FIXTURES[name].cliEnv(p), ...more.env },
    ...(more.stdin !== undefined ? { stdin: { text: JSON.stringify(more.stdin) } } : {}),
  });
}

/** `hookwerk decide PRE --dialect NAME` with the input on stdin: exit code and the decision. */
async function cliDecide(name: GateDialect, p: Place, input: Input) {
  const fx = GATE_FIXTURES[name];
  const args = ['decide', fx.pre, '--dialect', name, '--project', p.project];
  const r = fx.contextFlag
    ? await cli(name, p, [...args, '--context', JSON.stringify(input)])
    : await cli(name, p, args, { stdin: input });
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stdout.split('\n'), r.stdout + r.stderr).toHaveLength(2);
  const d: GateDecision = JSON.parse(r.stdout);
  return { code: r.code, stderr: r.stderr, d };
}

/**
 * `hookwerk trust --yes` through the real CLI: the consent case approves this way; the cases where
 * approving is set-up call trustInProcess (a CLI start is ~0.4 s of CPU).
 */
async function cliTrust(name: GateDialect, p: Place): Promise<void> {
  const r = await cli(name, p, ['trust', '--yes', '--project', p.project]);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

const projectFile = (fx: GateFixture, p: Place) => path.join(p.project, fx.projectFile);
const userFile = (fx: GateFixture, p: Place) => path.join(p.home, fx.userFile);

function onlyRun(d: GateDecision) {
  expect(d.runs).toHaveLength(1);
  const run = d.runs[0];
  if (run === undefined) throw new Error('no run');
  return run;
}

const skipOf = (name: GateDialect, c: GateCase) => SKIPS.find((s) => s.dialect === name && s.case === c);

// ---------------------------------------------------------------------------------------------
// the tables and the fixtures

const GATE_NAMES = Object.keys(GATE_DIALECTS).filter((n): n is GateDialect =>
  Object.hasOwn(GATE_FIXTURES, n),
);
const AGENT_NAMES = Object.keys(HOOK_AGENTS).filter((n): n is HookAgentName =>
  Object.hasOwn(HOOK_FIXTURES, n),
);

describe('the shared suite covers every table entry', () => {
  it('every gate dialect and every hook agent has a fixture; every skip names a dialect and a case', () => {
    expect(GATE_NAMES).toEqual(Object.keys(GATE_DIALECTS));
    expect(AGENT_NAMES).toEqual(Object.keys(HOOK_AGENTS));
    for (const s of SKIPS) {
      expect(GATE_NAMES).toContain(s.dialect);
      expect(GATE_CASES).toContain(s.case);
      expect(s.because).not.toBe('');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// gate dialects

describe.concurrent.each(GATE_NAMES)('gate dialect %s: the shared cases', (name) => {
  const fx = GATE_FIXTURES[name];
  const gate = (c: GateCase) => (skipOf(name, c) === undefined ? it : undefined);

  for (const s of SKIPS.filter((k) => k.dialect === name)) {
    it(`[skipped] ${s.case}: ${name} has none because ${s.because}`, () => {
      expect(GATE_CASES).toContain(s.case);
    });
  }

  gate('guard')?.each(LAUNCHERS)(
    '[C-ANS-2] [C-MATCH-1] [X-PROC-1] its project file loads; a guard denies `rm -rf` with its reason, lets `ls` run, and the matcher keeps it off another tool (launcher %s)',
    async (launcher) => {
      const p = place(name);
      writeJson(projectFile(fx, p), fx.file([guard(fx)], fx.matcher));
      await withEngine(name, p, { launcher }, async (engine) => {
        expect(engine.gate.config.issues).toEqual([]);
        const denied = await engine.decide(fx.pre, fx.call(fx.shellTool, 'rm -rf /tmp/x'));
        expect(denied).toMatchObject({ decision: 'deny', blocked: true, reason: fx.exit2Reason(REASON) });
        expect(onlyRun(denied)).toMatchObject({ dialect: name, decision: 'deny' });
        const allowed = await engine.decide(fx.pre, fx.call(fx.shellTool, 'ls'));
        expect(allowed).toMatchObject({ decision: 'allow', blocked: false });
        expect(onlyRun(allowed)).toMatchObject({ dialect: name, outcome: 'ok' });
        const other = await engine.decide(fx.pre, fx.call(fx.otherTool, 'rm -rf /tmp/x'));
        expect(other).toMatchObject({ decision: 'allow', blocked: false, runs: [] });
      });
    },
  );

  gate('timeout')?.each(LAUNCHERS)(
    '[C-RUN-4] [G-FAIL-4] a hook that printed a deny and outlives its timeout (in the dialect’s unit) is killed with the child it started; the call is allowed, recorded as timeout (launcher %s)',
    async (launcher) => {
      const p = place(name);
      const pidFile = path.join(p.project, 'bg.pid');
      const slow = {
        command: `${fx.printedDeny}; sleep 30 & echo $! > '${pidFile}'; wait`,
        extra: fx.timeout,
      };
      writeJson(projectFile(fx, p), fx.file([slow], fx.matcher));
      await withEngine(name, p, { launcher }, async (engine) => {
        expect(engine.gate.config.hooks.map((h) => h.timeoutMs)).toEqual([fx.timeoutMs]);
        // The test itself would time out (30 s) if the sleep were waited for.
        const d = await engine.decide(fx.pre, fx.call(fx.shellTool, 'rm -rf /tmp/x'));
        expect(d).toMatchObject({
          decision: 'allow',
          blocked: false,
          ...(name === 'lurus' ? {} : { continue: true }),
        });
        expect(onlyRun(d)).toMatchObject({
          outcome: 'timeout',
          cause: 'timeout',
          failed: 'open',
          decision: 'allow',
        });
        const pid = Number(readFileSync(pidFile, 'utf8').trim());
        expect(pid).toBeGreaterThan(0);
        await waitUntil(() => !processAlive(pid), `background sleep ${pid} to be killed`);
      });
    },
  );

  gate('fail-closed')?.each(LAUNCHERS)(
    '[C-RUN-4] [G-FAIL-4] with its fail-closed switch the same timeout denies, in the engine and (once) through `hookwerk decide` (input on stdin, Lurus `--context`; exit 2) (launcher %s)',
    async (launcher) => {
      const p = place(name);
      const slow = { command: 'sleep 30', extra: { ...fx.timeout, ...fx.closed } };
      writeJson(projectFile(fx, p), fx.file([slow], fx.matcher));
      await withEngine(name, p, { launcher }, async (engine) => {
        const d = await engine.decide(fx.pre, fx.call(fx.shellTool, 'ls'));
        expect(d).toMatchObject({ decision: 'deny', blocked: true });
        expect(d.reason).toMatch(fx.closedReason);
        expect(onlyRun(d)).toMatchObject({ outcome: fx.closedOutcome, failed: 'closed', decision: 'deny' });
      });
      // The CLI once: `hookwerk hook` runs through the Node launcher in the hook agents' cases.
      if (launcher === 'node') return;
      await trustInProcess(p.project, p.home);
      const c = await cliDecide(name, p, fx.call(fx.shellTool, 'ls'));
      expect(c.code).toBe(2);
      expect(c.d).toMatchObject({ decision: 'deny', blocked: true });
      expect(onlyRun(c.d)).toMatchObject({ outcome: fx.closedOutcome, failed: 'closed' });
    },
    CLI_BUDGET_MS,
  );

  gate('invalid config')?.(
    '[C-SRC-3] [G-FAIL-1] [G-FAIL-5] a user file that is not JSON is named (file, `$`); a wrong value is named with its JSON path; validate exits 1, decide reports the file as `~/…`',
    async () => {
      const p = place(name);
      writeJson(projectFile(fx, p), fx.file([guard(fx)], fx.matcher));
      // Approved first: a person approves nothing while one of the files does not parse.
      await trustInProcess(p.project, p.home);
      writeJson(userFile(fx, p), '{ "hooks": nope');
      await withEngine(name, p, {}, async (engine) => {
        const d = await engine.decide(fx.pre, fx.call(fx.shellTool, 'rm -rf /tmp/x'));
        expect(d.blocked).toBe(true);
        if (fx.brokenFile === 'skipped') {
          expect(engine.gate.config.issues).toEqual([
            { file: userFile(fx, p), path: '$', message: expect.stringContaining('invalid JSON') },
          ]);
          // The other sources still run: the project's guard decided.
          expect(d.reason).toBe(fx.exit2Reason(REASON));
        } else {
          // [G-FAIL-1] A strict file that cannot be used closes the gate: even `ls` is denied.
          const ls = await engine.decide(fx.pre, fx.call(fx.shellTool, 'ls'));
          expect(ls.blocked).toBe(true);
          expect(ls.reason).toContain(fx.userFile);
        }
      });

      const c = await cliDecide(name, p, fx.call(fx.shellTool, 'ls'));
      expect(c.stderr).toContain(`hookwerk: skipped source: ~/${fx.userFile}: `);
      expect(c.stderr).not.toContain(p.home);
      expect(c.code).toBe(fx.brokenFile === 'skipped' ? 0 : 2);

      writeJson(
        projectFile(fx, p),
        fx.file([{ ...guard(fx), extra: { [fx.timeoutPath.field]: 'soon' } }], fx.matcher),
      );
      const v = await cli(name, p, ['validate', '--dialect', name, '--project', p.project]);
      expect(v.code).toBe(1);
      expect(v.stderr).not.toMatch(STACK);
      expect(v.stderr).toContain(`${userFile(fx, p)}: $: invalid JSON`);
      expect(v.stderr).toContain(`${projectFile(fx, p)}: ${fx.timeoutPath.path}: `);
    },
    CLI_BUDGET_MS,
  );

  gate('unknown event')?.(
    '[C-CLI-1] an event the dialect does not have: decide() rejects with a HookInputError (field `event`) naming its events; the CLI exits 1 with that one line, no stack',
    async () => {
      const p = place(name);
      await withEngine(name, p, {}, async (engine) => {
        const err = await engine.decide('NoSuchEvent', {}).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(HookInputError);
        expect(err).toMatchObject({ field: 'event', message: expect.stringContaining(fx.unknownEvent) });
      });
      const r = await cli(name, p, [
        'decide',
        'NoSuchEvent',
        '--dialect',
        name,
        '--project',
        p.project,
        '--input',
        '{}',
      ]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^hookwerk: /);
      expect(r.stderr).toContain(fx.unknownEvent);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK);
    },
    CLI_BUDGET_MS,
  );

  gate('consent')?.(
    '[C-SRC-4] [L-TRUST-1] project hooks are skipped_untrusted (never run) until `hookwerk trust --yes`; then the guard denies through the CLI (exit 2)',
    async () => {
      const p = place(name);
      // Outside the project: a file the hook changes there would void the approval of its answer.
      const ran = path.join(p.system, 'ran');
      writeJson(
        projectFile(fx, p),
        fx.file([{ command: `touch '${ran}'; ${guard(fx).command}` }], fx.matcher),
      );
      await withEngine(name, p, { realTrust: true }, async (engine) => {
        const d = await engine.decide(fx.pre, fx.call(fx.shellTool, 'rm -rf /tmp/x'));
        expect(d.blocked).toBe(false);
        expect(onlyRun(d)).toMatchObject({ outcome: 'skipped_untrusted' });
      });
      expect(existsSync(ran)).toBe(false);
      await cliTrust(name, p);
      const c = await cliDecide(name, p, fx.call(fx.shellTool, 'rm -rf /tmp/x'));
      expect(c.code).toBe(2);
      expect(c.d).toMatchObject({ blocked: true, reason: fx.exit2Reason(REASON) });
      expect(existsSync(ran)).toBe(true);
    },
    CLI_BUDGET_MS,
  );

  gate('explain')?.(
    '[C-CLI-1] explain --dialect NAME --tool T names the event, the dialect and the matched field; the hook RUNS for the shell tool; for another the matcher "does not match", with the file it is from',
    async () => {
      const p = place(name);
      writeJson(userFile(fx, p), fx.file([{ command: 'echo explained' }], fx.matcher));
      const field = (await loadGateDialect(name)).matchField(fx.pre);
      // Lurus is the default dialect: its header does not name it.
      const header = (tool: string) =>
        `${fx.pre}${name === 'lurus' ? '' : ` (${name})`} with ${field} "${tool}":`;
      const explain = async (tool: string) => {
        const r = await cli(name, p, [
          'explain',
          fx.pre,
          '--dialect',
          name,
          '--project',
          p.project,
          '--tool',
          tool,
        ]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.split('\n')[0]).toBe(header(tool));
        expect(r.stdout).toContain(`from ~/${fx.userFile}#`);
        return r.stdout.split('\n');
      };
      const yes = await explain(fx.shellTool);
      expect(yes.find((l) => l.includes('echo explained'))).toMatch(/RUNS\s+echo explained/);
      const no = await explain(fx.otherTool);
      expect(no.find((l) => l.includes('echo explained'))).toMatch(/no match\s+echo explained/);
      expect(no).toContain(`      matcher "${fx.matcher}" does not match "${fx.otherTool}"`);
    },
    CLI_BUDGET_MS,
  );
});

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// ---------------------------------------------------------------------------------------------
// hook agents: `hookwerk hook --agent NAME`

/** A user policy (trusted, no consent): the guard, as Claude Code hooks [R-POL-1]. */
const POLICY = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: `input=$(cat); case "$input" in *'rm -rf'*) echo '${REASON}' >&2; exit 2;; esac; exit 0`,
          },
        ],
      },
    ],
  },
};

describe.concurrent.each(AGENT_NAMES)(
  'hook agent %s: `hookwerk hook` answers in its own protocol',
  (name) => {
    const agent = HOOK_AGENTS[name];
    const event = agentEventOf(agent, 'PreToolUse');

    it.each(LAUNCHERS)(
      '[R-HOOK-1] [R-HOOK-2] [X-PROC-1] the policy’s guard denies `rm -rf` as the agent reads a deny, with the reason; `ls` gets its "no objection" (launcher %s)',
      async (launcher) => {
        const p = place(`hook-${name}`);
        writeJson(path.join(p.home, '.hookwerk', 'policy.json'), POLICY);
        const ask = async (command: string) => {
          const input = { ...HOOK_FIXTURES[name].call(command), cwd: p.project, session_id: 's1' };
          const named = agent.install.needsEventFlag ? event : undefined;
          const args = ['hook', '--agent', name, ...(named !== undefined ? ['--event', named] : [])];
          const given = agent.install.needsEventFlag ? input : { ...input, hook_event_name: event };
          const r = await runCli(args, {
            cwd: p.project,
            home: p.home,
            env: launcherEnv(launcher),
            stdin: { text: JSON.stringify(given) },
          });
          expect(r.stderr).not.toMatch(STACK);
          const call = agent.toClaude(given, named, { HOME: p.home });
          if (isCallProblem(call)) throw new Error(call.problem);
          return agent.readReply(call, { stdout: r.stdout, stderr: r.stderr, exitCode: r.code ?? -1 });
        };
        const denied = await ask('rm -rf /tmp/x');
        expect(denied.verdict).toBe('deny');
        expect(denied.reason).toContain(REASON);
        expect(await ask('ls')).toEqual({ verdict: 'none' });
      },
      CLI_BUDGET_MS,
    );
  },
);
