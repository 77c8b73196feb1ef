// The one hook script every case uses, copied next to a `spec.json` into the case's hooks folder.
// `node h.mjs ID [ARGS…]`: it first records what it was given (stdin, argv, cwd, env, start time)
// into $HWDIFF_REC, then behaves as spec.json says for ID. The behaviour lives in spec.json, not in
// the command line, because Claude Code quotes the command in the text the model gets: a token in
// argv would reach the model whatever the hook answered.
//
// A behaviour: {out?: string|object, err?: string, exit?: number, sleepMs?: number,
//   envFile?: string (appended to $CLAUDE_ENV_FILE), when?: [{if: {key: value}, use: behaviour}]}
// `when` picks by the input (e.g. stop_hook_active), so both sides get the same answer for the same
// input, however often and in whatever process the hook is run.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const id = process.argv[2] ?? '';
const started = Date.now();
const stdin = readFileSync(0, 'utf8');
let input;
try {
  input = JSON.parse(stdin);
} catch {
  input = undefined;
}
const rec = process.env.HWDIFF_REC;
if (rec) {
  const record = { id, t: started, argv: process.argv.slice(3), cwd: process.cwd(), env: process.env, stdin };
  writeFileSync(path.join(rec, `${started}-${process.pid}-${id}.json`), JSON.stringify(record));
}

const specs = JSON.parse(readFileSync(new URL('./spec.json', import.meta.url), 'utf8'));
let behaviour = specs[id] ?? {};
for (const alt of behaviour.when ?? []) {
  if (Object.entries(alt.if).every(([k, v]) => JSON.stringify(input?.[k]) === JSON.stringify(v))) {
    behaviour = alt.use;
    break;
  }
}
if (behaviour.sleepMs) await new Promise((r) => setTimeout(r, behaviour.sleepMs));
if (behaviour.envFile && process.env.CLAUDE_ENV_FILE)
  appendFileSync(process.env.CLAUDE_ENV_FILE, behaviour.envFile);
if (behaviour.out !== undefined) {
  process.stdout.write(
    typeof behaviour.out === 'string' ? behaviour.out : `${JSON.stringify(behaviour.out)}\n`,
  );
}
if (behaviour.err !== undefined) process.stderr.write(behaviour.err);
process.exitCode = behaviour.exit ?? 0;
