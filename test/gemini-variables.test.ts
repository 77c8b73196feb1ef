/**
 * [G-RUN-2] Gemini CLI's variables in a command string (issue 18, item 5): a `$(…)`, a backtick,
 * a quote or a `;` in the input's `cwd`, its `session_id`, the project folder's name (or a
 * hook's own `GEMINI_PLANS_DIR`) never runs, whatever quotes the command puts around the
 * variable, and the hook still gets the exact value. Run for real: `hookwerk decide --dialect
 * gemini` over hooks in a temp HOME's `~/.gemini/settings.json`, a probe script that writes down
 * its argv and environment, folders with those names on disk, and marker files that an injected
 * `touch` would create.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines; `${VAR}` is shell syntax.
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCommand } from '../src/dialects/gemini/command.ts';
import { runCli, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

/** Every way out of a quoting context: `$(…)`, backticks, both quotes, `;`, a glob, spaces. */
const hostile = (where: string) =>
  `x $(touch ${where}pwned-1) \`touch ${where}pwned-2\` "dq" 'sq' ; touch ${where}pwned-3 ; * y`;

const PROBE = `
const fs = require('node:fs');
const names = ['GEMINI_PROJECT_DIR', 'GEMINI_CWD', 'GEMINI_SESSION_ID', 'GEMINI_PLANS_DIR', 'CLAUDE_PROJECT_DIR'];
const env = Object.fromEntries(names.map((n) => [n, process.env[n] ?? null]));
fs.writeFileSync(process.env.REPORT, JSON.stringify({ argv: process.argv.slice(2), env }));
process.stdout.write('{}');
`;

interface Report {
  argv: string[];
  env: Record<string, string | null>;
}

interface World {
  parent: string;
  project: string;
  cwd: string;
  home: string;
  probe: string;
  reports: string;
}

/** A project folder (named `projectName`) holding the input's cwd (named `cwdName`), a HOME, a probe. */
function world(projectName: string, cwdName: string): World {
  const parent = realpathSync(tempDir('hw-gvar-'));
  const project = path.join(parent, projectName);
  const cwd = path.join(project, cwdName);
  mkdirSync(cwd, { recursive: true });
  const home = realpathSync(tempDir('hw-gvar-home-'));
  const tools = realpathSync(tempDir('hw-gvar-tools-'));
  const probe = path.join(tools, 'probe.cjs');
  writeFileSync(probe, PROBE);
  const reports = path.join(tools, 'reports');
  mkdirSync(reports);
  return { parent, project, cwd, home, probe, reports };
}

/** The name of a file an injected `touch` would have made (the folder names hold the text only). */
const MARKER = /^(session-|plans-)?pwned-(\d|sq;?)$/;

/** Every file name under `dir`, recursively. */
function allNames(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => path.basename(p));
}

type Handler = { type: 'command'; command: string; name: string; env: Record<string, string> };

async function decide(w: World, hooks: Handler[], input: Record<string, unknown>) {
  mkdirSync(path.join(w.home, '.gemini'), { recursive: true });
  writeFileSync(
    path.join(w.home, '.gemini', 'settings.json'),
    JSON.stringify({ hooks: { BeforeTool: [{ hooks }] } }),
  );
  const r = await runCli(['decide', 'BeforeTool', '--dialect', 'gemini', '--project', w.project], {
    cwd: w.project,
    home: w.home,
    stdin: {
      text: JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' }, ...input }),
    },
  });
  expect(r.stderr).not.toMatch(STACK);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { decision: string; runs: { hook: string; outcome: string }[] };
}

function hook(w: World, name: string, command: string, env: Record<string, string> = {}): Handler {
  return { type: 'command', name, command, env: { REPORT: path.join(w.reports, `${name}.json`), ...env } };
}

const report = (w: World, name: string): Report =>
  JSON.parse(readFileSync(path.join(w.reports, `${name}.json`), 'utf8')) as Report;

/** `$NAME` in every spelling a command uses: double quotes, braces, bare, glued, single quotes. */
const FORMS = (name: string) =>
  `"$${name}" "\${${name}}" $${name} \${${name}} x$${name} "pre-\${${name}}-post" '$${name}'`;

