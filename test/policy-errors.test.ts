/**
 * Never silently open (issue 28): a policy file that cannot be used denies on the gate events and
 * says so on stderr and in the journal [G-FAIL-1]; the fast path of `hookwerk hook` decides only
 * from what the real loader read, never from a project file it reads itself [R-HOOK-4], so an
 * agent that edits, deletes or replaces an approved project policy (with a FIFO, a /dev/zero link)
 * cannot switch its guard off or hang the call; a command that cannot run is named every time
 * [G-FAIL-2]. Real files, the real engine, the real CLI, a real daemon and a real FIFO.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHookArgs } from '../src/cli/hook.ts';
import type { HookReply } from '../src/dialects/agent/hook-agent.ts';
import { coldDecider } from '../src/hook/cold-decider.ts';
import { journalDir } from '../src/records/journal-segments.ts';
import { startCli } from './cli-process.ts';
import { BIN, cleanEnv, REPO, runCli, runProgram } from './cli-runner.ts';
import { tempDir, waitFor, writeScript } from './helpers.ts';

const NATIVE = path.join(REPO, 'dist', 'native', 'hookwerk-hook');
/** The C client where the build could make it; the Node client everywhere. */
const CLIENTS: readonly string[] = existsSync(NATIVE) ? ['c', 'node'] : ['node'];

interface Setup {
  home: string;
  project: string;
  userPolicy: string;
  projectPolicy: string;
}

function setup(): Setup {
  const dir = tempDir('hw-perr-');
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(project, { recursive: true });
  return {
    home,
    project,
    userPolicy: path.join(home, '.hookwerk', 'policy.json'),
    projectPolicy: path.join(project, '.hookwerk', 'policy.json'),
  };
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const DENY_RM = `input=$(cat); case "$input" in *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;; esac; exit 0`;
/** A Bash guard that denies rm -rf, closed; `extra` is merged into its handler. */
function guardPolicy(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: DENY_RM, failMode: 'closed', ...extra }] },
      ],
    },
  };
}

const bash = (s: Setup, command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 's1',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command },
  });
const sessionStart = (s: Setup) =>
  JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: s.project, source: 'startup' });

/** `hookwerk hook --agent A` decided in this process, with the real cold decider and journal. */
function hook(
  s: Setup,
  input: string,
  agent = 'claude',
  env: Record<string, string> = {},
): Promise<HookReply> {
  return answerHookArgs(
    ['--agent', agent],
    { stdin: Buffer.from(input), cwd: s.project, env: cleanEnv({ HOME: s.home, ...env }) },
    { decider: coldDecider },
  );
}

/**
 * A real `hookwerk daemon` on a socket in `dir` while `use` runs with its env (a server inside this
 * process would be refused by the clients [T-SELF-4], and the calls decided in the hook process).
 */
async function withDaemon(dir: string, use: (env: Record<string, string>) => Promise<void>): Promise<void> {
  const socket = path.join(dir, 'd.sock');
  const daemon = startCli(['daemon', '--socket', socket, '--idle', '0'], { home: dir });
  await daemon.waitForOutput(/^ready$/m);
  try {
    await use({ HOOKWERK_DAEMON_SOCKET: socket });
  } finally {
    await daemon.stop('SIGTERM');
  }
}

const permission = (reply: HookReply): unknown =>
  reply.stdout === '' ? undefined : JSON.parse(reply.stdout).hookSpecificOutput?.permissionDecision;
const reasonOf = (reply: HookReply): string =>
  JSON.parse(reply.stdout).hookSpecificOutput.permissionDecisionReason;

