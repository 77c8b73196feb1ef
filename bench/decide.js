// 5–8. The gate: decide() cost on the caller, and command / HTTP hooks against their raw baselines.
//
//   no match     decide('PreToolUse', {toolName:'Read'}) with one hook whose matcher is ^Write$
//   in-process   decide() with one in-process hook that allows
//   regex        the same, behind the matcher ^mcp__.+__(write|edit)$ (not a plain-string shape, so it
//                runs on the linear-time engine re2js: the matcher's own cost on top of in-process)
//   (baseline for both: awaiting an async function that returns a constant: the floor of any async API)
//   command      one command hook (sh -c 'cat >/dev/null; echo {"decision":"allow"}') vs a raw
//                spawn('/bin/sh', ['-c', same]) with the same stdin and stdout, interleaved call by call
//   http         one HTTP hook vs undici.request() (own keep-alive Agent) to the same loopback server
//   claude       one Claude Code command hook (gateDialect 'claude': .claude/settings.json, the input
//                object on stdin, a hookSpecificOutput answer) vs the same raw sh -c spawn with the
//                same stdin and the same environment, interleaved call by call
//   cel          5 CEL `rule` handlers of a policy decided in-process (p50) vs the same decide with
//                a policy that has no rule; one rule's evaluation, and its compile (once, at load)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { createHookEngine } from '../dist/index.js';
import { fmtRatio, fmtUs, median, nowUs, progress, quietLogger, timeBatches, verdict } from './lib.js';

const ALLOW = '{"decision":"allow"}';
const COMMAND = `cat >/dev/null; echo '${ALLOW}'`;
const trustAll = () => ({ trusted: true, reason: 'bench' });

