// Putting `hookwerk hook --agent A` into an agent's own hook file, and taking it out again, for the
// install suite: `hookwerk install` / `uninstall` of this checkout's CLI (R-INST-1). (issue 31) The
// suite's own copy of install's entries, kept for checkouts without the command, is gone.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HOOKWERK_ROOT } from './hookwerk-side.js';
import { runProcess } from './processes.js';

const HOOKWERK = path.join(HOOKWERK_ROOT, 'bin', 'hookwerk.js');
/** The agent's project hook file that install writes (R-INST-1). */
export function agentHookFile(agent, proj) {
  const rel = {
    claude: ['.claude', 'settings.json'],
    gemini: ['.gemini', 'settings.json'],
    codex: ['.codex', 'hooks.json'],
    copilot: ['.github', 'hooks', 'hookwerk.json'],
  }[agent];
  return path.join(proj, ...rel);
}

let commandsOnce;
/** Which of `install`, `uninstall`, `runs` this checkout's CLI has (its `--help` lists them). */
export async function hookwerkCommands(env) {
  commandsOnce ??= runProcess(process.execPath, [HOOKWERK, '--help'], {
    cwd: HOOKWERK_ROOT,
    env,
    timeoutMs: 60_000,
  }).then((r) => {
    // A command line is indented two spaces; wrapped descriptions far more.
    const has = (name) => new RegExp(`^ {2}${name} `, 'm').test(r.stdout);
    return { install: has('install'), uninstall: has('uninstall'), runs: has('runs') };
  });
  return commandsOnce;
}

/**
 * Installs hookwerk into the agent's project hook file: `hookwerk install --agent A --project P`.
 * @returns {Promise<{how: string, code: number, stdout: string, stderr: string}>}
 */
export async function installHookwerk(agent, world, env) {
  const args = [HOOKWERK, 'install', '--agent', agent, '--project', world.proj];
  const r = await runProcess(process.execPath, args, { cwd: world.proj, env, timeoutMs: 60_000 });
  return { how: `hookwerk install --agent ${agent} --project <proj>`, ...pick(r) };
}

/** `hookwerk uninstall --agent A --project P`, or `undefined` when the CLI has no uninstall yet. */
export async function uninstallHookwerk(agent, world, env) {
  if (!(await hookwerkCommands(env)).uninstall) return undefined;
  const args = [HOOKWERK, 'uninstall', '--agent', agent, '--project', world.proj];
  return pick(await runProcess(process.execPath, args, { cwd: world.proj, env, timeoutMs: 60_000 }));
}

/**
 * [G-WARM-1] The agent's first guarded call started a daemon in the world's home, as it does for
 * a user: `hookwerk daemon stop` (home from env) ends it after the run, so none outlives its case.
 * A checkout without the command started none; its error is ignored.
 */
export async function stopHookwerkDaemon(world, env) {
  const args = [HOOKWERK, 'daemon', 'stop'];
  return pick(await runProcess(process.execPath, args, { cwd: world.proj, env, timeoutMs: 90_000 }));
}

/** `hookwerk runs --agent A --json` (home from env), or `undefined` when the CLI has no runs yet. */
export async function hookwerkRuns(agent, world, env) {
  if (!(await hookwerkCommands(env)).runs) return undefined;
  const args = [HOOKWERK, 'runs', '--agent', agent, '--json'];
  return pick(await runProcess(process.execPath, args, { cwd: world.proj, env, timeoutMs: 60_000 }));
}

/** The commands of the agent's hook file that call `hookwerk hook --agent A`, by event. */
export function installedCommands(agent, file) {
  if (!existsSync(file)) return [];
  let parsed;
  try {
    parsed = JSON.parse(stripComments(readFileSync(file, 'utf8')));
  } catch {
    return [];
  }
  const found = [];
  for (const [event, groups] of Object.entries(parsed?.hooks ?? {})) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      // Copilot's entries are flat ({bash}); the others are groups of handlers ({hooks: [{command}]}).
      const handlers = agent === 'copilot' ? [group] : Array.isArray(group?.hooks) ? group.hooks : [];
      handlers.forEach((h, i) => {
        const command = agent === 'copilot' ? h?.bash : h?.command;
        // `hookwerk hook --agent A`, or the C client by its quoted path: `'…/hookwerk-hook' --agent A`.
        if (typeof command === 'string' && new RegExp(`hook'? --agent ${agent}\\b`).test(command))
          found.push({ event, group: g, handler: i, command, timeout: h.timeout ?? h.timeoutSec });
      });
    });
  }
  return found;
}

/** `//` line comments out (Gemini CLI's settings allow them); enough for the suite's own files. */
function stripComments(text) {
  return text.replace(/^\s*\/\/.*$/gm, '');
}

function pick(r) {
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}
