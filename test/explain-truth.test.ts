/**
 * [G-FAIL-5] `explain` tells the truth: what it lists as RUNS is what `decide` runs, in run order,
 * with every handler's `if`, `failMode` and `timeout`; a handler is a duplicate only when it is
 * the same handler (type, command, `if`, matcher) and really runs once; paths under the home folder
 * show as `~`. Real settings files in a temp project and HOME, the real CLI (dist/) as a process.
 */
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tildePath } from '../src/core/tilde-path.ts';
import { handlerIdentity } from '../src/registry/handler-identity.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { tempDir, writeScript } from './helpers.ts';

interface Env {
  project: string;
  home: string;
}

/** A temp HOME, and a project beside it (default) or inside it. */
function newEnv(projectInHome = false): Env {
  const home = realpathSync(tempDir('hw-explain-home-'));
  const project = projectInHome ? path.join(home, 'work', 'app') : realpathSync(tempDir('hw-explain-'));
  mkdirSync(project, { recursive: true });
  return { project, home };
}

type Handler = Record<string, unknown>;
type Groups = Array<{ matcher?: string; hooks: Handler[] }>;

function writeSettings(file: string, hooks: Record<string, Groups>): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ hooks }, null, 2)}\n`);
  return file;
}
const userSettings = (e: Env) => path.join(e.home, '.claude', 'settings.json');
const projectSettings = (e: Env) => path.join(e.project, '.claude', 'settings.json');

const cli = async (e: Env, args: string[]) => {
  const r = await runCli(args, { cwd: e.project, home: e.home });
  expect(r.stderr).not.toMatch(STACK);
  return r;
};

async function trust(e: Env): Promise<void> {
  const r = await cli(e, ['trust', '--yes']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

const decisionSchema = z.object({
  reason: z.string().optional(),
  runs: z.array(z.object({ hook: z.string(), source: z.string(), reason: z.string().optional() })),
});

/** `hookwerk decide EVENT --dialect claude --input …`: the sources of the hooks it ran. */
async function decide(e: Env, event: string, input: Record<string, unknown>) {
  const r = await cli(e, ['decide', event, '--dialect', 'claude', '--input', JSON.stringify(input)]);
  return { ...r, d: decisionSchema.parse(JSON.parse(r.stdout)) };
}

interface Line {
  n: number;
  label: string;
  hook: string;
  detail: string;
  handler: string | undefined;
  from: string;
}

/** `hookwerk explain EVENT --dialect claude [args]`, its entries parsed. */
async function explain(e: Env, event: string, args: string[] = []) {
  const r = await cli(e, ['explain', event, '--dialect', 'claude', ...args]);
  expect(r.code, r.stderr).toBe(0);
  const out = r.stdout.split('\n');
  const lines: Line[] = [];
  for (let i = 1; i < out.length && out[i] !== ''; ) {
    const m = /^\s+(\d+)\. (RUNS|no match|if not matched|duplicate|disabled|untrusted|\S+)\s+(.*)$/.exec(
      out[i]!,
    );
    if (m === null) throw new Error(`not an entry line: ${out[i]}\n${r.stdout}`);
    const block: string[] = [];
    for (i++; i < out.length && !/^\s+from /.test(out[i]!); i++) block.push(out[i]!.trim());
    lines.push({
      n: Number(m[1]),
      label: m[2]!,
      hook: m[3]!,
      detail: block[0]!,
      handler: block[1],
      from: out[i++]!.trim().replace(/^from /, ''),
    });
  }
  return { ...r, lines };
}

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js')))
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
});

describe('[G-FAIL-5] explain shows what decide runs', () => {
  it('[G-FAIL-5] [C-RUN-1] [C-RUN-2] three handlers with one command and three `if` rules: each listed with its `if`, none a duplicate; with --tool and --input exactly those decide runs show RUNS', async () => {
    const e = newEnv();
    const same = 'echo guard >> "$CLAUDE_PROJECT_DIR/ran.log"';
    const file = writeSettings(projectSettings(e), {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: same, if: 'Bash(rm *)', failMode: 'closed', timeout: 30 },
            { type: 'command', command: same, if: 'Bash(git *)' },
            { type: 'command', command: same, if: 'Bash(*)', timeout: 1.5 },
          ],
        },
      ],
    });
    await trust(e);
    const at = (i: number) => `${file}#/hooks/PreToolUse/0/hooks/${i}`;

    // No tool call: every handler listed with its `if` (not tested), none folded into another.
    const all = await explain(e, 'PreToolUse');
    expect(all.lines.map((l) => [l.label, l.from])).toEqual([
      ['RUNS', at(0)],
      ['RUNS', at(1)],
      ['RUNS', at(2)],
    ]);
    expect(all.lines.map((l) => l.handler)).toEqual([
      'command, if "Bash(rm *)", failMode closed, timeout 30 s',
      'command, if "Bash(git *)", failMode open, timeout 600 s',
      'command, if "Bash(*)", failMode open, timeout 1.5 s',
    ]);
    expect(all.lines[0]!.detail).toContain('if "Bash(rm *)" not tested (no tool call given)');
    expect(all.stdout).not.toMatch(/duplicate/);

    // Each call: explain's RUNS are exactly decide's runs, in the same order.
    const cases: Array<[string, number[]]> = [
      ['rm -rf x', [0, 2]],
      ['git push', [1, 2]],
      ['ls', [2]],
    ];
    for (const [command, expected] of cases) {
      const why = await explain(e, 'PreToolUse', ['--tool', 'Bash', '--input', JSON.stringify({ command })]);
      expect(why.stdout.split('\n')[0]).toBe(
        `PreToolUse (claude) with tool_name "Bash", tool_input ${JSON.stringify({ command })}:`,
      );
      const runs = why.lines.filter((l) => l.label === 'RUNS').map((l) => l.from);
      expect(runs, command).toEqual(expected.map(at));
      const skipped = why.lines.filter((l) => l.label === 'if not matched');
      expect(skipped.map((l) => l.from)).toEqual([0, 1, 2].filter((i) => !expected.includes(i)).map(at));
      for (const l of skipped) expect(l.detail).toMatch(/if "Bash\([a-z]+ \*\)" does not admit this call/);
      const d = await decide(e, 'PreToolUse', bash(command));
      expect(d.code, d.stderr).toBe(0);
      expect(
        d.d.runs.map((r) => r.source),
        command,
      ).toEqual(runs);
    }
  });

  it('[G-FAIL-5] [C-RUN-2] two truly identical handlers in user and project settings are one duplicate that runs once; the same command with another matcher is no duplicate and runs too', async () => {
    const e = newEnv();
    const line = 'echo audit >> "$CLAUDE_PROJECT_DIR/ran.log"';
    const user = writeSettings(userSettings(e), {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: line, timeout: 5 }] }],
    });
    const project = writeSettings(projectSettings(e), {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: line, timeout: 5 }] },
        { matcher: 'Bash|Edit', hooks: [{ type: 'command', command: line }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo later', async: true }] },
      ],
    });
    await trust(e);
    const why = await explain(e, 'PreToolUse', ['--tool', 'Bash', '--input', '{"command":"ls"}']);
    // Run order: user settings before project settings [C-SRC-1]; home shown as `~`.
    expect(why.lines.map((l) => [l.n, l.label, l.from])).toEqual([
      [1, 'RUNS', '~/.claude/settings.json#/hooks/PreToolUse/0/hooks/0'],
      [2, 'duplicate', `${project}#/hooks/PreToolUse/0/hooks/0`],
      [3, 'RUNS', `${project}#/hooks/PreToolUse/1/hooks/0`],
      [4, 'RUNS', `${project}#/hooks/PreToolUse/2/hooks/0`],
    ]);
    expect(why.lines[1]!.detail).toBe(
      'the same handler as ~/.claude/settings.json#/hooks/PreToolUse/0/hooks/0, which wins: it runs once [C-RUN-2, A-ALL-1]',
    );
    expect(why.lines[0]!.handler).toBe('command, failMode open, timeout 5 s');
    expect(why.lines[3]!.handler).toBe('command, failMode open, timeout 600 s, async');
    expect(why.lines[3]!.detail).toContain('async: runs in the background, never decides');
    expect(why.stdout).not.toContain(e.home);

    const d = await decide(e, 'PreToolUse', bash('ls'));
    expect(d.code, d.stderr).toBe(0);
    // Records name their source absolute (an identifier); the async run is recorded apart.
    expect(d.d.runs.map((r) => r.source)).toEqual([
      `${user}#/hooks/PreToolUse/0/hooks/0`,
      `${project}#/hooks/PreToolUse/1/hooks/0`,
    ]);
  });

  it('[G-FAIL-5] [C-RUN-1] on an event without a tool a handler with an `if` never runs, and explain says so', async () => {
    const e = newEnv();
    writeSettings(userSettings(e), {
      Stop: [
        {
          hooks: [
            { type: 'command', command: 'echo stop', if: 'Bash(git *)' },
            { type: 'command', command: 'echo plain' },
          ],
        },
      ],
    });
    const why = await explain(e, 'Stop');
    expect(why.lines.map((l) => [l.label, l.hook])).toEqual([
      ['if not matched', 'echo stop'],
      ['RUNS', 'echo plain'],
    ]);
    expect(why.lines[0]!.detail).toContain('does not admit this call (the call names no tool)');
    const d = await decide(e, 'Stop', { stop_hook_active: false });
    expect(d.d.runs.map((r) => r.hook)).toEqual(['echo plain']);
  });

  it('[G-FAIL-5] --input is the tool input of --tool, a JSON object: anything else is one line, exit 1', async () => {
    const e = newEnv();
    for (const [args, message] of [
      [['--input', '{"command":"ls"}'], '--input is the input of the tool --tool names: give --tool too'],
      [['--tool', 'Bash', '--input', '[1]'], '--input must be a JSON object'],
      [['--tool', 'Bash', '--input', '{'], '--input is not valid JSON'],
    ] as const) {
      const r = await cli(e, ['explain', 'PreToolUse', '--dialect', 'claude', ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(message);
    }
  });
});

