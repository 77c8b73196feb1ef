/**
 * [A-COP-1] (issue 31) A Copilot hook in exec form written as Claude Code writes it — `"command":
 * "node", "args": [...]` — runs the program with its arguments and no shell, and is shown whole:
 * it ran as the bare program, its arguments dropped. Real processes: the hookwerk CLI as the agent
 * runs it, and a hook entry that is itself `hookwerk hook --agent copilot`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from './cli-runner.ts';
import { tempDir, writeScript } from './helpers.ts';

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function setup() {
  const project = tempDir('hw-cop-exec-');
  const home = tempDir('hw-cop-exec-home-');
  return { project, home, copilotHome: path.join(home, '.copilot') };
}
type Setup = ReturnType<typeof setup>;

/** Copilot's user hook file (trusted: no approval needed): `{version: 1, hooks}`. */
function userHooks(s: Setup, hooks: Record<string, unknown>): void {
  writeJson(path.join(s.copilotHome, 'hooks', 'exec.json'), { version: 1, hooks });
}

function cli(s: Setup, args: string[], stdin?: unknown) {
  return runCli(args, {
    home: s.home,
    env: { COPILOT_HOME: s.copilotHome, HOME: s.home },
    ...(stdin !== undefined ? { stdin: { text: JSON.stringify(stdin) } } : {}),
  });
}

const bash = (command: string) => ({ toolName: 'bash', toolArgs: { command, description: command } });
const decide = (s: Setup, input: unknown) =>
  cli(s, ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project], input);

describe('[A-COP-1] exec form: "command" + "args"', () => {
  it('[A-COP-1] runs the program with its arguments, no shell (spaces, $VAR and ; stay as written), and explain shows it whole', async () => {
    const s = setup();
    const out = path.join(s.home, 'argv.json');
    const script = writeScript(
      s.home,
      'argv.js',
      `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv.slice(2)));\n`,
    );
    const args = [script, 'two words', '$HOME', 'x; touch pwned'];
    userHooks(s, { preToolUse: [{ type: 'command', command: process.execPath, args }] });

    const r = await decide(s, bash('ls'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(['two words', '$HOME', 'x; touch pwned']);
    expect(existsSync(path.join(s.project, 'pwned'))).toBe(false);

    const shown = await cli(s, ['explain', 'preToolUse', '--dialect', 'copilot', '--project', s.project]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain([process.execPath, ...args].join(' '));
    const validate = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(validate.stdout + validate.stderr).not.toContain('"args"');
  });

  it('[A-COP-1, R-HOOK-1] an exec-form entry that is `hookwerk hook --agent copilot`: the policy guard denies rm -rf, a harmless command runs', async () => {
    const s = setup();
    writeJson(path.join(s.home, '.hookwerk', 'policy.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `input=$(cat); case "$input" in *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;; esac; exit 0`,
              },
            ],
          },
        ],
      },
    });
    userHooks(s, {
      preToolUse: [
        {
          type: 'command',
          command: process.execPath,
          args: [BIN, 'hook', '--agent', 'copilot', '--event', 'preToolUse'],
        },
      ],
    });
    const denied = await decide(s, bash('rm -rf /tmp/x'));
    expect(denied.code).toBe(2);
    expect(JSON.parse(denied.stdout).reason).toContain('rm -rf is not allowed here');
    const harmless = await decide(s, bash('ls -la'));
    expect(harmless.code).toBe(0);
    expect(JSON.parse(harmless.stdout)).toMatchObject({ blocked: false });
  });

  it('[A-COP-1] "args" beside "bash" is still ignored, with a warning (bash runs a shell line)', async () => {
    const s = setup();
    const out = path.join(s.home, 'ran');
    userHooks(s, {
      preToolUse: [{ type: 'command', bash: `echo "[$1]" > ${JSON.stringify(out)}`, args: ['dropped'] }],
    });
    const r = await decide(s, bash('ls'));
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('[]\n');
    const validate = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(validate.stdout + validate.stderr).toContain(
      '"args" goes with "exec" or "command", not with "bash"; ignored',
    );
  });
});