function project(hooks) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-decide-'));
  mkdirSync(path.join(dir, '.lurus'));
  writeFileSync(path.join(dir, '.lurus', 'hooks.json'), JSON.stringify(hooks));
  const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-home-'));
  return {
    dir,
    home,
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** An engine for a bench project: no watching, consent granted (consent is not what is measured). */
function gateEngine(p) {
  return createHookEngine({
    projectDir: p.dir,
    home: p.home,
    watch: false,
    logger: quietLogger,
    trust: trustAll,
  });
}

/**
 * Median over `rounds` of the mean µs per awaited call, n calls per round. The warm-up is long (it
 * costs ~50 ms): a fresh process runs its first major GC some 20 000 calls in, and while V8 marks
 * concurrently every call costs about twice as much, for a few rounds; that is start-up, not the
 * steady state an agent lives in.
 */
async function awaitedCost(fn, { n = 2000, rounds = 31, warmup = 50_000 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const per = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = nowUs();
    for (let i = 0; i < n; i++) await fn();
    per.push((nowUs() - t0) / n);
  }
  return median(per);
}

const constant = { decision: 'allow', blocked: false, runs: [] };
async function asyncFloor() {
  return constant;
}

/** Interleaves two async sides call by call for `rounds` rounds; returns the medians of round means. */
async function interleaved(a, b, { n, rounds, warmup }) {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const means = { a: [], b: [] };
  for (let r = 0; r < rounds; r++) {
    const sum = { a: 0, b: 0 };
    const order = r % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    for (let i = 0; i < n; i++) {
      for (const side of order) {
        const t0 = nowUs();
        await (side === 'a' ? a() : b());
        sum[side] += nowUs() - t0;
      }
    }
    means.a.push(sum.a / n);
    means.b.push(sum.b / n);
  }
  return { a: median(means.a), b: median(means.b), ratios: means.a.map((x, i) => x / means.b[i]) };
}

/**
 * A table row for an interleaved hookwerk-vs-baseline pair (`interleaved()`), ratios logged per
 * round. The ratio and verdict are the median of the per-round ratios: both sides of a round see
 * the same drift of the machine, which the ratio of the two medians mixes across rounds (shown too).
 */
function pairedRow(name, benchmark, r, baselineIs, maxRatio) {
  progress(`decide/${name}: per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
  const paired = median(r.ratios);
  return {
    benchmark,
    hookwerk: fmtUs(r.a),
    baseline: `${fmtUs(r.b)} (${baselineIs}; ratio of the medians ${fmtRatio(r.a / r.b)})`,
    ratio: fmtRatio(paired),
    target: `≤ ${maxRatio}× (paired per round)`,
    verdict: verdict(paired <= maxRatio),
  };
}

function rawShell(cwd, input, command = COMMAND, env = { PATH: process.env.PATH }) {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env,
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => (out.includes('allow') ? resolve() : reject(new Error(out))));
    child.stdin.end(input);
  });
}

/** `hookwerk trust --yes` in `dir` with HOME = `home`: the approval a user gives. */
function approveWithCli(dir, home) {
  const bin = fileURLToPath(new URL('../bin/hookwerk.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'trust', '--yes'], {
      cwd: dir,
      env: { ...process.env, HOME: home },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`hookwerk trust exited ${code}`)),
    );
  });
}

const CLAUDE_ALLOW = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}';
const CLAUDE_COMMAND = `cat >/dev/null; echo '${CLAUDE_ALLOW}'`;

export async function run() {
  const rows = [];
  const context = { toolName: 'Write', toolInput: { path: 'a.txt', content: 'hello' } };

  // decide() with nothing that matches, and with one in-process hook.
  {
    const p = project({
      PreToolUse: [{ matcher: '^Write$', hooks: [{ type: 'command', command: COMMAND }] }],
    });
    const engine = await gateEngine(p);
    try {
      const readCtx = { toolName: 'Read', toolInput: { path: 'a.txt' } };
      // The floor is measured before and after (JIT warm-up makes the first figure noisy); the lower counts.
      let floor = await awaitedCost(asyncFloor);
      const noMatch = await awaitedCost(() => engine.decide('PreToolUse', readCtx));
      floor = Math.min(floor, await awaitedCost(asyncFloor));
      rows.push({
        benchmark: 'decide() with no matching hook (awaited; median of 31 rounds × 2000)',
        hookwerk: fmtUs(noMatch),
        baseline: `${fmtUs(floor)} (await of an async fn returning a constant)`,
        ratio: fmtRatio(noMatch / floor),
        target: '≤ 1 µs',
        verdict: verdict(noMatch <= 1),
      });
      engine.use('UserPromptSubmit', {}, () => ({ decision: 'allow' }));
      const promptCtx = { prompt: 'hello' };
      const inProcess = await awaitedCost(() => engine.decide('UserPromptSubmit', promptCtx));
      const d = await engine.decide('UserPromptSubmit', promptCtx);
      if (d.runs.length !== 1 || d.runs[0].outcome !== 'ok')
        throw new Error(`in-process: ${JSON.stringify(d)}`);
      rows.push({
        benchmark: 'decide() with one in-process hook (awaited; record included)',
        hookwerk: fmtUs(inProcess),
        baseline: `${fmtUs(floor)} (await of an async fn returning a constant)`,
        ratio: fmtRatio(inProcess / floor),
        target: '≤ 1.2 µs',
        verdict: verdict(inProcess <= 1.2),
      });
      // [L-MATCH-4] The same in-process hook behind a regex matcher that runs on re2js (a plain
      // alternation like ^(Edit|Write)$ would take the string fast path and cost next to nothing).
      const REGEX_MATCHER = '^mcp__.+__(write|edit)$';
      engine.use('PostToolUse', { matcher: REGEX_MATCHER }, () => ({ decision: 'allow' }));
      const mcpCtx = { toolName: 'mcp__github__write', toolInput: { path: 'a.txt' } };
      const behindRegex = await awaitedCost(() => engine.decide('PostToolUse', mcpCtx));
      const r = await engine.decide('PostToolUse', mcpCtx);
      if (r.runs.length !== 1 || r.runs[0].outcome !== 'ok')
        throw new Error(`regex matcher: ${JSON.stringify(r)}`);
      rows.push({
        benchmark: `decide() with one in-process hook behind the regex matcher ${REGEX_MATCHER} (re2js; awaited; record included)`,
        hookwerk: fmtUs(behindRegex),
        baseline: `${fmtUs(inProcess)} (the same hook with no matcher, row above)`,
        ratio: fmtRatio(behindRegex / inProcess),
        target: '≤ 5 µs',
        verdict: verdict(behindRegex <= 5),
      });
    } finally {
      await engine.close();
      p.cleanup();
    }
  }

  // One command hook vs a raw sh -c spawn with the same stdin and stdout.
  {
    const p = project({ PreToolUse: [{ hooks: [{ type: 'command', command: COMMAND }] }] });
    const engine = await gateEngine(p);
    try {
      const input = `${JSON.stringify({ event: 'PreToolUse', context, cwd: p.dir })}\n`;
      const hook = async () => {
        const d = await engine.decide('PreToolUse', context);
        if (d.runs[0]?.outcome !== 'ok') throw new Error(`command hook: ${JSON.stringify(d.runs[0])}`);
      };
      const r = await interleaved(hook, () => rawShell(p.dir, input), { n: 25, rounds: 20, warmup: 10 });
      rows.push(
        pairedRow(
          'command',
          'decide() with one command hook (sh -c, stdin JSON, stdout answer; 20 rounds × 25, interleaved)',
          r,
          'raw spawn of sh -c, same stdin/stdout',
          // Issue 18: whatever consent costs, a gate hook run stays well under a raw spawn.
          0.75,
        ),
      );
    } finally {
      await engine.close();
      p.cleanup();
    }
  }

  // [§5] One Claude Code command hook vs a raw sh -c spawn with the same stdin and environment.
  {
    const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-claude-'));
    const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-home-'));
    mkdirSync(path.join(dir, '.claude'));
    const settings = {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: CLAUDE_COMMAND }] }] },
    };
    writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify(settings));
    const engine = await createHookEngine({
      projectDir: dir,
      home,
      gateDialect: 'claude',
      sessionId: 'bench',
      watch: false,
      logger: quietLogger,
      trust: trustAll,
    });
    try {
      const given = { tool_name: 'Bash', tool_input: { command: 'ls -la' } };
      const input = `${JSON.stringify({ ...given, hook_event_name: 'PreToolUse', session_id: 'bench', cwd: engine.gate.config.projectDir, permission_mode: 'default' })}\n`;
      const hook = async () => {
        const d = await engine.decide('PreToolUse', given);
        if (d.runs[0]?.outcome !== 'ok') throw new Error(`claude hook: ${JSON.stringify(d.runs[0])}`);
      };
      // The same environment a Claude hook gets: the engine's, plus CLAUDE_PROJECT_DIR.
      const env = { ...process.env, CLAUDE_PROJECT_DIR: engine.gate.config.projectDir };
      const r = await interleaved(hook, () => rawShell(dir, input, CLAUDE_COMMAND, env), {
        n: 25,
        rounds: 20,
        warmup: 10,
      });
      rows.push(
        pairedRow(
          'claude',
          'decide() with one Claude Code command hook (gateDialect claude; input JSON on stdin, hookSpecificOutput answer; 20 rounds × 25, interleaved)',
          r,
          'raw spawn of sh -c, same stdin and env',
          1.1,
        ),
      );
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }

  // [L-TRUST-8..9] The same Claude Code hook as a project hook under a real approval: its pins are
  // checked right before each run and what it could read is compared again right after. The
  // consent work alone is timed too (check + watch), so its cost per decide is reported on its own.
  {
    const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-approved-'));
    const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-home-'));
    mkdirSync(path.join(dir, '.claude', 'hooks', 'lib'), { recursive: true });
    writeFileSync(path.join(dir, '.claude', 'hooks', 'guard.sh'), `#!/bin/sh\n${CLAUDE_COMMAND}\n`);
    for (let i = 0; i < 8; i++)
      writeFileSync(path.join(dir, '.claude', 'hooks', 'lib', `rule-${i}.sh`), `# rule ${i}\n`);
    const command = 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh';
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } };
    writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify(settings));
    await approveWithCli(dir, home);
    const options = {
      projectDir: dir,
      home,
      gateDialect: 'claude',
      sessionId: 'bench',
      watch: false,
      logger: quietLogger,
    };
    const engine = await createHookEngine(options);
    // The same hook with consent granted by a fixed answer (no pins): what the hook costs without consent.
    const granted = await createHookEngine({ ...options, trust: trustAll });
    try {
      const projectDir = engine.gate.config.projectDir;
      const given = { tool_name: 'Bash', tool_input: { command: 'ls -la' } };
      const decideWith = (e) => async () => {
        const d = await e.decide('PreToolUse', given);
        if (d.runs[0]?.outcome !== 'ok') throw new Error(`approved hook: ${JSON.stringify(d.runs[0])}`);
      };
      const r = await interleaved(decideWith(engine), decideWith(granted), { n: 25, rounds: 20, warmup: 10 });
      rows.push(
        pairedRow(
          'approved',
          'decide() with one approved Claude Code project hook (real trust store: 15 pins checked before the run, what it could read compared after [L-TRUST-8, L-TRUST-9]; 20 rounds × 25, interleaved)',
          r,
          'the same hook and files, consent granted without pins',
          1.1,
        ),
      );
      const entry = engine.hooks('PreToolUse')[0];
      const consent = entry?.consent;
      if (consent === undefined) throw new Error('approved hook: no consent on the entry');
      const target = { command, cwd: projectDir };
      const checkAndWatch = () => {
        const check = consent.check(target);
        if (check.changed.length > 0 || check.watch?.changed() !== undefined) throw new Error('pins moved');
      };
      const checkOnly = () => {
        if (consent.check().changed.length > 0) throw new Error('pins moved');
      };
      const perCall = (fn) => {
        for (let i = 0; i < 2000; i++) fn();
        const per = [];
        for (let round = 0; round < 15; round++) {
          const t0 = nowUs();
          for (let i = 0; i < 500; i++) fn();
          per.push((nowUs() - t0) / 500);
        }
        return median(per);
      };
      const withWatch = perCall(checkAndWatch);
      const before = perCall(checkOnly);
      rows.push({
        benchmark:
          'consent work per decide of that hook: pins checked before + run watched [L-TRUST-8, L-TRUST-9] (sync, median of 15 × 500)',
        hookwerk: fmtUs(withWatch),
        baseline: `${fmtUs(before)} (the check before the run alone, as before issue 18)`,
        ratio: fmtRatio(withWatch / before),
        target: `≤ 5% of the hook run (${fmtUs(r.a * 0.05)})`,
        verdict: verdict(withWatch <= r.a * 0.05),
      });
    } finally {
      await engine.close();
      await granted.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }

  // One HTTP hook vs undici.request to the same loopback server.
  {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(ALLOW);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/hook`;
    const p = project({ PreToolUse: [{ hooks: [{ type: 'http', url }] }] });
    const engine = await gateEngine(p);
    const agent = new Agent({ connections: 16, keepAliveTimeout: 4000 });
    try {
      const body = JSON.stringify({ event: 'PreToolUse', context, cwd: p.dir });
      const hook = async () => {
        const d = await engine.decide('PreToolUse', context);
        if (d.runs[0]?.outcome !== 'ok') throw new Error(`http hook: ${JSON.stringify(d.runs[0])}`);
      };
      const raw = async () => {
        const res = await request(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
          dispatcher: agent,
        });
        const text = await res.body.text();
        if (JSON.parse(text).decision !== 'allow') throw new Error(text);
      };
      const r = await interleaved(hook, raw, { n: 300, rounds: 10, warmup: 200 });
      rows.push(
        pairedRow(
          'http',
          'decide() with one HTTP hook (loopback, keep-alive; 10 rounds × 300, interleaved)',
          r,
          'undici.request, same server',
          1.2,
        ),
      );
    } finally {
      await engine.close();
      await agent.close();
      server.close();
      p.cleanup();
    }
  }
  rows.push(...(await celRuleRows()));
  return rows;
}

/** The rules of the CEL rows: each evaluated on every call (none holds for `git status`). */
export const CEL_RULES = [
  { when: 'tool == "Bash" && input.command.contains("push")', decision: 'deny', reason: 'no pushing' },
  { when: 'input.command.startsWith("npm publish")', decision: 'ask', reason: 'publish?' },
  {
    when: 'commands.exists(c, c.name == "git" && c.positionals.size() > 0 && c.positionals[0] == "push" && "force" in c.options)',
    decision: 'deny',
    reason: 'no force push',
  },
  { when: 'has(input.timeout) && input.timeout > 600.0', decision: 'deny', reason: 'too long' },
  { when: 'glob(cwd, "/etc/**") || !inside(cwd, project)', decision: 'deny', reason: 'outside' },
];

/** A policy engine (the user's policy in a temp home) for the CEL rows. */
async function policyEngine(hooks) {
  const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-cel-'));
  const dir = path.join(home, 'project');
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(dir);
  writeFileSync(path.join(home, '.hookwerk', 'policy.json'), JSON.stringify({ hooks }));
  const engine = await createHookEngine({
    projectDir: dir,
    home,
    gateDialect: 'policy',
    watch: false,
    logger: quietLogger,
  });
  return { engine, dir, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** p50 of single awaited calls, after a warm-up. */
async function p50(fn, { n = 20_000, warmup = 20_000 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const each = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = nowUs();
    await fn();
    each[i] = nowUs() - t0;
  }
  return median(each);
}

/**
 * [G-CEL-1, G-PERF-1] `rule` handlers: 5 CEL rules on PreToolUse/Bash decided in-process (p50 of
 * single decides), against the same decide with a policy that has no rule, in the same process;
 * and what one rule costs by itself: compiling (parse, check, plan: once, at load) and evaluating
 * (each call).
 */
export async function celRuleRows() {
  const rows = [];
  const input = (cwd) => ({ tool_name: 'Bash', tool_input: { command: 'git status' }, cwd });
  const ruled = await policyEngine({
    PreToolUse: [{ matcher: 'Bash', hooks: CEL_RULES.map((r) => ({ type: 'rule', ...r })) }],
  });
  const bare = await policyEngine({});
  try {
    const check = await ruled.engine.decide('PreToolUse', input(ruled.dir));
    if (check.runs.length !== 5 || check.runs.some((r) => r.outcome !== 'ok'))
      throw new Error(`cel rules: ${JSON.stringify(check.runs)}`);
    const withRules = await p50(() => ruled.engine.decide('PreToolUse', input(ruled.dir)));
    const baseline = await p50(() => bare.engine.decide('PreToolUse', input(bare.dir)));
    rows.push({
      benchmark:
        '5 CEL rules decided in-process (PreToolUse/Bash, each rule evaluated; p50 of 20 000 decides)',
      hookwerk: fmtUs(withRules),
      baseline: `${fmtUs(baseline)} (the same decide, a policy with no rule)`,
      ratio: fmtRatio(withRules / baseline),
      target: '≤ 50 µs (G-PERF-1, in-process)',
      verdict: verdict(withRules <= 50),
    });
    // One rule by itself: compile a fresh text (the compile cache is by text), then evaluate.
    const { compileWhen } = await import('../dist/rules/cel-program.js');
    const { RULE_BOUNDS } = await import('../dist/rules/rule-bounds.js');
    const { ruleActivation } = await import('../dist/rules/rule-activation.js');
    const compileUs = [];
    for (let i = 0; i < 200; i++) {
      const rule = CEL_RULES[i % CEL_RULES.length];
      const t0 = nowUs();
      const c = compileWhen(`${rule.when} && session != "${i}"`);
      compileUs.push(nowUs() - t0);
      if ('error' in c) throw new Error(c.error);
    }
    const conditions = CEL_RULES.map((r) => compileWhen(r.when).condition);
    const vars = ruleActivation(input(ruled.dir), {
      event: 'PreToolUse',
      agent: 'claude',
      project: ruled.dir,
    });
    const places = { home: '/home/bench', project: ruled.dir };
    const evalUs = median(
      timeBatches((i) => conditions[i % conditions.length].test(vars, RULE_BOUNDS, places), {
        batchSize: 5000,
        batches: 21,
        warmup: 50_000,
      }),
    );
    progress(`decide/cel: compile ${fmtUs(median(compileUs))} per rule (median), evaluate ${fmtUs(evalUs)}`);
    rows.push({
      benchmark: 'one CEL rule: evaluated per call (mean over the 5 rules above), compiled once at load',
      hookwerk: fmtUs(evalUs),
      baseline: `compile: ${fmtUs(median(compileUs))} per rule (parse + check + plan, median of 200)`,
      ratio: '—',
      target: 'evaluate ≤ 5 µs',
      verdict: verdict(evalUs <= 5),
    });
  } finally {
    await ruled.engine.close();
    await bare.engine.close();
    ruled.cleanup();
    bare.cleanup();
  }
  return rows;
}
