// What one side of a case left behind, read the same way for the real tool and for hookwerk: the
// hook records (grouped into invocations: one firing of an event, all the hooks it ran), the files
// the tools' actions made in the project, and the tokens in a text.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Hooks answer with tokens like ZQDENY_A; nothing else a tool or model writes looks like one. A
 * field that must be a number (a reason of the wrong type) carries 97531 and digits instead.
 */
export function tokens(text) {
  if (text === undefined || text === null) return [];
  const s = typeof text === 'string' ? text : JSON.stringify(text);
  return [...new Set(s.match(/ZQ[A-Z0-9_]+|\b97531\d*\b/g) ?? [])].sort();
}

/** Every record in a folder, in start order. */
export function readRecords(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const r = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
      try {
        r.input = JSON.parse(r.stdin);
      } catch {
        r.input = undefined;
      }
      return r;
    })
    .sort((a, b) => a.t - b.t);
}

/**
 * Groups a run's records into invocations. Claude Code gives every hook of one firing the same
 * stdin, so the stdin is the key, with the number of model calls made before it: a Stop hook that
 * keeps blocking gets the same stdin every time, but each firing follows another model call.
 * Gemini CLI stamps one `timestamp` per firing but, for a `sequential` group, hands each hook the
 * input as rewritten by the one before: there the key is the event and the timestamp, and the
 * input of the first hook to start is the firing's input.
 * @param {object[]} records
 * @param {'claude'|'gemini'} dialect
 * @param {number[]} callTimes when the model calls arrived
 */
export function invocations(records, dialect, callTimes) {
  const byKey = new Map();
  for (const r of records) {
    // Copilot's camelCase input names no event: every hook is given it in argv (world.js).
    const event = dialect === 'copilot' ? (r.argv[0] ?? '?') : (r.input?.hook_event_name ?? '?');
    const calls = callTimes.filter((t) => t < r.t).length;
    const key =
      dialect === 'gemini'
        ? `${event}\0${r.input?.timestamp}`
        : dialect === 'copilot'
          ? `${event}\0${calls}\0${copilotStamp(r.input?.timestamp)}`
          : `${calls}\0${JSON.stringify(r.input) ?? r.stdin}`;
    let inv = byKey.get(key);
    if (inv === undefined) {
      inv = { event, input: r.input, stdin: r.stdin, t: r.t, tEnd: r.t, records: [] };
      byKey.set(key, inv);
    }
    inv.records.push(r);
    inv.tEnd = Math.max(inv.tEnd, r.t);
  }
  return [...byKey.values()].sort((a, b) => a.t - b.t);
}

/** Copilot CLI stamps each firing once: in ms (camelCase form) or as ISO text (VS Code form). */
function copilotStamp(value) {
  return typeof value === 'string' ? Date.parse(value) : value;
}

/** The files the tools' actions made: everything in the project but its dot-folders, with content. */
export function projectFiles(proj) {
  const out = {};
  const walk = (dir, rel) => {
    for (const name of readdirSync(dir).sort()) {
      if (rel === '' && name.startsWith('.')) continue;
      const full = path.join(dir, name);
      const relName = rel === '' ? name : `${rel}/${name}`;
      if (statSync(full).isDirectory()) walk(full, relName);
      else out[relName] = readFileSync(full, 'utf8');
    }
  };
  if (existsSync(proj)) walk(proj, '');
  return out;
}
