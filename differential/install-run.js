// `npm run differential -- install`: one guard, every agent, end to end (issue 21). For Claude
// Code, Gemini CLI, Codex CLI and Copilot CLI: a temp HOME whose `~/.hookwerk/policy.json` holds
// one Claude Code guard (PreToolUse on Bash, exit 2 on `rm -rf`), hookwerk installed into the
// agent's own project hook file, and the real agent driven offline against its mock model, which
// asks for `rm -rf victim` and then `echo ok > done.txt`. What the agent did is checked step by
// step (install-cases.js); every run's world, stdout/stderr, mock requests and the guard's log
// stay in the artifacts folder.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClaude } from './claude-tool.js';
import { runCodex } from './codex-tool.js';
import { runCopilot } from './copilot-tool.js';
import { runGemini } from './gemini-tool.js';
import { ensureTool, TOOLS } from './install.js';
import {
  ECHO,
  GUARD_REASON,
  INSTALL_AGENTS,
  INSTALL_STEPS,
  RM,
  SECRET_MARKER,
  STARTER_RUNS,
  STARTER_STOPS,
} from './install-cases.js';
import {
  agentHookFile,
  hookwerkCommands,
  hookwerkRuns,
  installedCommands,
  installHookwerk,
  stopHookwerkDaemon,
  uninstallHookwerk,
} from './install-hooks.js';
import { managedSteps } from './install-managed.js';
import { clipAt, firstLine, readOr } from './step-text.js';
import { GEMINI_USER_SETTINGS } from './world.js';

const GUARD = fileURLToPath(new URL('./install-guard.mjs', import.meta.url));
const STARTER = fileURLToPath(new URL('../examples/policy/starter.json', import.meta.url));
/** Model words and records quoted in a step's line are clipped here. */
const clip = clipAt(160);
const DRIVE = { claude: runClaude, gemini: runGemini, codex: runCodex, copilot: runCopilot };
/** The event each agent gates a tool call on. */
const PRE_EVENT = { claude: 'PreToolUse', gemini: 'BeforeTool', codex: 'PreToolUse', copilot: 'preToolUse' };

/**
 * Runs the suite for the agents given, printing one line per agent and step.
 * @returns {Promise<{agree: number, total: number, failed: boolean, agents: object}>}
 */
export async function runInstallSuite({ outDir, baseEnv, agents, toolTimeoutMs, log = console.log }) {
  const commands = await hookwerkCommands(baseEnv);
  log(
    `install suite: hookwerk install ${commands.install ? 'is' : 'is not yet'} in this checkout, ` +
      `hookwerk runs ${commands.runs ? 'is' : 'is not yet'}`,
  );
  const out = { agree: 0, total: 0, failed: false, agents: {} };
  for (const agent of agents) {
    let tool;
    try {
      tool = await ensureTool(agent);
    } catch (e) {
      log(`${TOOLS[agent].label}: cannot install: ${e.message}`);
      out.failed = true;
      continue;
    }
    const label = `${tool.label}@${tool.version}`;
    const started = Date.now();
    let r;
    try {
      r = await agentSuite(agent, tool, path.join(outDir, 'install', agent), baseEnv, toolTimeoutMs);
    } catch (e) {
      log(`ERROR      ${agent}: ${e.message}`);
      if (/did not start/.test(e.message)) out.failed = true;
      out.agents[agent] = { tool: label, error: e.message };
      continue;
    }
    for (const s of r.steps) log(stepLine(agent, s));
    for (const n of r.notes) log(`note       ${agent}: ${n}`);
    const agree = r.steps.filter((s) => s.status === 'agree').length;
    const total = r.steps.filter((s) => s.status === 'agree' || s.status === 'DIFFER').length;
    const pending = r.steps.filter((s) => s.status === 'pending').length;
    const notRun = r.steps.filter((s) => s.status === 'not run').length;
    const seconds = Math.round((Date.now() - started) / 1000);
    log(
      `${label} install: ${agree}/${total} agree${pending > 0 ? `, ${pending} pending` : ''}${notRun > 0 ? `, ${notRun} not run` : ''} (${seconds} s)`,
    );
    out.agents[agent] = { tool: label, agree, total, pending, notRun, seconds, ...r };
    out.agree += agree;
    out.total += total;
  }
  return out;
}

