// 10. `hookwerk hook`, the command agents call on every tool call [R-HOOK-4], whole processes
//     spawned from this (the agent's) process, stdin written, exit waited for:
//
//   cold        `node bin/hookwerk.js hook --agent claude` for an event no policy hook names, no
//               daemon, vs a bare `node` script that reads stdin and exits; interleaved call by call
//   warm        the same call through the warm path: `hookwerk daemon` running, the C client
//               (dist/native/hookwerk-hook; the Node client where it was not built); absolute
//   one hook    a PreToolUse call whose policy runs one command hook through the warm path, vs that
//               hook's command run alone the way the agent runs a command hook (`/bin/sh -c COMMAND`,
//               as Claude Code does and bench/decide.js measures; spawn, same stdin, wait);
//               interleaved call by call. The hook: the guard of Claude Code's hooks guide (bash,
//               `jq` reads the command, `grep` looks for `rm -rf`; where jq is missing, the sh guard
//               below instead), and in an extra row the smallest sh guard (one `cat`, one `case`),
//               where the client's own spawn is a larger share of the hook's run
//   first call  [G-WARM-1] the cold call's event with no daemon running and starting turned on:
//               the call decides cold and starts a daemon in the background (whole process, the
//               Node client and the C client), vs the same call with HOOKWERK_DAEMON=off;
//               interleaved call by call. After each starting call (not timed) the benchmark
//               waits for the daemon to listen and stops it, so every such call finds none;
//               and, without process starts around it, what starting costs inside the Node
//               client (autostartDaemon(): the lock, the log, the spawn of the waiting start)
//               as a share of the cold call (the cold row)
//   G-PERF-1    [G-PERF-1] the policy of SPEC §14.6 (bench/guard.js: 30 permission rules, every
//               shipped guard, 5 CEL rules) in ~/.hookwerk/policy.json, a PreToolUse Bash call of
//               bench/guard.js's 120-character line (no objection: every layer reads it):
//               warm, its daemon + the C client, vs a daemon + the same client for a home with no
//               policy file answering "no objection" (two daemons, interleaved call by call);
//               cold, `hookwerk hook` with that policy vs the bare node script, interleaved (the
//               engine comes from the cold bundle, dist/cli/cold-bundle.cjs, and its code cache in
//               the home's ~/.hookwerk/cache/, which the deny check before the rounds writes)
//   cold (snapshot) [G-PERF-1] the same cold call through the C client with no daemon, whose
//               fallback starts node from the startup snapshot built for that home before the
//               rounds (src/hook/snapshot-blob.ts, not timed), vs the same bare node script,
//               interleaved; where the C client was built
//
// Every other row runs with HOOKWERK_DAEMON=off: a cold row must not start the daemon it measures
// without.
//
// Ratios are medians of per-round ratios: both sides of a round see the same drift of the machine.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gPerfPolicy, LINE } from './guard.js';
import { fmtRatio, fmtUs, median, nowUs, progress, verdict } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'hookwerk.js');
const CLIENT = path.join(ROOT, 'dist', 'native', 'hookwerk-hook');
const SNAPSHOT_BUILD = path.join(ROOT, 'dist', 'hook', 'snapshot-build-main.js');

/** The guard of Claude Code's hooks guide ("block-rm.sh"): jq reads the command, grep judges it. */
const JQ_GUARD = `#!/bin/bash
COMMAND=$(jq -r '.tool_input.command')

if echo "$COMMAND" | grep -q 'rm -rf'; then
  jq -n '{
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "Destructive command blocked by hook"
    }
  }'
else
  exit 0
fi
`;

/** The smallest guard that reads its input: one cat, one case. */
const SH_GUARD = `#!/bin/sh
# Blocks destructive shell commands; anything else goes on (exit 0, no output).
input=$(cat)
case "$input" in
  *'rm -rf /'*|*'git push --force'*|*'mkfs.'*|*'dd if='*)
    echo "blocked by policy: destructive command" >&2
    exit 2
    ;;
esac
exit 0
`;

const hasJq = spawnSync('jq', ['--version'], { stdio: 'ignore' }).status === 0 && existsSync('/bin/bash');

