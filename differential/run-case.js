// One case, both sides: the real tool in the case's world, then hookwerk in a fresh world at the
// same paths with the inputs the real tool gave, then the comparison.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { carryOut, effectOf } from './agent-model.js';
import { runClaude } from './claude-tool.js';
import { runCodex } from './codex-tool.js';
import { compareCase } from './compare.js';
import { runCopilot } from './copilot-tool.js';
import { runGemini } from './gemini-tool.js';
import { startHookServer } from './hook-server.js';
import { replayUnderHookwerk } from './hookwerk-side.js';
import { invocations, projectFiles, readRecords, tokens } from './observe.js';
import { synthesizeFirings } from './synthesize.js';
import { buildWorld, setAside } from './world.js';

/**
 * @param {object} o
 * @param {'claude'|'gemini'|'codex'} o.dialect
 * @param {{bin: string}} o.tool
 * @param {object} o.kase
 * @param {string} o.root the case's own temp folder
 * @param {Record<string, string>} o.baseEnv
 * @param {number} o.toolTimeoutMs
 * @param {number} o.decideTimeoutMs
 * @param {number} o.caseTimeoutMs the whole case, both sides
 */
export async function runCase(o) {
  // HTTP hooks (`@HOOKS@/hook/ID` in a case) need their server for both sides of the case.
  if (!JSON.stringify(o.kase).includes('@HOOKS@')) return runBothSides(o, undefined);
  const server = await startHookServer(o.kase.spec ?? {});
  try {
    const kase = JSON.parse(JSON.stringify(o.kase).replaceAll('@HOOKS@', server.url));
    return await runBothSides({ ...o, kase }, server);
  } finally {
    await server.close();
  }
}

async function runBothSides(
  { dialect, tool, kase: given, root, baseEnv, toolTimeoutMs, decideTimeoutMs, caseTimeoutMs },
  http,
) {
  const started = Date.now();
  // The real tool.
  let world = buildWorld(root, dialect, given);
  const kase = { ...given, turns: JSON.parse(JSON.stringify(given.turns).replaceAll('@PROJ@', world.proj)) };
  const env = { ...baseEnv, ...kase.env, HOME: world.home, HWDIFF_REC: world.rec };
  const drive = { claude: runClaude, gemini: runGemini, codex: runCodex, copilot: runCopilot }[dialect];
  const realRun = await drive(tool, kase, world, env, toolTimeoutMs);
  if (!realRun.started) throw new Error(`${tool.bin} did not start: ${realRun.run.spawnError}`);
  const mainRequests = realRun.requests.filter((r) => r.kind === 'main');
  let firings = invocations(
    [...readRecords(world.rec), ...(http?.take() ?? [])].sort((a, b) => a.t - b.t),
    dialect,
    mainRequests.map((r) => r.t),
  );
  if (firings.length === 0) firings = synthesizeFirings(dialect, kase, world, realRun.sessionId);
  const real = {
    files: projectFiles(world.proj),
    model: tokens(mainRequests.map((r) => JSON.stringify(r.body)).join('\n')),
    user: tokens(realRun.userText),
    stopped: realRun.stoppedByHook,
    requests: mainRequests,
  };
  // Copilot CLI: a permissionRequest `interrupt` stops the agent: no model call follows the firing.
  if (dialect === 'copilot')
    real.stopped = firings.some(
      (f) => f.event === 'permissionRequest' && !mainRequests.some((r) => r.t > f.tEnd),
    );
  const internet = realRun.requests.filter((r) => r.kind === 'internet').map((r) => r.url);
  setAside(world, root);

  // hookwerk, with the same environment the tool was given (its mock URLs included).
  world = buildWorld(root, dialect, kase);
  const limits = { decideMs: decideTimeoutMs, deadline: started + caseTimeoutMs };
  const replay = await replayUnderHookwerk(dialect, world, firings, realRun.env, limits, http);
  const ctx = { allowedTools: (kase.allowedTools ?? 'Bash Write Edit Read').split(/[\s,]+/) };
  const effects = firings.map((f, i) => effectOf(dialect, f.event, f.input, replay.decides[i].decision, ctx));
  // Copilot CLI: a permissionRequest deny cancels the call the preToolUse before it let through.
  effects.forEach((e, i) => {
    if (!e.cancels) return;
    for (let j = i - 1; j >= 0; j--)
      if (firings[j].event === 'preToolUse') {
        delete effects[j].tool;
        break;
      }
  });
  const toolEnv = { ...realRun.env };
  effects.forEach((e, i) => {
    Object.assign(toolEnv, replay.decides[i].decision?.env ?? {});
    if (e.tool) carryOut(dialect, e.tool, world.proj, toolEnv);
  });
  // The model sees what a firing told it only if the agent calls the model again afterwards.
  const seen = (f) => real.requests.some((r) => r.t > f.tEnd);
  const hw = {
    decides: replay.decides,
    effects,
    files: projectFiles(world.proj),
    model: [...new Set(effects.flatMap((e, i) => (seen(firings[i]) ? e.model : [])))].sort(),
    user: [...new Set(effects.flatMap((e) => e.user))].sort(),
    stopped: effects.some((e) => e.stops),
  };
  const aspects = compareCase({ dialect, kase, firings, real, hw });
  const result = {
    name: kase.name,
    about: kase.about,
    deliberate: kase.deliberate,
    agree: aspects.every((a) => a.agree),
    aspects,
    ms: Date.now() - started,
    real: {
      code: realRun.run.code,
      timedOut: realRun.run.timedOut,
      ms: realRun.run.ms,
      terminal: realRun.terminal,
      requests: realRun.requests.map((r) => `${r.method} ${r.url} ${r.kind}`),
      internet,
      notes: realRun.notes,
    },
    hookwerk: {
      trust: replay.trust.code,
      decides: replay.decides.map((d) => ({
        event: d.event,
        code: d.code,
        timedOut: d.timedOut,
        decision: d.decision,
        stderr: d.stderr.slice(0, 2000),
      })),
    },
    firings: firings.map((f) => ({
      event: f.event,
      hooks: f.records.map((r) => r.id),
      input: f.input,
      ...(f.synthetic ? { synthetic: true } : {}),
    })),
  };
  writeFileSync(path.join(root, 'result.json'), JSON.stringify(result, null, 1));
  return result;
}