function stepLine(agent, s) {
  const head = `${s.status.padEnd(10)} ${agent}/${s.name}`;
  return s.detail ? `${head}: ${s.detail}` : head;
}

/** Every run of one agent and the steps they show. */
async function agentSuite(agent, tool, root, baseEnv, timeoutMs) {
  const spec = INSTALL_AGENTS[agent];
  const steps = [];
  const step = (name, ok, detail) => steps.push({ name, status: ok ? 'agree' : 'DIFFER', detail });
  const skip = (name, status, detail) => steps.push({ name, status, detail });
  const once = (command) => [{ tools: [spec.call(command)] }, { text: 'Done.' }];

  // The guarded run: rm -rf, then echo, with the agent's tools allowed as its own suite does.
  const main = await agentRun(agent, tool, path.join(root, 'guarded'), baseEnv, timeoutMs, {
    turns: [{ tools: [spec.call(RM)] }, { tools: [spec.call(ECHO)] }, { text: 'Done.' }],
  });
  const pre = main.installed.filter((c) => c.event === PRE_EVENT[agent]);
  step(
    'installed',
    main.install.code === 0 && pre.length === 1,
    `${main.install.how}; ${main.installed.length} entries, ${pre.length} on ${PRE_EVENT[agent]}` +
      (main.install.code !== 0 ? `; exit ${main.install.code}: ${firstLine(main.install.stderr)}` : ''),
  );
  const rmSeen = main.guard.find((g) => g.command === RM);
  const victimKept = existsSync(path.join(main.world.proj, 'victim', 'keep.txt'));
  step(
    'rm-blocked',
    victimKept && rmSeen?.blocked === true,
    `${victimKept ? 'victim/ still there' : 'victim/ was removed'}; the guard ${rmSeen ? 'saw the call' : 'never saw the call'}`,
  );
  // The model's next request after the rm -rf call: its last tool result is that call's.
  const told = toldAfter(spec, main, 1);
  step(
    'reason-to-model',
    told?.includes(GUARD_REASON) === true,
    told === undefined
      ? 'the agent never called the model again'
      : `the model was told ${JSON.stringify(clip(told))}`,
  );
  const done = readOr(path.join(main.world.proj, 'done.txt'));
  step(
    'echo-runs',
    done === 'ok\n',
    done === undefined ? 'done.txt was not made' : `done.txt = ${JSON.stringify(done)}`,
  );
  const calls = hookCalls(agent, main);
  const failed = calls.filter((c) => !c.ok);
  step(
    'no-hook-errors',
    calls.length > 0 && failed.length === 0,
    `${calls.length} hook calls (${[...new Set(calls.map((c) => c.event))].join(', ')}), ` +
      (failed.length === 0
        ? 'none failed'
        : `failed: ${failed.map((c) => `${c.event} ${c.why}`).join('; ')}`),
  );

  const kind = spec.noAllow.kind;
  if (kind === 'statuses') {
    // Codex: an allow without a rewrite is a hook Codex marks Failed (codex-facts.md), so a
    // leaked allow shows as a Failed PreToolUse; our no objection shows as Completed.
    const pres = calls.filter((c) => c.event === 'PreToolUse').map((c) => c.status);
    step(
      'no-allow-leaked',
      pres.join(',') === 'Blocked,Completed',
      `Codex reported the PreToolUse runs as ${pres.join(', ') || 'nothing'} (an allow would be Failed)`,
    );
    skip('allow-passes', 'n/a', 'Codex takes an allow only with a rewrite; hookwerk gives it no other');
  } else if (kind === 'answers') {
    // Gemini CLI: what hookwerk printed for the echo's BeforeTool, from Gemini CLI's own log.
    const echo = calls.find((c) => c.event === 'BeforeTool' && c.command === ECHO);
    step(
      'no-allow-leaked',
      echo !== undefined && echo.stdout === '' && echo.exitCode === 0,
      echo === undefined
        ? 'Gemini CLI logged no BeforeTool call for the echo'
        : `Gemini CLI got ${JSON.stringify(echo.stdout)} with exit ${echo.exitCode} for the echo's BeforeTool`,
    );
    const allowed = await agentRun(agent, tool, path.join(root, 'explicit-allow'), baseEnv, timeoutMs, {
      turns: once(ECHO),
      guardArg: 'allow',
    });
    const got = hookCalls(agent, allowed).find((c) => c.event === 'BeforeTool' && c.command === ECHO);
    const ranAllowed = readOr(path.join(allowed.world.proj, 'done.txt')) === 'ok\n';
    step(
      'allow-passes',
      ranAllowed && /"decision":"allow"/.test(got?.stdout ?? ''),
      `the policy allowing: Gemini CLI got ${JSON.stringify(got?.stdout ?? null)}, echo ${ranAllowed ? 'ran' : 'did not run'}`,
    );
  } else {
    // hookwerk says nothing on echo: the agent's own rules (no permission given) must refuse it.
    const flags = spec.noAllow.flags;
    const quiet = await agentRun(agent, tool, path.join(root, 'no-permission'), baseEnv, timeoutMs, {
      turns: once(ECHO),
      ...flags,
    });
    const consulted = quiet.guard.some((g) => g.command === ECHO);
    const ran = existsSync(path.join(quiet.world.proj, 'done.txt'));
    step(
      'no-allow-leaked',
      consulted && !ran,
      `${flagsOf(flags)}: the guard ${consulted ? 'was asked' : 'was never asked'}, echo ${ran ? 'ran' : 'did not run'}; the model was told ${JSON.stringify(clip(toldAfter(spec, quiet, 1) ?? ''))}`,
    );
    // The control: the same run, the policy allowing explicitly: the agent runs it.
    const allowed = await agentRun(agent, tool, path.join(root, 'explicit-allow'), baseEnv, timeoutMs, {
      turns: once(ECHO),
      guardArg: 'allow',
      ...flags,
    });
    const ranAllowed = readOr(path.join(allowed.world.proj, 'done.txt')) === 'ok\n';
    step(
      'allow-passes',
      ranAllowed,
      `${flagsOf(flags)}, the policy allowing: echo ${ranAllowed ? 'ran' : 'did not run'}; the model was told ${JSON.stringify(clip(toldAfter(spec, allowed, 1) ?? ''))}`,
    );
  }

  const runs = await hookwerkRuns(agent, main.world, hwEnv(main.world, baseEnv));
  if (runs === undefined)
    skip('journal', 'pending', 'journal not on main (no `hookwerk runs` in this checkout)');
  else {
    const entries = parseLines(runs.stdout);
    const denied = entries.find(
      (e) =>
        e.agent === agent && e.toolName === 'Bash' && [e.outcome, e.decision, e.permission].includes('deny'),
    );
    step(
      'journal',
      runs.code === 0 && denied !== undefined,
      `${entries.length} runs listed${denied ? `, the deny: ${JSON.stringify(clip(JSON.stringify(denied)))}` : ', no denied Bash run'}`,
    );
  }

  await starterSteps(agent, tool, root, baseEnv, timeoutMs, step);

  const file = agentHookFile(agent, main.world.proj);
  const un = await uninstallHookwerk(agent, main.world, hwEnv(main.world, baseEnv));
  if (un === undefined)
    skip('uninstall', 'pending', 'install not on main (no `hookwerk uninstall` in this checkout)');
  else {
    const now = existsSync(file) ? readFileSync(file) : undefined;
    const same = main.before === undefined ? now === undefined : now?.equals(main.before) === true;
    step(
      'uninstall',
      un.code === 0 && same,
      main.before === undefined
        ? now === undefined
          ? 'the file install made is gone'
          : 'the file install made is still there'
        : same
          ? 'byte-identical to before install'
          : 'differs from before install',
    );
  }

  // [T-MGD-2] Codex's administrator file is the one `install --system` target run here against
  // the real agent (as root in a mount namespace; `not run` with the reason elsewhere).
  if (agent === 'codex') await managedSteps({ tool, spec, root, baseEnv, timeoutMs, step, skip });

  const notes = warningsOf(agent, main.run);
  if (main.internet.length > 0)
    notes.push(`tried to reach ${[...new Set(main.internet)].join(', ')} (refused by the mock's proxy)`);
  notes.push(...(await trustNotes(agent, tool, root, baseEnv, timeoutMs)));
  const result = { steps, notes, hookCalls: calls, agentNotes: main.run.notes, internet: main.internet };
  writeFileSync(path.join(root, 'result.json'), JSON.stringify(result, null, 1));
  return { steps, notes };
}