/** Homes whose policy has one PreToolUse Bash guard (the guide's, and the smallest), and a project. */
function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-hook-'));
  const project = path.join(dir, 'project');
  // src: the line's `cd src` resolves to a real folder, as in bench/guard.js.
  mkdirSync(path.join(project, 'src'), { recursive: true });
  const script = (name, text) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    chmodSync(file, 0o755);
    return file;
  };
  const shGuard = script('guard.sh', SH_GUARD);
  const guideGuard = hasJq ? script('block-rm.sh', JQ_GUARD) : shGuard;
  const bare = path.join(dir, 'bare.js');
  writeFileSync(bare, "process.stdin.on('data', () => {}).on('end', () => {});\n");
  const homeWith = (name, policy) => {
    const h = path.join(dir, name);
    mkdirSync(path.join(h, '.hookwerk'), { recursive: true });
    if (policy !== undefined) writeFileSync(path.join(h, '.hookwerk', 'policy.json'), JSON.stringify(policy));
    return h;
  };
  const home = (name, guard) =>
    homeWith(name, {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    });
  return {
    dir,
    project,
    bare,
    shGuard,
    guideGuard,
    coldHome: home('cold-home', guideGuard),
    warmHome: home('warm-home', guideGuard),
    shHome: home('sh-home', shGuard),
    startHome: home('start-home', guideGuard),
    perfHome: homeWith('perf-home', gPerfPolicy()),
    emptyHome: homeWith('empty-home', undefined),
  };
}

/** Spawns `cmd args` with `input` on stdin and waits for it; resolves with its stdout and exit code. */
function runOnce(cmd, args, input, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

/** Interleaves two sides call by call; the medians of round means, and the per-round ratios. */
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

/** `hookwerk daemon` for `home`; resolves once it printed `ready`. */
function startDaemon(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'daemon'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (/^ready$/m.test(out)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`hookwerk daemon exited ${code}: ${err}`)));
  });
}