describe('[G-FAIL-5] paths in reasons and messages show the home as ~', () => {
  it('[G-FAIL-5] [L-TRUST-11] a changed guard in a project under the home: decide reason, stderr and explain say ~/…, the record source stays absolute', async () => {
    const e = newEnv(true);
    writeScript(e.project, '.claude/hooks/guard.sh', 'exit 0');
    const file = writeSettings(projectSettings(e), {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh',
              failMode: 'closed',
            },
          ],
        },
      ],
    });
    await trust(e);
    writeScript(e.project, '.claude/hooks/guard.sh', 'exit 1');
    const d = await decide(e, 'PreToolUse', bash('ls'));
    expect(d.code).toBe(2);
    const reason =
      '~/work/app/.claude/hooks/guard.sh changed since approval: run `hookwerk trust --project ~/work/app`';
    expect(d.d.reason).toBe(reason);
    expect(d.d.runs[0]!.reason).toBe(reason);
    expect(d.d.runs[0]!.source).toBe(`${file}#/hooks/PreToolUse/0/hooks/0`);
    expect(d.stderr).toContain(
      `hookwerk: project hook denied (failMode "closed"), changed_since_approval: ~/work/app/.claude/settings.json: ${reason}`,
    );
    expect(d.stderr).not.toContain(e.home);
    const why = await explain(e, 'PreToolUse', ['--tool', 'Bash']);
    expect(why.lines[0]!.label).toBe('changed_since_approval');
    expect(why.lines[0]!.detail).toBe(
      '~/work/app/.claude/hooks/guard.sh changed since approval, so this hook denies (failMode "closed"): run `hookwerk trust --project ~/work/app`',
    );
    expect(why.lines[0]!.from).toBe('~/work/app/.claude/settings.json#/hooks/PreToolUse/0/hooks/0');
  });

  it('[G-FAIL-5] tildePath: the home folder and paths under it only', () => {
    expect(tildePath('/home/ann', '/home/ann')).toBe('~');
    expect(tildePath('/home/ann/.hookwerk/policy.json', '/home/ann')).toBe('~/.hookwerk/policy.json');
    expect(tildePath('/home/ann/x', '/home/ann/')).toBe('~/x');
    expect(tildePath('/home/anna/x', '/home/ann')).toBe('/home/anna/x');
    expect(tildePath('/tmp/x', '/home/ann')).toBe('/tmp/x');
    expect(tildePath('/home/ann/x', undefined)).toBe('/home/ann/x');
    expect(tildePath('/x', '/')).toBe('/x');
  });
});

