// Putting `hookwerk hook --agent A` into an agent's own hook file, and taking it out again, for the
// install suite. `hookwerk install` / `uninstall` do it once they are in this checkout's CLI; until
// then the suite writes the entries itself, in the shape install writes them (R-INST-1), so that
// switching over changes nothing in what the agents are given.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HOOKWERK_ROOT } from './hookwerk-side.js';
import { runProcess } from './processes.js';

const HOOKWERK = path.join(HOOKWERK_ROOT, 'bin', 'hookwerk.js');
/** Seconds the agent waits for the hook (install's HOOK_TIMEOUT_S). */
const HOOK_TIMEOUT_S = 30;

/** The events install writes for each agent (R-INST-1: each that maps to a Claude Code event). */
export const INSTALL_EVENTS = {
  claude: [
    'PreToolUse',
    'PermissionRequest',
    'PostToolUse',
    'PostToolUseFailure',
    'UserPromptSubmit',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'SessionStart',
    'SessionEnd',
    'PreCompact',
    'Notification',
  ],
  gemini: [
    'BeforeTool',
    'AfterTool',
    'BeforeAgent',
    'AfterAgent',
    'SessionStart',
    'SessionEnd',
    'PreCompress',
    'Notification',
  ],
  codex: [
    'SessionStart',
    'UserPromptSubmit',
    'PreToolUse',
    'PermissionRequest',
    'PostToolUse',
    'Stop',
    'PreCompact',
    'SubagentStart',
    'SubagentStop',
    'SessionEnd',
  ],
  copilot: [
    'sessionStart',
    'sessionEnd',
    'userPromptSubmitted',
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'permissionRequest',
    'agentStop',
    'subagentStop',
    'preCompact',
  ],
};

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

/** `'<node>' '<repo>/bin/hookwerk.js' hook --agent A [--event E]`, as install writes it. */
export function hookCommand(agent, event) {
  const q = (w) => `'${w.replaceAll("'", `'\\''`)}'`;
  return `${q(process.execPath)} ${q(HOOKWERK)} hook --agent ${agent}${event ? ` --event ${event}` : ''}`;
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
 * Installs hookwerk into the agent's project hook file: `hookwerk install --agent A --project P`
 * when the CLI has it, else the same entries written here. The one place that knows how.
 * @returns {Promise<{how: string, code: number, stdout: string, stderr: string}>}
 */
export async function installHookwerk(agent, world, env) {
  if ((await hookwerkCommands(env)).install) {
    const args = [HOOKWERK, 'install', '--agent', agent, '--project', world.proj];
    const r = await runProcess(process.execPath, args, { cwd: world.proj, env, timeoutMs: 60_000 });
    return { how: `hookwerk install --agent ${agent} --project <proj>`, ...pick(r) };
  }
  writeEntries(agent, agentHookFile(agent, world.proj));
  return {
    how: 'written by the suite (hookwerk install is not in this checkout yet)',
    code: 0,
    stdout: '',
    stderr: '',
  };
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

function writeEntries(agent, file) {
  const events = INSTALL_EVENTS[agent];
  const existing = existsSync(file) ? JSON.parse(stripComments(readFileSync(file, 'utf8'))) : {};
  const out = agent === 'copilot' && !existsSync(file) ? { version: 1, ...existing } : { ...existing };
  out.hooks = { ...(out.hooks ?? {}) };
  for (const event of events) {
    const entry =
      agent === 'copilot'
        ? { type: 'command', bash: hookCommand(agent, event), timeoutSec: HOOK_TIMEOUT_S }
        : {
            hooks: [
              {
                type: 'command',
                // Gemini CLI lists a hook by name and reads `timeout` in milliseconds.
                ...(agent === 'gemini' ? { name: 'hookwerk' } : {}),
                command: hookCommand(agent),
                timeout: agent === 'gemini' ? HOOK_TIMEOUT_S * 1000 : HOOK_TIMEOUT_S,
              },
            ],
          };
    out.hooks[event] = [...(out.hooks[event] ?? []), entry];
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
}

/** `//` line comments out (Gemini CLI's settings allow them); enough for the suite's own files. */
function stripComments(text) {
  return text.replace(/^\s*\/\/.*$/gm, '');
}

function pick(r) {
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}