function journal(s: Setup): Array<Record<string, unknown>> {
  const dir = journalDir(s.home);
  if (!existsSync(dir)) return [];
  return execFileSync('sh', ['-c', 'cat "$0"/*.jsonl', dir], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

describe('[G-FAIL-1] policy files are JSONC', () => {
  it('comments, trailing commas and a byte-order mark are accepted: the guard runs', async () => {
    const s = setup();
    write(
      s.userPolicy,
      `\ufeff{\n  // the one guard\n  "hooks": {"PreToolUse": [{"matcher": "Bash", /* shell */ "hooks": [{"type": "command", "command": ${JSON.stringify(DENY_RM)},},],},],},\n}\n`,
    );
    const reply = await hook(s, bash(s, 'rm -rf build'));
    expect(permission(reply)).toBe('deny');
    expect(reasonOf(reply)).toBe('rm -rf is not allowed here');
    expect(reply.stderr).toBe('');
    expect(permission(await hook(s, bash(s, 'ls')))).toBeUndefined();
  });
});

describe('[G-FAIL-1] a policy file that cannot be used denies on the gate events, loudly', () => {
  const broken: ReadonlyArray<[what: string, text: string, where: RegExp]> = [
    [
      'invalid JSON',
      '{"hooks": {"PreToolUse": [',
      /\$: invalid JSON: syntax error \(unexpected end of file at line 1/,
    ],
    ['a duplicate key', '{"hooks": {}, "hooks": {}}', /\$\.hooks: duplicate key "hooks"/],
    [
      'a field of the wrong type',
      JSON.stringify(guardPolicy({ timeout: '5' })),
      /\$\.hooks\.PreToolUse\[0\]\.hooks\[0\]\.timeout: /,
    ],
    [
      'a typo in a key (matchr)',
      JSON.stringify({
        hooks: { PreToolUse: [{ matchr: 'Bash', hooks: [{ type: 'command', command: DENY_RM }] }] },
      }),
      /\$\.hooks\.PreToolUse\[0\]\.matchr: unknown key "matchr"/,
    ],
    [
      'an unknown top-level key',
      JSON.stringify({ ...guardPolicy(), hoooks: {} }),
      /\$\.hoooks: unknown key "hoooks"/,
    ],
    [
      'an if rule that does not parse',
      JSON.stringify(guardPolicy({ if: 'Read(.env' })),
      /\.if: expected Tool\(pattern\)/,
    ],
    [
      'a matcher that does not compile',
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash(', hooks: [{ type: 'command', command: DENY_RM }] }] },
      }),
      /\.matcher: /,
    ],
    [
      'a typo in an event name',
      JSON.stringify({ hooks: { PreTooluse: [{ hooks: [{ type: 'command', command: DENY_RM }] }] } }),
      /\$\.hooks\.PreTooluse: unknown event "PreTooluse": did you mean "PreToolUse"\?/,
    ],
    [
      'a handler type hookwerk cannot run',
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'is it safe?' }] }] } }),
      /\.type: a handler must be/,
    ],
    ['not an object', '[]', /\$: must be a JSON object/],
  ];
  for (const [what, text, where] of broken) {
    it(`${what}: deny with file, JSON path and cause; a stderr line; a policy_error record`, async () => {
      const s = setup();
      write(s.userPolicy, text);
      const reply = await hook(s, bash(s, 'ls'));
      expect(permission(reply)).toBe('deny');
      const reason = reasonOf(reply);
      expect(reason).toMatch(/^hookwerk: ~\/\.hookwerk\/policy\.json: /);
      expect(reason).toMatch(where);
      expect(reason).toMatch(/ — fix it, or check it with hookwerk validate$/);
      expect(reply.stderr).toBe(`${reason}\n`);
      const records = journal(s).filter((r) => r.outcome === 'policy_error');
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ agent: 'claude', toolName: 'Bash', decision: 'deny', reason });
    });
  }

  it('on an event that does not gate a tool: no objection, the same line and record; the good file still runs', async () => {
    const s = setup();
    const marker = path.join(path.dirname(s.project), 'started');
    write(
      s.projectPolicy,
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch '${marker}'` }] }] },
      }),
    );
    // Approved first: a user policy that does not parse makes `trust` ask for a person [T-SELF-2].
    expect((await runCli(['trust', '--project', s.project, '--yes'], { home: s.home })).code).toBe(0);
    write(s.userPolicy, '{"hooks": ');
    const reply = await hook(s, sessionStart(s));
    expect(reply.stdout).toBe('');
    expect(reply.stderr).toMatch(/^hookwerk: ~\/\.hookwerk\/policy\.json: \$: invalid JSON/);
    expect(existsSync(marker)).toBe(true);
    expect(journal(s).map((r) => r.outcome)).toEqual(['policy_error', 'ok']);
  });

  it('HOOKWERK_POLICY_ERRORS=open: no objection on the gate events too, still said and recorded', async () => {
    const s = setup();
    write(s.userPolicy, JSON.stringify(guardPolicy({ matchr: 'Bash' })));
    const reply = await hook(s, bash(s, 'rm -rf build'), 'claude', { HOOKWERK_POLICY_ERRORS: 'open' });
    expect(reply.stdout).toBe('');
    expect(reply.stderr).toMatch(/unknown key "matchr"/);
    expect(journal(s).map((r) => [r.outcome, r.decision])).toEqual([['policy_error', undefined]]);
  });

  it('every agent hears the deny in its own protocol', async () => {
    const s = setup();
    write(s.userPolicy, '{"hooks": {},,}');
    const cursor = await hook(
      s,
      JSON.stringify({
        hook_event_name: 'beforeShellExecution',
        command: 'ls',
        cwd: s.project,
        workspace_roots: [s.project],
      }),
      'cursor',
    );
    expect(JSON.parse(cursor.stdout)).toMatchObject({ permission: 'deny' });
    const gemini = await hook(
      s,
      JSON.stringify({
        hook_event_name: 'BeforeTool',
        cwd: s.project,
        tool_name: 'run_shell_command',
        tool_input: { command: 'ls' },
      }),
      'gemini',
    );
    expect(JSON.parse(gemini.stdout)).toMatchObject({ decision: 'deny' });
    const codex = await hook(s, bash(s, 'ls'), 'codex');
    expect(JSON.parse(codex.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
  });

  it('through the real CLI process: the deny, one stderr line, exit 0, no stack trace', async () => {
    const s = setup();
    write(s.userPolicy, `${JSON.stringify(guardPolicy({ if: 'Bash(rm' }))}`);
    const r = await runCli(['hook', '--agent', 'claude'], {
      home: s.home,
      cwd: s.project,
      stdin: { text: bash(s, 'ls') },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/\.if: expected Tool\(pattern\)/);
  });
});

describe('[R-HOOK-4, L-TRUST-6] the fast path decides from the approved text only (issue 28, item 6)', () => {
  /** An approved project whose policy holds a closed rm -rf guard; `extra` is written beside it first. */
  async function approved(extra?: (s: Setup) => void): Promise<Setup> {
    const s = setup();
    write(s.projectPolicy, JSON.stringify(guardPolicy()));
    extra?.(s);
    expect((await runCli(['trust', '--project', s.project, '--yes'], { home: s.home })).code).toBe(0);
    return s;
  }

  /** Calls until the fast path has its index (the first loads may be too close to the files' writes). */
  async function warmIndex(s: Setup): Promise<void> {
    const dir = path.join(s.home, '.hookwerk', 'cache', 'policy-index');
    await waitFor(async () => {
      expect(permission(await hook(s, bash(s, 'rm -rf build')))).toBe('deny');
      return existsSync(dir);
    }, 'the policy index');
  }

  const edits: ReadonlyArray<[string, (s: Setup) => void]> = [
    ['edited to hold no hooks', (s) => writeFileSync(s.projectPolicy, '{}')],
    ['deleted', (s) => rmSync(s.projectPolicy)],
    ['its folder deleted', (s) => rmSync(path.dirname(s.projectPolicy), { recursive: true })],
    ['edited to break it', (s) => writeFileSync(s.projectPolicy, '{"hooks": ')],
  ];
  for (const [what, edit] of edits) {
    it(`an approved project policy ${what} by the agent: the approved guard still denies`, async () => {
      const s = await approved();
      await warmIndex(s);
      edit(s);
      const reply = await hook(s, bash(s, 'rm -rf build'));
      expect(permission(reply)).toBe('deny');
      expect(reasonOf(reply)).toBe('rm -rf is not allowed here');
    });
  }

  it('an included, approved .claude/settings.json deleted: its guard still runs for the other agents', async () => {
    const s = setup();
    write(s.userPolicy, JSON.stringify({ include: ['claude'] }));
    write(path.join(s.project, '.claude', 'settings.json'), JSON.stringify(guardPolicy()));
    expect((await runCli(['trust', '--project', s.project, '--yes'], { home: s.home })).code).toBe(0);
    const codex = () => hook(s, bash(s, 'rm -rf build'), 'codex');
    await waitFor(async () => {
      expect(JSON.parse((await codex()).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      return existsSync(path.join(s.home, '.hookwerk', 'cache', 'policy-index'));
    }, 'the policy index');
    rmSync(path.join(s.project, '.claude'), { recursive: true });
    expect(JSON.parse((await codex()).stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  for (const client of CLIENTS)
    it(`the same through a running daemon (${client} client): the edit is seen by the next call, the approved text decides`, async () => {
      const s = await approved();
      await withDaemon(path.dirname(s.home), async (env) => {
        const [command, args] =
          client === 'c'
            ? [NATIVE, ['--agent', 'claude']]
            : [process.execPath, [BIN, 'hook', '--agent', 'claude']];
        const viaDaemon = () =>
          runProgram(command, args, {
            env: cleanEnv({ HOME: s.home, ...env }),
            cwd: s.project,
            stdin: { text: bash(s, 'rm -rf x') },
          });
        const first = await viaDaemon();
        expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
        // Answered by the daemon: no client line about a socket it did not use [T-SELF-4].
        expect(first.stderr).not.toContain('[T-SELF-4]');
        rmSync(s.projectPolicy);
        const after = await viaDaemon();
        expect(JSON.parse(after.stdout).hookSpecificOutput).toMatchObject({
          permissionDecision: 'deny',
          permissionDecisionReason: 'rm -rf is not allowed here',
        });
      });
    });

  it('a policy hook added to the user policy after the index was written runs at the next call', async () => {
    const s = setup();
    write(s.userPolicy, JSON.stringify({ hooks: {} }));
    await waitFor(async () => {
      expect(permission(await hook(s, bash(s, 'rm -rf x')))).toBeUndefined();
      return existsSync(path.join(s.home, '.hookwerk', 'cache', 'policy-index'));
    }, 'the policy index');
    write(s.userPolicy, JSON.stringify(guardPolicy()));
    expect(permission(await hook(s, bash(s, 'rm -rf x')))).toBe('deny');
  });
});

describe('[G-FAIL-1, L-TRUST-4] hostile files at the policy path never hang or open the gate (issue 28, item 8)', () => {
  const hostile: ReadonlyArray<[string, (file: string) => void, RegExp]> = [
    ['a FIFO', (file) => execFileSync('mkfifo', [file]), /is a FIFO, not a regular file/],
    [
      'a symlink to /dev/zero',
      (file) => symlinkSync('/dev/zero', file),
      /is a character device, not a regular file/,
    ],
    ['a folder', (file) => mkdirSync(file), /is a directory, not a regular file/],
    [
      'a file over 1 MiB',
      (file) => writeFileSync(file, `{"hooks": {}, "x": "${'a'.repeat(1024 * 1024)}"}`),
      /limit is 1048576/,
    ],
  ];
  for (const [what, plant, why] of hostile) {
    it(`${what} as the user policy: a deny naming it, at once`, async () => {
      const s = setup();
      plant(s.userPolicy);
      const r = await runCli(['hook', '--agent', 'claude'], {
        home: s.home,
        cwd: s.project,
        stdin: { text: bash(s, 'ls') },
      });
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.stderr).toMatch(why);
    });
  }

  it('a FIFO and a /dev/zero link in one project stall neither the daemon nor another project', async () => {
    const bad = setup();
    const good = setup();
    write(good.userPolicy, JSON.stringify(guardPolicy()));
    mkdirSync(path.join(bad.project, '.hookwerk'), { recursive: true });
    execFileSync('mkfifo', [bad.projectPolicy]);
    mkdirSync(path.join(bad.project, '.claude'), { recursive: true });
    symlinkSync('/dev/zero', path.join(bad.project, '.claude', 'settings.json'));
    // The daemon serves both; the hostile project's files are never opened, so neither waits.
    await withDaemon(path.dirname(good.home), async (env) => {
      const hostileCall = runCli(['hook', '--agent', 'claude'], {
        home: bad.home,
        cwd: bad.project,
        env,
        stdin: { text: bash(bad, 'ls') },
      });
      const goodCall = await runCli(['hook', '--agent', 'claude'], {
        home: good.home,
        cwd: good.project,
        env,
        stdin: { text: bash(good, 'rm -rf x') },
      });
      expect(JSON.parse(goodCall.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      expect(goodCall.stderr).not.toContain('[T-SELF-4]');
      const answered = await hostileCall;
      expect(answered.code).toBe(0);
      expect(answered.stderr).not.toMatch(/\n\s+at /);
      // The planted policy file exists and cannot be used: the daemon's answer is the deny [G-FAIL-1].
      expect(JSON.parse(answered.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      expect(answered.stderr).toMatch(/\.hookwerk\/policy\.json: \$: file is a FIFO, not a regular file/);
    });
  });
});

describe('[G-FAIL-2] a policy hook whose command cannot run is named every time', () => {
  it('a missing script: one stderr line naming it, each call; no opinion (open), a deny (closed)', async () => {
    const s = setup();
    const missing = path.join(s.project, 'hooks', 'guard.sh');
    write(
      s.userPolicy,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: missing }] }] } }),
    );
    for (let i = 0; i < 2; i++) {
      const reply = await hook(s, bash(s, 'ls'));
      expect(permission(reply)).toBeUndefined();
      expect(reply.stderr).toContain(`hookwerk: policy hook cannot run: ${missing}`);
      expect(reply.stderr).toMatch(/: no opinion\n$/);
    }
    write(
      s.userPolicy,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: missing, failMode: 'closed' }] }] },
      }),
    );
    const closed = await hook(s, bash(s, 'ls'));
    expect(permission(closed)).toBe('deny');
    expect(closed.stderr).toContain(`cannot run: ${missing}`);
  });

  it('a script given to sh that does not exist (dash: exit 2, "cannot open"): blocks as Claude Code does, and is named', async () => {
    const s = setup();
    const missing = path.join(s.project, 'guard.sh');
    write(
      s.userPolicy,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `sh ${missing}` }] }] } }),
    );
    const reply = await hook(s, bash(s, 'ls'));
    expect(reply.stderr).toContain(`cannot run: ${missing}`);
    const records = journal(s);
    expect(records).toHaveLength(1);
  });

  it('a script that is there and runs is never named', async () => {
    const s = setup();
    const script = writeScript(s.project, 'ok.sh', 'exit 0');
    write(
      s.userPolicy,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: script }] }] } }),
    );
    expect((await hook(s, bash(s, 'ls'))).stderr).toBe('');
    expect(readFileSync(s.userPolicy, 'utf8')).toContain('ok.sh');
  });
});

describe('[G-FAIL-3] hookwerk validate with no flags checks every source, once', () => {
  const validate = (s: Setup) => runCli(['validate'], { home: s.home, cwd: s.project });

  it('a broken policy file: exit 1, its file, JSON path and reason (a new user typing `hookwerk validate`)', async () => {
    const s = setup();
    write(s.userPolicy, '{"hooks": {"PreToolUse": []},}\n{');
    const r = await validate(s);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${s.userPolicy}: $: invalid JSON: syntax error`);
  });

  it('warnings never change the exit code: a timeout over an hour, an unreadable if rule, a prompt hook in an agent file', async () => {
    const s = setup();
    const script = writeScript(s.project, 'guard.sh', 'exit 0');
    write(
      path.join(s.project, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ hooks: [{ type: 'command', command: script, timeout: 7200, if: 'Read(.env' }] }],
          // Claude Code runs prompt hooks; hookwerk cannot, and says so without failing the file.
          Stop: [{ hooks: [{ type: 'prompt', prompt: 'is the task done?' }] }],
        },
      }),
    );
    const r = await validate(s);
    expect(r.stderr).toMatch(/^warning: .*\.timeout: timeout 7200 s is over the 1 hour limit/m);
    expect(r.stderr).toMatch(/^warning: .*\.if: if rule cannot be read/m);
    expect(r.stderr).toMatch(/^warning: .*handler type "prompt" is not supported by hookwerk/m);
    expect(r.stderr).not.toMatch(/^(?!warning: ).*settings\.json/m);
    expect(r.code).toBe(0);
  });

  it('the same if rule in a policy file is an error; so is a command whose script is missing', async () => {
    const s = setup();
    write(s.userPolicy, JSON.stringify(guardPolicy({ if: 'Read(.env' })));
    const r = await validate(s);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/policy\.json: \$\.hooks\.PreToolUse\[0\]\.hooks\[0\]\.if: expected Tool/);
    const missing = path.join(s.project, 'hooks', 'gone.sh');
    write(
      s.userPolicy,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: missing }] }] } }),
    );
    const m = await validate(s);
    expect(m.code).toBe(1);
    expect(m.stderr).toContain(`the command's script ${missing} does not exist`);
  });

  it('--project DIR from elsewhere checks that project the same way', async () => {
    const s = setup();
    write(s.projectPolicy, JSON.stringify(guardPolicy({ matchr: 'Bash' })));
    const r = await runCli(['validate', '--project', s.project], { home: s.home, cwd: path.dirname(s.home) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${s.projectPolicy}: $.hooks.PreToolUse[0].hooks[0].matchr: unknown key "matchr"`,
    );
  });

  it('a Claude Code file the policy includes is reported once, not once per dialect that reads it', async () => {
    const s = setup();
    write(s.userPolicy, JSON.stringify({ include: ['claude'] }));
    write(path.join(s.project, '.claude', 'settings.json'), '{"hooks": ');
    const r = await validate(s);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.includes('.claude/settings.json'));
    expect(lines).toHaveLength(1);
  });
});

describe('[G-FAIL-3] install refuses over a policy that cannot be used', () => {
  it('exit 1, the problem, nothing written; --force installs anyway', async () => {
    const s = setup();
    write(s.userPolicy, JSON.stringify(guardPolicy({ matchr: 'Bash' })));
    const settings = path.join(s.project, '.claude', 'settings.json');
    const refused = await runCli(['install', '--agent', 'claude', '--project', s.project], { home: s.home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${s.userPolicy}: $.hooks.PreToolUse[0].hooks[0].matchr: unknown key "matchr"`,
    );
    expect(refused.stderr).toMatch(
      /install refused: the policy has an error \(above\).*--force; nothing was written/,
    );
    expect(existsSync(settings)).toBe(false);
    const forced = await runCli(['install', '--agent', 'claude', '--project', s.project, '--force'], {
      home: s.home,
    });
    expect(forced.code).toBe(0);
    expect(existsSync(settings)).toBe(true);
  });
});