function stopDaemon(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** True while `pid` runs (a zombie — exited, not reaped by an init that never reaps — does not). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

async function until(check, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * [G-WARM-1] The call that finds no daemon: starting one (HOOKWERK_DAEMON unset) against not
 * (off), same client, same input, interleaved; after each starting call the daemon it started is
 * awaited and stopped outside the timing, so the next finds none again.
 */
async function firstCallRow(s, what, cmd, args, input, offEnv) {
  const onEnv = { ...offEnv };
  delete onEnv.HOOKWERK_DAEMON;
  const socket = path.join(s.startHome, '.hookwerk', 'daemon.sock');
  const lock = `${socket}.lock`;
  const once = async (env) => {
    const t0 = nowUs();
    expectReply(
      'first call',
      await runOnce(cmd, args, input, env, s.project),
      (r) => r.code === 0 && r.out === '',
    );
    return nowUs() - t0;
  };
  const stopStarted = async () => {
    await until(() => existsSync(socket), 'the started daemon to listen');
    const pid = Number(readFileSync(lock, 'utf8'));
    process.kill(pid, 'SIGTERM');
    await until(() => !alive(pid) && !existsSync(lock), 'the started daemon to stop');
  };
  await once(offEnv);
  await once(onEnv);
  await stopStarted();
  const rounds = 9;
  const n = 3;
  const means = { on: [], off: [] };
  for (let r = 0; r < rounds; r++) {
    const sum = { on: 0, off: 0 };
    for (let i = 0; i < n; i++) {
      for (const side of r % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
        sum[side] += await once(side === 'on' ? onEnv : offEnv);
        if (side === 'on') await stopStarted();
      }
    }
    means.on.push(sum.on / n);
    means.off.push(sum.off / n);
  }
  const ratios = means.on.map((x, i) => x / means.off[i]);
  progress(`hook/first-call (${what}): per-round ratios ${ratios.map((x) => x.toFixed(2)).join(' ')}`);
  const paired = median(ratios);
  const on = median(means.on);
  const off = median(means.off);
  return {
    benchmark: `first call with no daemon running: decides cold and starts one (${what}), whole process (${rounds} rounds × ${n}, interleaved)`,
    hookwerk: fmtUs(on),
    baseline: `${fmtUs(off)} (the same call with HOOKWERK_DAEMON=off; difference of the medians ${((on - off) / 1000).toFixed(1)} ms)`,
    ratio: fmtRatio(paired),
    target: '≤ 1.1× (paired per round; the start is not waited for)',
    verdict: verdict(paired <= 1.1),
  };
}

/**
 * [G-WARM-1] The Node client's start, timed in this process: `autostartDaemon()` (a fresh home
 * each time, so it always starts: the lock, the log, the spawn of the start that waits for the
 * call), as a share of the cold call it is part of (the cold row). The started process is killed
 * at once: it is still waiting for this process (the "call") to end.
 */
async function startCostRow(s, coldUs) {
  const { autostartDaemon } = await import(path.join(ROOT, 'dist', 'hook', 'daemon-autostart.js'));
  const env = { ...process.env, HOOKWERK_DAEMON_SOCKET: '' };
  delete env.HOOKWERK_DAEMON;
  const homes = path.join(s.dir, 'start-cost');
  mkdirSync(homes);
  const times = [];
  for (let i = 0; i < 41; i++) {
    const home = path.join(homes, String(i));
    mkdirSync(home);
    const t0 = nowUs();
    const pid = autostartDaemon(path.join(home, '.hookwerk', 'daemon.sock'), { ...env, HOME: home });
    times.push(nowUs() - t0);
    if (pid === undefined) throw new Error('autostartDaemon started nothing');
    process.kill(pid, 'SIGKILL');
    await until(() => !alive(pid), 'the started process to end');
  }
  const m = median(times);
  return {
    benchmark:
      'the start itself, inside the calling Node client: autostartDaemon() — lock, log, spawn of the start that waits for the call (median of 41)',
    hookwerk: fmtUs(m),
    baseline: `${fmtUs(coldUs)} (the cold call, first row)`,
    ratio: `${((m / coldUs) * 100).toFixed(1)} %`,
    target: '≤ 5 % of the cold call',
    verdict: verdict(m / coldUs <= 0.05),
  };
}

function expectReply(what, r, check) {
  if (!check(r)) throw new Error(`${what}: unexpected answer ${JSON.stringify(r)}`);
  return r;
}

export async function run() {
  const s = setup();
  const rows = [];
  const noHookInput = `${JSON.stringify({
    hook_event_name: 'PostToolUse',
    session_id: 'bench',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command: 'ls -la' },
    tool_response: { stdout: 'a\nb\n' },
  })}\n`;
  const hookInput = `${JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'bench',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command: 'ls -la', description: 'list the files' },
  })}\n`;
  const envOf = (home) => ({
    ...process.env,
    HOME: home,
    HOOKWERK_DAEMON_SOCKET: '',
    HOOKWERK_DAEMON: 'off',
    // No C-client fallback builds a startup snapshot in the background while rows are timed; the
    // snapshot row builds its own before its rounds.
    HOOKWERK_SNAPSHOT: 'off',
  });
  const quiet = (r) => r.code === 0 && r.out === '';
  const denies = (r) => r.code === 0 && r.out.includes('"permissionDecision":"deny"');
  // [G-PERF-1] bench/guard.js's line, and a force push the policy's rules deny.
  const perfInput = `${JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'bench',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command: LINE },
  })}\n`;
  const perfDeny = perfInput.replace('git commit -am', 'git push --force origin main; echo');
  let daemon;
  let perfDaemon;
  let emptyDaemon;
  /** The cold row's call: what the start's own cost is measured against. */
  let coldUs = Number.NaN;
  try {
    // 1. Cold, no policy hook for the event, against a bare node script.
    {
      const coldEnv = envOf(s.coldHome);
      const hookwerk = () =>
        runOnce(process.execPath, [BIN, 'hook', '--agent', 'claude'], noHookInput, coldEnv, s.project).then(
          (r) => expectReply('cold hook', r, quiet),
        );
      const bare = () => runOnce(process.execPath, [s.bare], noHookInput, coldEnv, s.project);
      const r = await interleaved(hookwerk, bare, { n: 8, rounds: 11, warmup: 3 });
      coldUs = r.a;
      progress(`hook/cold: per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
      const paired = median(r.ratios);
      rows.push({
        benchmark:
          'hookwerk hook, event with no policy hook, cold (no daemon): whole process, stdin → exit (11 rounds × 8, interleaved)',
        hookwerk: fmtUs(r.a),
        baseline: `${fmtUs(r.b)} (bare node script reading stdin; ratio of the medians ${fmtRatio(r.a / r.b)})`,
        ratio: fmtRatio(paired),
        target: '≤ 1.3× (paired per round)',
        verdict: verdict(paired <= 1.3),
      });
    }

    // 1a. [G-PERF-1] Cold with the policy of SPEC §14.6, against the same bare node script.
    {
      const env = envOf(s.perfHome);
      const hookwerk = () =>
        runOnce(process.execPath, [BIN, 'hook', '--agent', 'claude'], perfInput, env, s.project).then((r) =>
          expectReply('cold G-PERF-1', r, quiet),
        );
      const bare = () => runOnce(process.execPath, [s.bare], perfInput, env, s.project);
      expectReply(
        'cold G-PERF-1, deny',
        await runOnce(process.execPath, [BIN, 'hook', '--agent', 'claude'], perfDeny, env, s.project),
        denies,
      );
      const r = await interleaved(hookwerk, bare, { n: 8, rounds: 11, warmup: 3 });
      progress(`hook/G-PERF-1 cold: per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
      const paired = median(r.ratios);
      rows.push({
        benchmark: `hookwerk hook, cold (no daemon), policy of 30 permission rules + all shipped guards + 5 CEL rules, PreToolUse Bash of the 120-character line (no objection): whole process, stdin → exit; the engine from dist/cli/cold-bundle.cjs with its V8 code cache, written by the first call (11 rounds × 8, interleaved)`,
        hookwerk: fmtUs(r.a),
        baseline: `${fmtUs(r.b)} (bare node script reading stdin; ratio of the medians ${fmtRatio(r.a / r.b)})`,
        ratio: fmtRatio(paired),
        target: '≤ 1.3× (paired per round) [G-PERF-1]',
        verdict: verdict(paired <= 1.3),
      });
    }

    // 1c. [G-PERF-1] The same cold call from the startup snapshot, through the C client.
    if (existsSync(CLIENT)) {
      const env = { ...envOf(s.perfHome) };
      delete env.HOOKWERK_SNAPSHOT;
      const built = spawnSync(process.execPath, [SNAPSHOT_BUILD, s.perfHome], { env, encoding: 'utf8' });
      if (built.status !== 0 || !built.stdout.includes('"built"'))
        throw new Error(`the startup snapshot was not built: ${built.stdout}${built.stderr}`);
      const noted = { ...env, HOOKWERK_SNAPSHOT: 'note' };
      expectReply(
        'cold (snapshot) G-PERF-1, deny',
        await runOnce(CLIENT, ['--agent', 'claude'], perfDeny, noted, s.project),
        (r) => denies(r) && r.err.endsWith('answered from the startup snapshot\n'),
      );
      const hookwerk = () =>
        runOnce(CLIENT, ['--agent', 'claude'], perfInput, env, s.project).then((r) =>
          expectReply('cold (snapshot) G-PERF-1', r, quiet),
        );
      const bare = () => runOnce(process.execPath, [s.bare], perfInput, env, s.project);
      const r = await interleaved(hookwerk, bare, { n: 8, rounds: 11, warmup: 3 });
      progress(
        `hook/G-PERF-1 cold (snapshot): per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`,
      );
      const paired = median(r.ratios);
      rows.push({
        benchmark:
          'the same cold call (no daemon) through the C client, whose fallback starts node from the startup snapshot of the hook command (~/.hookwerk/cache/hook-snapshot-*.blob, built before the rounds) (11 rounds × 8, interleaved)',
        hookwerk: fmtUs(r.a),
        baseline: `${fmtUs(r.b)} (bare node script reading stdin; ratio of the medians ${fmtRatio(r.a / r.b)})`,
        ratio: fmtRatio(paired),
        target: '≤ 1.3× (paired per round) [G-PERF-1]',
        verdict: verdict(paired <= 1.3),
      });
    }

    // 1b. [G-WARM-1] The first call with no daemon: decides cold and starts one, vs starting none.
    for (const [what, cmd, args] of [
      ['Node client (hookwerk hook)', process.execPath, [BIN, 'hook', '--agent', 'claude']],
      ...(existsSync(CLIENT) ? [['C client', CLIENT, ['--agent', 'claude']]] : []),
    ])
      rows.push(await firstCallRow(s, what, cmd, args, noHookInput, envOf(s.startHome)));
    rows.push(await startCostRow(s, coldUs));

    // 2–3. The warm path: a daemon, and the C client (the Node client where it was not built).
    const warmEnv = envOf(s.warmHome);
    daemon = await startDaemon(warmEnv);
    const native = existsSync(CLIENT);
    const client = native ? CLIENT : process.execPath;
    const clientArgs = native ? ['--agent', 'claude'] : [BIN, 'hook', '--agent', 'claude'];
    const via = native ? 'C client' : 'Node client (no cc: the C client was not built)';
    {
      const call = () =>
        runOnce(client, clientArgs, noHookInput, warmEnv, s.project).then((r) =>
          expectReply('warm', r, quiet),
        );
      for (let i = 0; i < 20; i++) await call();
      const times = [];
      for (let i = 0; i < 301; i++) {
        const t0 = nowUs();
        await call();
        times.push(nowUs() - t0);
      }
      const m = median(times);
      rows.push({
        benchmark: `the same through the warm path: hookwerk daemon + ${via}, whole process (median of 301)`,
        hookwerk: fmtUs(m),
        baseline: '—',
        ratio: '—',
        target: '≤ 10 ms median',
        verdict: verdict(m <= 10_000),
      });
    }
    const oneHook = async (env, guard, what, extra) => {
      const warm = () =>
        runOnce(client, clientArgs, hookInput, env, s.project).then((r) => expectReply('one hook', r, quiet));
      const alone = () =>
        runOnce('/bin/sh', ['-c', guard], hookInput, env, s.project).then((r) =>
          expectReply('guard alone', r, quiet),
        );
      // The guard must really run through the policy: a destructive command is blocked.
      const rm = hookInput.replace('ls -la', 'rm -rf /');
      expectReply('one hook, deny', await runOnce(client, clientArgs, rm, env, s.project), (r) =>
        r.out.includes('"permissionDecision":"deny"'),
      );
      const r = await interleaved(warm, alone, { n: 25, rounds: 15, warmup: 20 });
      progress(`hook/one-hook (${what}): per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
      const paired = median(r.ratios);
      rows.push({
        benchmark: `one command hook through the warm path (policy: one PreToolUse ${what}; ${via}; 15 rounds × 25, interleaved)`,
        hookwerk: fmtUs(r.a),
        baseline: `${fmtUs(r.b)} (the hook's command run alone as the agent runs it: spawn of sh -c, stdin, wait; ratio of the medians ${fmtRatio(r.a / r.b)})`,
        ratio: fmtRatio(paired),
        target: extra ? '≤ 1.2× (extra row)' : '≤ 1.2× (paired per round)',
        verdict: verdict(paired <= 1.2),
      });
    };
    await oneHook(
      warmEnv,
      s.guideGuard,
      hasJq
        ? "guard: the hooks guide's block-rm.sh (bash, jq, grep)"
        : 'guard: sh, one cat and one case (jq is not installed)',
      false,
    );
    // The smallest hook: the client's spawn is then the larger share of the whole.
    const shEnv = {
      ...envOf(s.shHome),
      HOOKWERK_DAEMON_SOCKET: path.join(s.warmHome, '.hookwerk', 'daemon.sock'),
    };
    if (hasJq) await oneHook(shEnv, s.shGuard, 'guard: sh, one cat and one case', true);

    // [G-PERF-1] The policy of SPEC §14.6 through its daemon, vs a daemon of a home without a
    // policy answering "no objection" to the same call; both daemons run, calls interleaved.
    {
      const perfEnv = envOf(s.perfHome);
      const emptyEnv = envOf(s.emptyHome);
      perfDaemon = await startDaemon(perfEnv);
      emptyDaemon = await startDaemon(emptyEnv);
      const withPolicy = () =>
        runOnce(client, clientArgs, perfInput, perfEnv, s.project).then((r) =>
          expectReply('warm G-PERF-1', r, quiet),
        );
      const noPolicy = () =>
        runOnce(client, clientArgs, perfInput, emptyEnv, s.project).then((r) =>
          expectReply('warm, no policy', r, quiet),
        );
      // The policy really is the daemon's: a force push is denied by it, and not without it.
      expectReply(
        'warm G-PERF-1, deny',
        await runOnce(client, clientArgs, perfDeny, perfEnv, s.project),
        denies,
      );
      expectReply(
        'warm, no policy, force push',
        await runOnce(client, clientArgs, perfDeny, emptyEnv, s.project),
        quiet,
      );
      const r = await interleaved(withPolicy, noPolicy, { n: 25, rounds: 15, warmup: 20 });
      progress(`hook/G-PERF-1 warm: per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
      const paired = median(r.ratios);
      rows.push({
        benchmark: `the same policy and call through the warm path: hookwerk daemon + ${via}, whole process (15 rounds × 25, interleaved)`,
        hookwerk: fmtUs(r.a),
        baseline: `${fmtUs(r.b)} (a daemon + the same client for a home with no policy file, answering "no objection" to the same call; ratio of the medians ${fmtRatio(r.a / r.b)})`,
        ratio: fmtRatio(paired),
        target: '≤ 1.5× (paired per round) [G-PERF-1]',
        verdict: verdict(paired <= 1.5),
      });
    }
  } finally {
    for (const d of [daemon, perfDaemon, emptyDaemon]) if (d !== undefined) await stopDaemon(d);
    rmSync(s.dir, { recursive: true, force: true });
  }
  return rows;
}