/**
 * [G-LIB-1] The starter policy in the real agent: the model asks for the three calls it must stop and
 * the three it must let run, one per turn. A stop is the guard named in that call's tool result
 * (and, for the delete, the home's marker still there; for the read, the secret never in any
 * request); a pass is a tool result that names no guard (and node_modules gone).
 */
async function starterSteps(agent, tool, root, baseEnv, timeoutMs, step) {
  const spec = INSTALL_AGENTS[agent];
  const commands = [...STARTER_STOPS.map((s) => s.command), ...STARTER_RUNS];
  const r = await agentRun(agent, tool, path.join(root, 'starter'), baseEnv, timeoutMs, {
    turns: [...commands.map((c) => ({ tools: [spec.call(c)] })), { text: 'Done.' }],
    policy: 'starter',
  });
  const told = commands.map((_, i) => toldAfter(spec, r, i + 1) ?? '');
  const named = (text) => /\b(guards|permissions)\.[a-z-]+/.exec(text)?.[0];
  const homeKept = existsSync(path.join(r.world.home, 'keep.txt'));
  const leaked = r.requests.some((q) => JSON.stringify(q.body).includes(SECRET_MARKER));
  const stops = STARTER_STOPS.map((s, i) => ({ ...s, told: told[i] ?? '' }));
  step(
    'starter-stops',
    stops.every((s) => s.told.includes(`guards.${s.guard}`)) && homeKept && !leaked,
    `${stops.map((s) => `${s.command}: ${named(s.told) ?? `not stopped (${JSON.stringify(clip(s.told))})`}`).join('; ')}; ` +
      `~ ${homeKept ? 'kept' : 'DELETED'}; the secret ${leaked ? 'reached the model' : 'never reached the model'}`,
  );
  const runs = STARTER_RUNS.map((command, i) => ({ command, told: told[STARTER_STOPS.length + i] ?? '' }));
  const modulesGone = !existsSync(path.join(r.world.proj, 'node_modules'));
  const refusedByAgent = spec.ownRefusal?.test(runs[0]?.told ?? '') === true;
  step(
    'starter-lets-through',
    r.requests.length > commands.length &&
      runs.every((x) => named(x.told) === undefined) &&
      (modulesGone || refusedByAgent),
    `${runs.map((x) => `${x.command}: ${named(x.told) ?? 'ran'}`).join('; ')}; node_modules ${modulesGone ? 'removed' : refusedByAgent ? `kept: ${tool.label}'s own rule refused the rm -rf after hookwerk had no objection` : 'still there'}`,
  );
}