describe('[C-RUN-2, G-FAIL-5] a closed guard never runs open because an open copy came first', () => {
  it('the same failing command, open and then closed: the closed one still runs, and denies', async () => {
    const s = setup();
    const handler = { type: 'command', command: 'exit 1' };
    write(
      s.userPolicy,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [handler] },
            { matcher: 'Bash', hooks: [{ ...handler, failMode: 'closed' }] },
          ],
        },
      }),
    );
    const reply = await hook(s, bash(s, 'ls'));
    expect(permission(reply)).toBe('deny');
    expect(journal(s)).toHaveLength(2);
  });
});

describe('[G-FAIL-2] a script given to an interpreter by absolute path need not be executable', () => {
  it('`/usr/bin/node /x/guard.mjs` (not executable) is fine; `/x/guard.sh` run by path (not executable) is an error', async () => {
    const s = setup();
    const script = path.join(s.project, 'guard.mjs');
    write(script, 'process.exit(0)\n');
    const viaNode = `'${process.execPath}' '${script}'`;
    write(
      s.userPolicy,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: viaNode }] }] } }),
    );
    const ok = await runCli(['validate', '--dialect', 'policy', '--project', s.project], { home: s.home });
    expect(ok.stderr).not.toContain('cannot run');
    expect(ok.code).toBe(0);
    write(
      s.userPolicy,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: script }] }] } }),
    );
    const bad = await runCli(['validate', '--dialect', 'policy', '--project', s.project], { home: s.home });
    expect(bad.stderr).toContain(`the command's program ${script} is not executable`);
    expect(bad.code).toBe(1);
  });
});
