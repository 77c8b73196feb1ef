/**
 * [T-SELF-4] The agents pass the `env` of their own settings files to hook commands (Claude
 * Code's top-level `env`; the per-hook `env` of Gemini CLI, Copilot and Cursor entries), and a
 * project's files are the agent's to write. So a project file could point `hookwerk hook` at
 * another home (another policy, journal and trust store) or another daemon socket. This module
 * reads those keys of the project's files of the agent being served, and when a variable hookwerk
 * takes its home or socket from has the value a project file sets, the call runs with the
 * account's home from the password database and the default socket instead (one stderr line).
 * User and managed settings may set them: only project files are read.
 *
 * Read bounded (core/read-source.ts) and parsed leniently (comments, trailing commas: what the
 * agents accept), every `env` object anywhere in a file counts: a value named in any of them is
 * one the agent may pass. Codex passes its own environment, none of a file's.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { type PasswdHome, passwdHome } from '../core/home.ts';
import { jsonDepthOverflow, MAX_JSON_DEPTH } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { HOOK_AGENTS, type HookAgentName } from '../dialects/hook-agents.ts';

/** A settings file larger than this is not read (no agent's is near it). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

const EXACT = new Set(['HOME', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'COPILOT_HOME']);

/** The variables hookwerk takes its home, socket or settings from. */
export function isHomeVariable(name: string): boolean {
  return EXACT.has(name) || name.startsWith('XDG_') || name.startsWith('HOOKWERK_');
}

/** Every `name → value` of a home variable set by an `env` object anywhere in `value`. */
function collectEnv(value: unknown, out: Map<string, Set<string>>, depth = 0): void {
  if (depth > MAX_JSON_DEPTH || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectEnv(item, out, depth + 1);
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'env' && typeof inner === 'object' && inner !== null && !Array.isArray(inner))
      for (const [name, set] of Object.entries(inner))
        if (typeof set === 'string' && isHomeVariable(name)) {
          const values = out.get(name) ?? new Set<string>();
          values.add(set);
          out.set(name, values);
        }
    collectEnv(inner, out, depth + 1);
  }
}

/** The home variables the project files of `agent` in `dirs` set: name → values, and the files. */
export function projectSetVariables(
  agent: HookAgentName,
  dirs: readonly string[],
): { values: Map<string, Set<string>>; files: Map<string, string> } {
  const values = new Map<string, Set<string>>();
  const files = new Map<string, string>();
  for (const dir of new Set(dirs))
    for (const file of HOOK_AGENTS[agent].install.envFiles(dir)) {
      const read = readSourceFile(file, MAX_SETTINGS_BYTES);
      if (read.kind !== 'text' || jsonDepthOverflow(read.text, MAX_JSON_DEPTH) >= 0) continue;
      const found = new Map<string, Set<string>>();
      collectEnv(parseJsonc(read.text, [], { allowTrailingComma: true }), found);
      for (const [name, set] of found) {
        const all = values.get(name) ?? new Set<string>();
        for (const v of set) all.add(v);
        values.set(name, all);
        if (!files.has(name)) files.set(name, file);
      }
    }
  return { values, files };
}

/** The environment a call runs with; `line`: what was replaced, for stderr (none when nothing). */
export interface GuardedEnv {
  env: NodeJS.ProcessEnv;
  line?: string;
}

/**
 * `env` as the call must see it: unchanged when no home variable has a value a project file of
 * `agent` (in `dirs`) sets; otherwise without those variables and `HOOKWERK_DAEMON_SOCKET`, with
 * `HOME` the password database's. `passwd` is for tests.
 */
export function guardProjectEnv(
  agent: HookAgentName,
  dirs: readonly string[],
  env: NodeJS.ProcessEnv,
  passwd: () => PasswdHome = passwdHome,
): GuardedEnv {
  const { values, files } = projectSetVariables(agent, dirs);
  const taken: string[] = [];
  let db: PasswdHome | undefined;
  for (const [name, set] of values) {
    const current = env[name];
    if (current === undefined || !set.has(current)) continue;
    // A project that sets HOME to the account's own home changes nothing.
    db ??= name === 'HOME' ? passwd() : undefined;
    if (name === 'HOME' && db !== undefined && 'home' in db && db.home === current) continue;
    taken.push(name);
  }
  if (taken.length === 0) return { env };
  taken.sort();
  const guarded: NodeJS.ProcessEnv = { ...env };
  for (const name of taken) delete guarded[name];
  delete guarded.HOOKWERK_DAEMON_SOCKET;
  db ??= passwd();
  if ('home' in db) guarded.HOME = db.home;
  const where = [...new Set(taken.map((n) => files.get(n)))].join(', ');
  const home =
    'home' in db ? `the account's home (${db.home})` : `no home (the password database ${db.missing})`;
  return {
    env: guarded,
    line: `hookwerk: ${taken.join(', ')} ${taken.length === 1 ? 'has' : 'have'} the value a project file sets (${where}); ${home} and the default daemon socket are used instead [T-SELF-4]`,
  };
}