/** The last tool result in the model request `n` of a run (0 is the first), if it was made. */
function toldAfter(spec, r, n) {
  const request = r.requests[n];
  return request === undefined ? undefined : (spec.toolResults(request.body).at(-1) ?? '');
}

/**
 * Each hook call the agent made, as the agent itself recorded it: `{event, ok, why?}` and, where
 * the agent logs them, the hook's stdout, exit code, status and the shell command it gated.
 */
function hookCalls(agent, r) {
  if (agent === 'gemini') {
    // Gemini CLI's local telemetry file: pretty-printed JSON records one after another.
    return jsonRecords(readOr(path.join(r.world.base, 'gemini-telemetry.log')) ?? '')
      .map((o) => o.attributes ?? {})
      .filter((a) => a['event.name'] === 'gemini_cli.hook_call')
      .map((a) => {
        let input;
        try {
          input = JSON.parse(a.hook_input ?? '{}');
        } catch {
          input = {};
        }
        return {
          event: a.hook_event_name,
          ok: a.success === true,
          why: `exit ${a.exit_code}: ${firstLine(a.stderr ?? '')}`,
          stdout: a.stdout,
          exitCode: a.exit_code,
          command: input.tool_input?.command,
        };
      });
  }
  if (agent === 'codex')
    // `hook: <Event> Completed|Blocked|Failed|Stopped` on stderr; the bare `hook: <Event>` starts one.
    return [...r.run.run.stderr.matchAll(/^hook: (\w+) (\w+)\s*$/gm)].map((m) => ({
      event: m[1],
      ok: m[2] !== 'Failed',
      why: m[2],
      status: m[2],
    }));
  if (agent === 'copilot') {
    // Copilot CLI's session events: `hook.end` with `success` for each hook call.
    const dir = path.join(r.world.home, '.copilot', 'session-state');
    const lines = existsSync(dir)
      ? readdirSync(dir).flatMap((s) => parseLines(readOr(path.join(dir, s, 'events.jsonl')) ?? ''))
      : [];
    return lines
      .filter((e) => e.type === 'hook.end')
      .map((e) => ({ event: e.data?.hookType, ok: e.data?.success === true, why: JSON.stringify(e.data) }));
  }
  // Claude Code: each hook run in its debug log, and the error lines it wrote about hooks.
  const debug = path.join(r.world.home, '.claude', 'debug');
  const text = existsSync(debug)
    ? readdirSync(debug)
        .filter((f) => f.endsWith('.txt'))
        .map((f) => readFileSync(path.join(debug, f), 'utf8'))
        .join('\n')
    : '';
  const runs = [...text.matchAll(/Hook output does not start with \{|"Hook (\w+)[^"]* success:/g)].map(
    (m) => ({
      event: m[1] ?? 'silent',
      ok: true,
    }),
  );
  return [...runs, ...r.run.notes.map((n) => ({ event: 'log', ok: false, why: n }))];
}

