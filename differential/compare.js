// One case's comparison: what matters to the agent, each as an aspect with the real tool's value,
// hookwerk's value, and whether they agree.
//   hooks  which hooks ran on each firing (matchers, `if` rules, dedup, disabled hooks)
//   files  the files the tool's actions left (did the tool run, and with which input)
//   model  the hook tokens the model was told (reasons, stderr, context, feedback)
//   user   the hook tokens shown to the user (Gemini CLI's "Hook system message" lines)
//   next   after a UserPromptSubmit/Stop/BeforeAgent/AfterAgent/BeforeModel firing: another model call?
//   stop   did a hook stop the agent (continue:false)
//   input  (asked for by the case) the stdin each hook got
//   env    (asked for by the case) cwd, argv and the dialect's variables each hook saw
import { isDeepStrictEqual } from 'node:util';
import { RECORDER } from './world.js';

const ENV_VARS = {
  claude: ['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA'],
  gemini: ['GEMINI_PROJECT_DIR', 'GEMINI_CWD', 'GEMINI_SESSION_ID', 'GEMINI_PLANS_DIR', 'CLAUDE_PROJECT_DIR'],
  codex: ['CLAUDE_PROJECT_DIR', 'CODEX_PROJECT_DIR', 'PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT', 'CODEX_HOME'],
  copilot: ['COPILOT_PROJECT_DIR', 'CLAUDE_PROJECT_DIR', 'COPILOT_HOOK_DIR'],
};
/** Set on both sides, but to a file each engine makes for itself: only its presence is compared. */
const PRESENCE_ONLY = ['CLAUDE_ENV_FILE'];
const NEXT_EVENTS = new Set([
  'UserPromptSubmit',
  'Stop',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'userPromptSubmitted',
  'agentStop',
]);

/**
 * @param {object} c
 * @param {'claude'|'gemini'} c.dialect
 * @param {object} c.kase
 * @param {object[]} c.firings the real run's invocations
 * @param {object} c.real {files, model, user, stopped, requests}
 * @param {object} c.hw {decides, effects, files, model, user, stopped}
 */
export function compareCase({ dialect, kase, firings, real, hw }) {
  const aspects = [];
  const add = (name, realValue, hwValue) =>
    aspects.push({
      aspect: name,
      real: realValue,
      hookwerk: hwValue,
      agree: isDeepStrictEqual(realValue, hwValue),
    });

  add(
    'hooks',
    firings.map((f) => ranIds(f.records)),
    hw.decides.map((d) => ranIds(d.records)),
  );
  add('files', real.files, hw.files);
  add('model', real.model, hw.model);
  if (dialect !== 'claude') add('user', real.user, hw.user);
  const nextReal = [];
  const nextHw = [];
  firings.forEach((f, i) => {
    if (!NEXT_EVENTS.has(f.event)) return;
    if (kase.lastNextIsTheAgents && i === firings.findLastIndex((g) => g.event === f.event)) return;
    // The agent went on: a model call came after the firing, or (Gemini) the next model step's
    // BeforeModel firing did, even if a BeforeModel hook then answered in the model's place.
    const wentOn =
      real.requests.some((r) => r.t > f.tEnd) ||
      (f.event !== 'BeforeModel' && firings.some((g, j) => j > i && g.event === 'BeforeModel'));
    nextReal.push(`${f.event}#${i}:${wentOn}`);
    nextHw.push(`${f.event}#${i}:${hw.effects[i]?.next}`);
  });
  if (nextReal.length > 0) add('next', nextReal, nextHw);
  add('stop', real.stopped, hw.stopped);

  const compare = new Set(kase.compare ?? []);
  if (compare.has('input') || compare.has('env')) {
    const ins = { real: {}, hookwerk: {} };
    const envs = { real: {}, hookwerk: {} };
    firings.forEach((f, i) => {
      const hwRecords = hw.decides[i]?.records ?? [];
      // The case's own hooks: the recorder's input is every firing's, and would repeat one
      // difference (say, of SessionStart) in every case that compares inputs.
      for (const r of f.records.filter((x) => x.id !== RECORDER)) {
        const key = `${f.event}#${i}/${r.id}`;
        const other = hwRecords.find((h) => h.id === r.id);
        ins.real[key] = pick(r.input, kase.inputFields);
        ins.hookwerk[key] = other ? pick(other.input, kase.inputFields) : '(did not run)';
        envs.real[key] = seen(r, dialect, kase);
        envs.hookwerk[key] = other ? seen(other, dialect, kase) : '(did not run)';
      }
    });
    if (compare.has('input')) add('input', ins.real, ins.hookwerk);
    if (compare.has('env')) add('env', envs.real, envs.hookwerk);
  }
  return aspects;
}

/** The input, or only the fields a case looks at (to test one thing apart from another). */
function pick(input, fields) {
  if (fields === undefined || !isObject(input)) return input;
  return Object.fromEntries(fields.map((f) => [f, input[f]]));
}

/** The ids of the case's hooks that started, sorted (the recorder left out). */
function ranIds(records) {
  return records
    .map((r) => r.id)
    .filter((id) => id !== RECORDER)
    .sort();
}

/** cwd, argv and variables a hook saw: the dialect's, or with `envOnly` just the case's `envVars`. */
function seen(record, dialect, kase) {
  const vars = {};
  const names = kase.envOnly
    ? (kase.envVars ?? [])
    : [...ENV_VARS[dialect], ...(kase.envVars ?? []), ...PRESENCE_ONLY];
  for (const name of names) {
    if (PRESENCE_ONLY.includes(name)) vars[name] = record.env[name] === undefined ? '(unset)' : '(set)';
    else vars[name] = record.env[name] ?? '(unset)';
  }
  return {
    cwd: record.cwd,
    argv: record.argv,
    env: vars,
    ...(record.headers ? { headers: record.headers } : {}),
  };
}

/** A short text for a disagreeing aspect: the first differing entry, not the whole values. */
export function describe(a) {
  const show = (v) => {
    const s = JSON.stringify(v);
    return s === undefined ? 'undefined' : s.length > 240 ? `${s.slice(0, 240)}…` : s;
  };
  if (isObject(a.real) && isObject(a.hookwerk)) {
    const keys = [...new Set([...Object.keys(a.real), ...Object.keys(a.hookwerk)])];
    const differing = keys.filter((key) => !isDeepStrictEqual(a.real[key], a.hookwerk[key]));
    const k = differing[0];
    if (k !== undefined) {
      const r = a.real[k];
      const h = a.hookwerk[k];
      const more = differing.length > 1 ? ` (and ${differing.length - 1} more)` : '';
      if (isObject(r) && isObject(h)) return `${a.aspect} ${k}: ${fieldDiff(r, h)}${more}`;
      return `${a.aspect} ${k}: real ${show(r)} / hookwerk ${show(h)}${more}`;
    }
  }
  return `${a.aspect}: real ${show(a.real)} / hookwerk ${show(a.hookwerk)}`;
}

function fieldDiff(r, h, prefix = '') {
  const parts = [];
  for (const key of [...new Set([...Object.keys(r), ...Object.keys(h)])]) {
    if (isDeepStrictEqual(r[key], h[key])) continue;
    if (isObject(r[key]) && isObject(h[key])) parts.push(fieldDiff(r[key], h[key], `${prefix}${key}.`));
    else parts.push(`${prefix}${key} real ${JSON.stringify(r[key])} / hookwerk ${JSON.stringify(h[key])}`);
  }
  return parts.join('; ');
}

function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