describe('[G-RUN-2] no value of the input or the folder name reaches a shell parser', () => {
  it('[G-RUN-2] cwd, session_id, the project folder’s name and GEMINI_PLANS_DIR holding $(…), backticks, quotes and ; never run; the hook gets each exact value', async () => {
    const w = world(hostile(''), hostile(''));
    const sessionId = hostile(`${w.parent}/session-`);
    const plans = hostile(`${w.parent}/plans-`);
    const variables = [
      'GEMINI_CWD',
      'GEMINI_SESSION_ID',
      'GEMINI_PROJECT_DIR',
      'CLAUDE_PROJECT_DIR',
      'GEMINI_PLANS_DIR',
    ];
    const hooks = variables.map((v) =>
      hook(w, v, `node ${w.probe} ${FORMS(v)}`, v === 'GEMINI_PLANS_DIR' ? { GEMINI_PLANS_DIR: plans } : {}),
    );
    // A nested shell gets the single-quoted name and expands it from the environment itself.
    hooks.push(
      hook(w, 'nested', `sh -c 'node ${w.probe} "$GEMINI_CWD" "$GEMINI_SESSION_ID" "$GEMINI_PROJECT_DIR"'`),
    );
    const d = await decide(w, hooks, { cwd: w.cwd, session_id: sessionId });

    expect(d.decision).toBe('allow');
    expect(d.runs.map((r) => [r.hook, r.outcome])).toEqual([...variables, 'nested'].map((v) => [v, 'ok']));
    // Nothing ran: no marker anywhere an injected `touch` could have put one.
    for (const dir of [w.parent, w.home, path.dirname(w.probe)])
      expect(allNames(dir).filter((n) => MARKER.test(n))).toEqual([]);

    const value: Record<string, string> = {
      GEMINI_CWD: w.cwd,
      GEMINI_SESSION_ID: sessionId,
      GEMINI_PROJECT_DIR: w.project,
      CLAUDE_PROJECT_DIR: w.project,
      GEMINI_PLANS_DIR: plans,
    };
    for (const v of variables) {
      const got = report(w, v);
      const exact = value[v] ?? '';
      // Single-quoted, a value that is not plain stays the name: see the next test.
      expect(got.argv, v).toEqual([exact, exact, exact, exact, `x${exact}`, `pre-${exact}-post`, `$${v}`]);
      expect(got.env[v]).toBe(exact);
    }
    expect(report(w, 'nested').argv).toEqual([w.cwd, sessionId, w.project]);
  });

  it('[G-RUN-2] single quotes, as Gemini CLI 0.61: a plain value is written in; ${NAME} and \\$NAME stay literal; an empty variable is no word', async () => {
    const w = world('plain-project', 'sub');
    const d = await decide(
      w,
      [
        hook(
          w,
          'single',
          `node ${w.probe} '$GEMINI_CWD|$GEMINI_SESSION_ID|$GEMINI_PROJECT_DIR|$GEMINI_PLANS_DIR' '\${GEMINI_CWD}' \\$GEMINI_CWD "\\$GEMINI_CWD" $GEMINI_PLANS_DIR end`,
          // [G-RUN-1] The hook's own env sets GEMINI_PLANS_DIR (here: empty), as Gemini CLI lets it.
          { GEMINI_PLANS_DIR: '' },
        ),
      ],
      { cwd: w.cwd, session_id: 'sess-42.a_b+c%d' },
    );
    expect(d.runs[0]).toMatchObject({ outcome: 'ok' });
    expect(report(w, 'single').argv).toEqual([
      `${w.cwd}|sess-42.a_b+c%d|${w.project}|`,
      '${GEMINI_CWD}',
      '$GEMINI_CWD',
      '$GEMINI_CWD',
      // Empty: no word at all, as Gemini CLI's empty substitution gives.
      'end',
    ]);
  });

  it('[G-RUN-2] single quotes: a value that is not plain is never written in, so a nested `sh -c` cannot run it', async () => {
    const w = world('plain-project', 'sub');
    const sessionId = `a'; touch ${w.parent}/pwned-sq; '`;
    const d = await decide(
      w,
      [
        hook(w, 'nested', `sh -c 'node ${w.probe} $GEMINI_SESSION_ID'`),
        hook(w, 'argv', `node ${w.probe} '$GEMINI_SESSION_ID'`),
      ],
      { cwd: w.cwd, session_id: sessionId },
    );
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'ok']);
    expect(allNames(w.parent).filter((n) => MARKER.test(n))).toEqual([]);
    // The nested shell expands its bare $GEMINI_SESSION_ID from the environment (and splits it, as
    // any shell does); the direct argument keeps the name, and the value is in the environment.
    expect(report(w, 'nested').argv).toEqual(sessionId.split(' '));
    expect(report(w, 'argv')).toMatchObject({
      argv: ['$GEMINI_SESSION_ID'],
      env: { GEMINI_SESSION_ID: sessionId },
    });
  });
});