/** The agents' own warnings about the installed hooks (Gemini's project-hook notice, Codex's clamps). */
function warningsOf(agent, run) {
  const lines = run.run.stderr.split('\n');
  if (agent === 'gemini') {
    const at = lines.findIndex((l) => l.includes('project-level hooks have been detected'));
    return at < 0
      ? []
      : [
          `Gemini CLI printed: ${lines
            .slice(at, at + 2)
            .join(' ')
            .trim()}`,
        ];
  }
  if (agent === 'codex')
    return lines
      .filter((l) => /^warning:/.test(l))
      .map((l) => `Codex printed: ${l.replace(/ in \/\S+$/, '')}`);
  return [];
}

/**
 * The same guarded rm -rf, with the agent's own trust not given (and, for Codex, the bypass flag
 * its other suite uses): notes, not steps, for they show what a user must do, not what hookwerk
 * does. Claude Code has none to show: headless, it runs project hooks without a trust prompt.
 */
const TRUST_NOTES = {
  gemini: [['untrusted', 'none', 'folder not trusted']],
  codex: [
    ['unreviewed', 'folder', 'project trusted, hooks not reviewed'],
    ['bypass', 'bypass', 'hooks not reviewed, --dangerously-bypass-hook-trust'],
  ],
  copilot: [['untrusted', 'none', 'folder not trusted']],
};

async function trustNotes(agent, tool, root, baseEnv, timeoutMs) {
  const spec = INSTALL_AGENTS[agent];
  const notes = [];
  for (const [name, trust, what] of TRUST_NOTES[agent] ?? []) {
    const r = await agentRun(agent, tool, path.join(root, name), baseEnv, timeoutMs, {
      turns: [{ tools: [spec.call(RM)] }, { text: 'Done.' }],
      trust,
    });
    const kept = existsSync(path.join(r.world.proj, 'victim', 'keep.txt'));
    const told = toldAfter(spec, r, 1);
    notes.push(
      `${what}: exit ${r.run.run.code}, ${hookCalls(agent, r).length} hook calls, the guard ` +
        `${r.guard.length > 0 ? 'ran' : 'never ran'}, victim/ ${kept ? 'kept' : 'removed'}; ` +
        (told === undefined
          ? `no tool result reached the model${r.requests.length === 0 ? ' (no model call)' : ''}`
          : `the model was told ${JSON.stringify(clip(told))}`),
    );
  }
  return notes;
}