describe('[C-RUN-2] [G-FAIL-5] one identity for identical handlers', () => {
  const base = { type: 'command', runs: ['./guard.sh', null] } as const;
  it('[C-RUN-2] [G-FAIL-5] same type, command, if and matcher are one handler; "", "*" and none are one matcher', () => {
    const key = handlerIdentity({ ...base, matcher: 'Bash', ifRule: 'Bash(rm *)' });
    expect(handlerIdentity({ ...base, matcher: 'Bash', ifRule: 'Bash(rm *)' })).toBe(key);
    expect(handlerIdentity({ ...base, matcher: 'Bash', ifRule: 'Bash(git *)' })).not.toBe(key);
    expect(handlerIdentity({ ...base, matcher: 'Bash|Edit', ifRule: 'Bash(rm *)' })).not.toBe(key);
    expect(handlerIdentity({ ...base, matcher: 'Bash' })).not.toBe(key);
    expect(handlerIdentity({ ...base, type: 'http', matcher: 'Bash', ifRule: 'Bash(rm *)' })).not.toBe(key);
    expect(handlerIdentity({ ...base, place: '/plugins/a', matcher: 'Bash', ifRule: 'Bash(rm *)' })).not.toBe(
      key,
    );
    // A closed copy is never folded into an open one (issue 28): the guard would run open.
    expect(handlerIdentity({ ...base, matcher: 'Bash', ifRule: 'Bash(rm *)', failMode: 'closed' })).not.toBe(
      key,
    );
    expect(handlerIdentity({ ...base, matcher: 'Bash', ifRule: 'Bash(rm *)', failMode: 'open' })).toBe(key);
    const all = handlerIdentity(base);
    expect(handlerIdentity({ ...base, matcher: '' })).toBe(all);
    expect(handlerIdentity({ ...base, matcher: '*' })).toBe(all);
    // No text makes two identities one key (no separator to forge).
    expect(handlerIdentity({ type: 'command', runs: ['a\u0000b', null] })).not.toBe(
      handlerIdentity({ type: 'command', runs: ['a', 'b'] }),
    );
  });
});