describe('[G-RUN-2] the rewrite itself (geminiCommand)', () => {
  const env = { GEMINI_CWD: `/p/$(x)`, GEMINI_SESSION_ID: 's-1' };

  it('[G-RUN-2] references are rewritten by where they stand; no value but a plain one is ever written', () => {
    const cases: [string, string][] = [
      ['run $GEMINI_CWD/h.sh', 'run ${GEMINI_CWD:+"$GEMINI_CWD"}/h.sh'],
      ['run ${GEMINI_CWD}', 'run ${GEMINI_CWD:+"$GEMINI_CWD"}'],
      ['run "$GEMINI_CWD/h.sh"', 'run "$GEMINI_CWD/h.sh"'],
      ["run '$GEMINI_CWD' '$GEMINI_SESSION_ID'", "run '$GEMINI_CWD' 's-1'"],
      ["run $'$GEMINI_SESSION_ID\\''", "run $'s-1\\''"],
      ['run "$(dirname $GEMINI_CWD)"', 'run "$(dirname ${GEMINI_CWD:+"$GEMINI_CWD"})"'],
      ['run ${X:-$GEMINI_CWD} $((1 + 2)) $GEMINI_CWDX', 'run ${X:-$GEMINI_CWD} $((1 + 2)) $GEMINI_CWDX'],
      ['run # $GEMINI_CWD', 'run # $GEMINI_CWD'],
      [
        "cat <<'E'\n$GEMINI_SESSION_ID $GEMINI_CWD\nE\nrun $GEMINI_CWD",
        'cat <<\'E\'\ns-1 $GEMINI_CWD\nE\nrun ${GEMINI_CWD:+"$GEMINI_CWD"}',
      ],
      ['cat <<E\n$GEMINI_CWD\nE', 'cat <<E\n$GEMINI_CWD\nE'],
    ];
    for (const [command, expected] of cases) expect(geminiCommand(command, env), command).toBe(expected);
  });

  it('[G-RUN-2] as the shell lexer reads it: substitutions, here-strings, here-documents at any depth; $$ and delimiters are no references', () => {
    const rewrites = {
      'echo `echo $GEMINI_CWD`': 'echo `echo ${GEMINI_CWD:+"$GEMINI_CWD"}`',
      'echo ${X:-$(echo $GEMINI_CWD)}': 'echo ${X:-$(echo ${GEMINI_CWD:+"$GEMINI_CWD"})}',
      'diff <(ls $GEMINI_CWD) x': 'diff <(ls ${GEMINI_CWD:+"$GEMINI_CWD"}) x',
      'cat <<<$GEMINI_CWD': 'cat <<<${GEMINI_CWD:+"$GEMINI_CWD"}',
      'x="$(cat <<\'E\'\n$GEMINI_SESSION_ID\nE\n)"': 'x="$(cat <<\'E\'\ns-1\nE\n)"',
      'cat <<$GEMINI_CWD\nx\n$GEMINI_CWD': 'cat <<$GEMINI_CWD\nx\n$GEMINI_CWD',
      'echo $$GEMINI_CWD': 'echo $$GEMINI_CWD',
    };
    const commands = Object.keys(rewrites);
    expect(Object.fromEntries(commands.map((c) => [c, geminiCommand(c, env)]))).toEqual(rewrites);
  });
});

describe('[G-RUN-1] a hook’s own env is laid over the per-run variables, as Gemini CLI 0.61 does', () => {
  it('[G-RUN-1] env GEMINI_CWD / GEMINI_SESSION_ID / GEMINI_PLANS_DIR of the hook win; without them the run’s values hold', async () => {
    const w = world('proj', 'sub');
    const own = {
      GEMINI_CWD: '/custom/cwd',
      GEMINI_SESSION_ID: 'own-session',
      GEMINI_PLANS_DIR: '/custom/plans',
    };
    const d = await decide(w, [hook(w, 'own', `node ${w.probe}`, own), hook(w, 'plain', `node ${w.probe}`)], {
      cwd: w.cwd,
      session_id: 'run-session',
    });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'ok']);
    expect(report(w, 'own').env).toMatchObject(own);
    expect(report(w, 'plain').env).toMatchObject({ GEMINI_CWD: w.cwd, GEMINI_SESSION_ID: 'run-session' });
  });
});