/**
 * One real run in a fresh world: HOME with the policy and its guard, a project with `victim/`
 * (and the agent's own hook file when it has one), hookwerk installed, the agent driven.
 * The agent's own trust is given as its user gives it (`trust: 'user'`, the default): Gemini CLI's
 * and Copilot CLI's trusted folders, Codex's trusted project and reviewed hooks; `none` leaves
 * it out; `folder` trusts only the folder (Codex: no hook review), and `bypass` adds Codex's
 * `--dangerously-bypass-hook-trust` to that.
 * @param {object} o `turns`; `guardArg` (`allow`: the control policy); the driver's flags
 *   (`allowedTools`, `allowAll`); `trust`
 */
async function agentRun(agent, tool, base, baseEnv, timeoutMs, o) {
  rmSync(base, { recursive: true, force: true });
  const world = { base, home: path.join(base, 'home'), proj: path.join(base, 'proj') };
  for (const d of [world.home, path.join(world.proj, 'victim')]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(world.proj, 'victim', 'keep.txt'), 'still here\n');
  if (o.policy === 'starter') writeStarter(world);
  else writePolicy(world.home, o.guardArg);
  const spec = INSTALL_AGENTS[agent];
  const file = agentHookFile(agent, world.proj);
  if (spec.existing !== undefined) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, spec.existing);
  }
  if (agent === 'gemini')
    writeJson(path.join(world.home, '.gemini', 'settings.json'), {
      ...GEMINI_USER_SETTINGS,
      // Gemini CLI's local telemetry logs each hook call with its stdout and exit code: what
      // hookwerk answered, as Gemini CLI read it (no collector, no network: a file).
      telemetry: {
        enabled: true,
        target: 'local',
        outfile: path.join(base, 'gemini-telemetry.log'),
        logPrompts: true,
      },
    });
  if (agent === 'codex') writeCodexConfig(world);
  const trust = o.trust ?? 'user';
  if (trust !== 'none') trustFolder(agent, world);

  const before = existsSync(file) ? readFileSync(file) : undefined;
  const env = hwEnv(world, baseEnv);
  const install = await installHookwerk(agent, world, env);
  const installed = installedCommands(agent, file);
  if (agent === 'codex' && trust === 'user') trustCodexHooks(world, file, installed);

  const kase = {
    turns: o.turns,
    ...(o.allowedTools !== undefined ? { allowedTools: o.allowedTools } : {}),
    ...(o.allowAll !== undefined ? { allowAll: o.allowAll } : {}),
    ...(agent === 'codex' ? { bypassHookTrust: trust === 'bypass' } : {}),
    // The harness's opt-ins stand for a trusted folder; here the folder is trusted (or not) instead.
    unsetEnv: ['GEMINI_CLI_TRUST_WORKSPACE', 'GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS'],
  };
  let run;
  try {
    run = await DRIVE[agent](tool, kase, world, env, timeoutMs);
  } finally {
    // The daemon the agent's first hook call started (as a user's would) ends with the run.
    await stopHookwerkDaemon(world, env);
  }
  if (!run.started) throw new Error(`${tool.bin} did not start: ${run.run.spawnError}`);
  const guard = parseLines(readOr(path.join(world.home, '.hookwerk', 'guards', 'guard-log.jsonl')) ?? '');
  return {
    world,
    before,
    install,
    installed,
    run,
    guard,
    requests: run.requests.filter((r) => r.kind === 'main'),
    // What the agent tried to reach beyond the mock (refused by its proxy), for the report.
    internet: run.requests.filter((r) => r.kind === 'internet').map((r) => r.url),
  };
}

/** The README's starter policy as the user's, and what its run looks at: a home marker, node_modules, a secret. */
function writeStarter(world) {
  mkdirSync(path.join(world.home, '.hookwerk'), { recursive: true });
  copyFileSync(STARTER, path.join(world.home, '.hookwerk', 'policy.json'));
  writeFileSync(path.join(world.home, 'keep.txt'), 'still here\n');
  mkdirSync(path.join(world.proj, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(path.join(world.proj, '.env'), `TOKEN=${SECRET_MARKER}\n`);
}

/** The policy: one Claude Code PreToolUse guard on Bash [R-POL-1], its script beside it. */
function writePolicy(home, guardArg) {
  const dir = path.join(home, '.hookwerk', 'guards');
  mkdirSync(dir, { recursive: true });
  copyFileSync(GUARD, path.join(dir, 'no-rm-rf.mjs'));
  const q = (w) => `'${w.replaceAll("'", `'\\''`)}'`;
  const command = `${q(process.execPath)} ${q(path.join(dir, 'no-rm-rf.mjs'))}${guardArg ? ` ${guardArg}` : ''}`;
  writeJson(path.join(home, '.hookwerk', 'policy.json'), {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
  });
}

/**
 * The folder trusted as the agent's own trust prompt records it: Gemini CLI's
 * `~/.gemini/trustedFolders.json`, Copilot CLI's `trustedFolders` in `~/.copilot/config.json`,
 * Codex's `trust_level` (writeCodexConfig). Claude Code headless asks for none.
 */
function trustFolder(agent, world) {
  if (agent === 'gemini')
    writeJson(path.join(world.home, '.gemini', 'trustedFolders.json'), { [world.proj]: 'TRUST_FOLDER' });
  if (agent === 'copilot')
    writeJson(path.join(world.home, '.copilot', 'config.json'), { trustedFolders: [world.proj] });
  if (agent === 'codex')
    appendFileSync(
      path.join(world.codexHome, 'config.toml'),
      `[projects.${JSON.stringify(world.proj)}]\ntrust_level = "trusted"\n`,
    );
}

/** Codex's user config: the mock provider (runCodex fills in @MOCK@). */
function writeCodexConfig(world) {
  world.codexHome = path.join(world.home, '.codex');
  mkdirSync(world.codexHome, { recursive: true });
  writeFileSync(
    path.join(world.codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      'check_for_update_on_startup = false',
      '[model_providers.mock]',
      'name = "mock"',
      'base_url = "@MOCK@/v1"',
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      '',
    ].join('\n'),
  );
}

/**
 * What Codex records when its user reviews and trusts the hooks: for each handler,
 * `[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash`, the sha256 of its
 * definition as compact sorted-key JSON (codex-facts.md; no matcher key when there is none).
 */
function trustCodexHooks(world, file, installed) {
  const lines = [''];
  for (const c of installed) {
    const eventName = c.event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    const identity = `{"event_name":${JSON.stringify(eventName)},"hooks":[{"async":false,"command":${JSON.stringify(c.command)},"timeout":${c.timeout ?? 600},"type":"command"}]}`;
    const hash = createHash('sha256').update(identity).digest('hex');
    lines.push(`[hooks.state.${JSON.stringify(`${file}:${eventName}:${c.group}:${c.handler}`)}]`);
    lines.push(`trusted_hash = "sha256:${hash}"`);
  }
  appendFileSync(path.join(world.codexHome, 'config.toml'), `${lines.join('\n')}\n`);
}

function hwEnv(world, baseEnv) {
  return { ...baseEnv, HOME: world.home };
}

function flagsOf(o) {
  if (o.allowedTools !== undefined) return `--allowedTools ${o.allowedTools}`;
  if (o.allowAll === false) return 'without --allow-all-tools';
  return '';
}

function parseLines(text) {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}

/** JSON values written one after another (pretty-printed, not one a line). */
function jsonRecords(text) {
  const out = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) {
      try {
        out.push(JSON.parse(text.slice(start, i + 1)));
      } catch {
        // a record cut short (the agent was killed): skipped
      }
    }
  }
  return out;
}

function writeJson(file, value) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** The steps as a markdown table, for `--list`. */
export function installStepTable() {
  return [
    '| install step | what it checks |',
    '|---|---|',
    ...INSTALL_STEPS.map((s) => `| \`${s.name}\` | ${s.about} |`),
  ];
}
