import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliResult, REPO, runCli, STACK } from './cli-runner.ts';
import { tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';

// §3 Command line, run for real: `node bin/hookwerk.js …` as a child process (the CLI runs from dist/).

const EVENTS = [
  'agent_start',
  'agent_end',
  'llm_request',
  'llm_response',
  'tool_call_start',
  'tool_call',
  'turn_complete',
  'error',
] as const;
const TOOL_CALL = JSON.stringify({ tool: 'shell', success: true, output: 'hi' });

/** Runs the CLI to completion. The parent's ZERO_HOOK_* variables are removed unless given in `env`. */
const cli = (args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> =>
  runCli(args, opts);

const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

/** A user-facing error: exit 1, something on stderr, no stack trace. */
function expectCleanFailure(r: CliResult): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr.trim()).not.toBe('');
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr).not.toMatch(/node:internal|Unhandled/);
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  }
});

describe('§3 hookwerk validate [P-CFG-4]', () => {
  it('[P-CFG-4] a valid hooks.json → exit 0 and an ok: line', async () => {
    const dir = tempDir('hw-cli-');
    writeHooks(dir, { tool_call: [{ command: '/bin/true' }, { command: '/bin/true', enabled: false }] });
    const r = await cli(['validate', '--workspace', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok: /m);
    expect(r.stdout).toContain(path.join(dir, 'hooks.json'));
    expect(r.stdout).toContain('2 actions (1 enabled)');
    expect(r.stderr).toBe('');
  });

  it('[P-CFG-4] [P-SEC-2] [P-SEC-3] [P-SEC-4] every problem → one `file: path: reason` line on stderr, exit 1', async () => {
    const dir = tempDir('hw-cli-');
    const file = path.join(dir, 'hooks.json');
    writeHooks(dir, {
      tool_cal: [{ command: '/bin/true' }],
      tool_call: [
        { command: '/bin/true', env: { HOME: '/tmp/elsewhere' } },
        { command: 'echo hi; rm -rf /' },
        { command: '/bin/echo', args: ['ok', 'nul\u0000byte'] },
      ],
    });
    const r = await cli(['validate', '--workspace', dir]);
    expectCleanFailure(r);
    expect(r.stdout).toBe('');
    const out = lines(r.stderr);
    // One line per problem, each exactly `<abs file>: <JSON path>: <reason>`.
    const shape = /^(\/.+\/hooks\.json): (\$[^ ]*): (\S.*)$/;
    for (const line of out) expect(line).toMatch(shape);
    const parsed = out.map((l) => {
      const m = shape.exec(l)!;
      return { file: m[1], path: m[2], reason: m[3] };
    });
    expect(parsed.every((p) => p.file === file)).toBe(true);
    expect(parsed.map((p) => p.path).sort()).toEqual(
      [
        '$.hooks.tool_cal',
        '$.hooks.tool_call[0].env.HOME',
        '$.hooks.tool_call[1].command',
        '$.hooks.tool_call[2].args[1]',
      ].sort(),
    );
    const reason = (p: string) => parsed.find((x) => x.path === p)!.reason;
    expect(reason('$.hooks.tool_cal')).toMatch(/unknown event "tool_cal"/);
    expect(reason('$.hooks.tool_call[0].env.HOME')).toMatch(/HOME/);
    expect(reason('$.hooks.tool_call[1].command')).toMatch(/metacharacter ";"/);
    expect(reason('$.hooks.tool_call[2].args[1]')).toMatch(/NUL/);
  });

  it('[P-CFG-4] invalid JSON → exit 1 with one line naming the file, `$` and the position', async () => {
    const dir = tempDir('hw-cli-');
    writeHooks(dir, '{\n  "hooks": {\n    "tool_call": [,]\n  }\n}\n');
    const r = await cli(['validate', '--workspace', dir]);
    expectCleanFailure(r);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(`${path.join(dir, 'hooks.json')}: $: invalid JSON: `);
    expect(r.stderr).toMatch(/line 3, column 19/);
  });

  it('[P-CFG-4] a single problem is printed in the same bare `file: path: reason` shape as several', async () => {
    // Today src/cli/main.ts prefixes single-line CliError messages with "hookwerk: ", so the line
    // shape depends on how many problems the file has (a problem matcher would miss this one).
    const dir = tempDir('hw-cli-');
    const file = path.join(dir, 'hooks.json');
    writeHooks(dir, { nope: [] });
    const r = await cli(['validate', '--workspace', dir]);
    expectCleanFailure(r);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^\/.+\/hooks\.json: \$\.hooks\.nope: unknown event "nope"/);
    expect(r.stderr.startsWith(`${file}: `)).toBe(true);
  });

  it('[P-CFG-3] a workspace without hooks.json → exit 0 (no shell hooks)', async () => {
    const dir = tempDir('hw-cli-');
    const r = await cli(['validate', '--workspace', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok: .*does not exist/m);
  });

  it('[P-WASM-2] validate reports a bad plugin manifest with file and field, and lists good plugins', async () => {
    const dir = tempDir('hw-cli-');
    writeHooks(dir, {});
    mkdirSync(path.join(dir, 'plugins', 'broken'), { recursive: true });
    writeFileSync(
      path.join(dir, 'plugins', 'broken', 'plugin.toml'),
      '[plugin]\nname = "broken"\nversion = "0.1.0"\ndescription = "x"\n[[capabilities]]\ntype = "hook"\nevents = ["tool_cal"]\n',
    );
    cpSync(
      path.join(REPO, 'examples', 'plugins', 'audit-logger'),
      path.join(dir, 'plugins', 'audit-logger'),
      {
        recursive: true,
      },
    );
    const r = await cli(['validate', '--workspace', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/plugins\/broken\/plugin\.toml: \$\.capabilities\[0\]\.events\[0\]: .*tool_cal/);
    expect(r.stdout).toMatch(/ok: plugin audit-logger/);
  });

  it('a missing workspace folder is an error (a typo must not pass as "no hooks")', async () => {
    const r = await cli(['validate', '--workspace', path.join(tempDir('hw-cli-'), 'typo')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^hookwerk: folder .*typo does not exist\n$/);
  });

  it('[P-CFG-4] without --workspace it checks the current folder', async () => {
    const dir = tempDir('hw-cli-');
    writeHooks(dir, { nope: [] });
    const r = await cli(['validate'], { cwd: dir });
    expectCleanFailure(r);
    expect(r.stderr).toContain(`${path.join(dir, 'hooks.json')}: $.hooks.nope: unknown event`);
  });
});

describe('§3 hookwerk emit --wait', () => {
  function workspace() {
    const dir = tempDir('hw-cli-');
    writeScript(dir, 'ok.sh', 'printf "%s %s\\n" "$ZERO_HOOK_EVENT" "$ZERO_HOOK_SESSION" >> ran.txt');
    writeScript(dir, 'fail.sh', 'echo "something broke" >&2\nexit 3');
    writeHooks(dir, {
      tool_call: [
        { id: 'good', command: './ok.sh' },
        { id: 'bad', command: './fail.sh' },
      ],
    });
    return dir;
  }

  it('[P-FF-1] prints one line per run record, outcome first; a failing hook still exits 0', async () => {
    const dir = workspace();
    const r = await cli([
      'emit',
      'tool_call',
      '--workspace',
      dir,
      '--payload',
      TOOL_CALL,
      '--session',
      's-1',
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(2);
    const good = out.find((l) => / good /.test(l))!;
    const bad = out.find((l) => / bad /.test(l))!;
    expect(good).toMatch(/^ok\s+tool_call\s+good\s+[\d.]+ms\s+exit=0/);
    expect(bad).toMatch(/^error\s+tool_call\s+bad\s+[\d.]+ms\s+exit=3/);
    expect(bad).toContain('something broke');
    expect(readFileSync(path.join(dir, 'ran.txt'), 'utf8')).toBe('tool_call s-1\n');
  });

  it('--json prints one JSON run record per line', async () => {
    const dir = workspace();
    const r = await cli([
      'emit',
      'tool_call',
      '--workspace',
      dir,
      '--payload',
      TOOL_CALL,
      '--wait',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const records = lines(r.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(2);
    for (const rec of records) {
      expect(rec).toMatchObject({ event: 'tool_call', depth: 1 });
      expect(typeof rec.hook).toBe('string');
      expect(typeof rec.outcome).toBe('string');
      expect(typeof rec.durationMs).toBe('number');
    }
    const byHook = Object.fromEntries(records.map((rec) => [rec.hook, rec]));
    expect(byHook.good).toMatchObject({ outcome: 'ok', exitCode: 0 });
    expect(byHook.bad).toMatchObject({ outcome: 'error', exitCode: 3 });
  });

  it('with no hook for the event, says so and exits 0', async () => {
    const dir = workspace();
    const r = await cli(['emit', 'turn_complete', '--workspace', dir, '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/no enabled hooks for turn_complete/);
  });
});

describe('§3 hookwerk emit (background)', () => {
  it('[P-FF-1] without --wait it exits 0 at once and the hook runs in a detached process', async () => {
    const dir = tempDir('hw-cli-');
    writeScript(
      dir,
      'slow.sh',
      'sleep 1\nprintf "%s %s %s\\n" "$ZERO_HOOK_EVENT" "$ZERO_HOOK_SESSION" "$ZERO_HOOK_DEPTH" > marker.tmp\nmv marker.tmp marker',
    );
    writeHooks(dir, { tool_call: [{ command: './slow.sh' }] });
    const marker = path.join(dir, 'marker');

    const r = await cli([
      'emit',
      'tool_call',
      '--workspace',
      dir,
      '--payload',
      TOOL_CALL,
      '--session',
      'bg-1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    // The CLI did not wait for the hook (which sleeps 1 s before writing).
    expect(existsSync(marker)).toBe(false);

    await waitFor(() => existsSync(marker), 'the background hook', 10_000);
    expect(readFileSync(marker, 'utf8')).toBe('tool_call bg-1 1\n');
  });
});

/** Every live process whose argv contains all of `parts`: pid and argv, read from /proc. */
function processesWith(...parts: string[]): Array<{ pid: number; argv: string[] }> {
  const found: Array<{ pid: number; argv: string[] }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // exited meanwhile
    }
    if (parts.every((p) => argv.includes(p))) found.push({ pid: Number(entry), argv });
  }
  return found;
}

/** True when some live process has `text` anywhere in its argv. */
function anyArgvContains(text: string): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) return true;
    } catch {
      // exited meanwhile
    }
  }
  return false;
}

describe('§3 hookwerk emit (background): the payload never goes through argv', () => {
  it('[P-PAY-2] [P-FF-1] a 200 KB payload works without --wait; the runner gets it on stdin, not in its argv', async () => {
    const dir = tempDir('hw-cli-');
    const release = path.join(dir, 'release');
    // The hook keeps its runner alive until the test has looked at the runner's argv.
    writeScript(
      dir,
      'big.sh',
      `cp "$ZERO_HOOK_PAYLOAD_FILE" seen.tmp && mv seen.tmp seen.json\nwhile [ ! -e "${release}" ]; do sleep 0.05; done`,
    );
    writeHooks(dir, { tool_call: [{ command: './big.sh', timeout_ms: 20_000 }] });
    const marker = `payload-marker-${process.pid}-${Date.now()}`;
    const output = `${marker}${'x'.repeat(200 * 1024)}`;
    const payload = JSON.stringify({ tool: 'shell', success: true, output });

    // 200 KB is more than one argument may hold (128 KiB): the test hands it over on stdin too.
    const r = await runCli(
      ['emit', 'tool_call', '--workspace', dir, '--payload', '-', '--session', 'big-1'],
      {
        stdin: { text: payload },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    try {
      const seen = await waitFor(
        () =>
          existsSync(path.join(dir, 'seen.json')) ? readFileSync(path.join(dir, 'seen.json'), 'utf8') : '',
        'the background hook',
        15_000,
      );
      const envelope = JSON.parse(seen);
      expect(envelope).toMatchObject({ event: 'tool_call', session_id: 'big-1' });
      expect(envelope.payload.output).toBe(output);

      // The runner is alive (its hook waits): its argv names the event, not the payload.
      const runners = processesWith(BIN, 'emit', 'tool_call', dir, '--wait');
      expect(runners).toHaveLength(1);
      const runner = runners[0]!;
      expect(runner.argv).toEqual(expect.arrayContaining(['--payload', '-']));
      expect(runner.argv.join(' ')).not.toContain(marker);
      expect(anyArgvContains(marker)).toBe(false);
      // Its stdin is the payload file, already removed from disk.
      expect(readlinkSync(`/proc/${runner.pid}/fd/0`)).toMatch(/payload\.json \(deleted\)$/);
    } finally {
      writeFileSync(release, '');
    }
  });

  it('[P-EV-3] --payload - with --wait reads the payload from stdin', async () => {
    const dir = tempDir('hw-cli-');
    writeScript(dir, 'ok.sh', 'cat "$ZERO_HOOK_PAYLOAD_FILE" > seen.json');
    writeHooks(dir, { tool_call: [{ command: './ok.sh' }] });
    const r = await runCli(['emit', 'tool_call', '--workspace', dir, '--payload', '-', '--wait'], {
      stdin: { text: TOOL_CALL },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'seen.json'), 'utf8')).payload).toEqual(
      JSON.parse(TOOL_CALL),
    );
    const bad = await runCli(['emit', 'tool_call', '--workspace', dir, '--payload', '-', '--wait'], {
      stdin: { text: '{"tool": 1' },
    });
    expectCleanFailure(bad);
    expect(bad.stderr).toMatch(/--payload on stdin is not valid JSON/);
  });
});

describe('§3 hookwerk emit errors → exit 1, one line, no stack trace', () => {
  it.each([
    { what: 'an unknown event', args: ['emit', 'tool_called'], match: /unknown event "tool_called"/ },
    {
      what: '--payload not JSON',
      args: ['emit', 'tool_call', '--payload', '{tool:'],
      match: /--payload is not valid JSON/,
    },
    {
      what: 'a missing payload field',
      args: ['emit', 'tool_call', '--payload', '{"tool":"shell","success":true}'],
      match: /field "output" is missing/,
    },
    {
      what: 'a mistyped payload field',
      args: ['emit', 'agent_end', '--payload', '{"success":"yes","messages_count":1}'],
      match: /field "success" must be a boolean/,
    },
    {
      what: 'a payload that is not an object',
      args: ['emit', 'turn_complete', '--payload', '[]'],
      match: /must be an object/,
    },
  ])('[P-EV-3] $what', async ({ args, match }) => {
    const dir = tempDir('hw-cli-');
    writeScript(dir, 'mark.sh', 'touch ran');
    writeHooks(dir, Object.fromEntries(EVENTS.map((e) => [e, [{ command: './mark.sh' }]])));
    for (const wait of [[], ['--wait']]) {
      const r = await cli([...args, '--workspace', dir, ...wait]);
      expectCleanFailure(r);
      expect(lines(r.stderr)).toEqual([expect.stringMatching(match)]);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);
  });

  it.each([[[]], [['--wait']]])(
    '[P-CFG-3] an invalid hooks.json lists its problems and runs no hook (%j)',
    async (wait) => {
      const dir = tempDir('hw-cli-');
      writeScript(dir, 'mark.sh', 'touch ran');
      writeHooks(dir, {
        tool_call: [{ command: './mark.sh' }, { command: './mark.sh', env: { LD_PRELOAD: '/x.so' } }],
        bogus: [],
      });
      const r = await cli(['emit', 'tool_call', '--workspace', dir, '--payload', TOOL_CALL, ...wait]);
      expectCleanFailure(r);
      const file = path.join(dir, 'hooks.json');
      expect(r.stderr).toContain(`${file}: $.hooks.tool_call[1].env.LD_PRELOAD: `);
      expect(r.stderr).toContain(`${file}: $.hooks.bogus: unknown event`);
      expect(r.stdout).toBe('');
      expect(existsSync(path.join(dir, 'ran'))).toBe(false);
    },
  );

  it('emit without --wait and a missing workspace: exit 1, one line, no stack trace', async () => {
    const missing = path.join(tempDir('hw-cli-'), 'no-such-workspace');
    const waited = await cli(['emit', 'turn_complete', '--workspace', missing, '--wait']);
    expectCleanFailure(waited);
    expect(lines(waited.stderr)).toHaveLength(1);
    // Same input, background mode: must fail the same way, before anything is spawned.
    const r = await cli(['emit', 'turn_complete', '--workspace', missing]);
    expectCleanFailure(r);
    expect(lines(r.stderr)).toHaveLength(1);
  });
});

describe('[P-BUS-4] depth crosses process borders', () => {
  it('[P-BUS-4] a hook that runs `hookwerk emit` makes a depth-2 event; its hooks see ZERO_HOOK_DEPTH=2', async () => {
    const dir = tempDir('hw-cli-');
    writeScript(
      dir,
      'outer.sh',
      [
        'echo "$ZERO_HOOK_DEPTH" > outer-depth.txt',
        '"$NODE_BIN" "$HW_BIN" emit error --workspace "$1" --payload \'{"component":"nested","message":"from a hook"}\' --wait > nested-out.txt 2>&1',
      ].join('\n'),
    );
    writeScript(
      dir,
      'inner.sh',
      'printf "%s %s\\n" "$ZERO_HOOK_DEPTH" "$ZERO_HOOK_SESSION" > inner-depth.txt',
    );
    writeHooks(dir, {
      agent_start: [
        { id: 'outer', command: './outer.sh', args: [dir], env: { NODE_BIN: process.execPath, HW_BIN: BIN } },
      ],
      error: [{ id: 'inner', command: './inner.sh' }],
    });

    const payload = JSON.stringify({ agent: 'coder', session: 'x' });
    const r = await cli([
      'emit',
      'agent_start',
      '--workspace',
      dir,
      '--payload',
      payload,
      '--session',
      'sess-outer',
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([expect.stringMatching(/^ok\s+agent_start\s+outer\s/)]);

    const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
    expect(read('outer-depth.txt')).toBe('1\n');
    expect(read('nested-out.txt')).toMatch(/^ok\s+error\s+inner\s/m);
    // Depth 2, and the nested emit kept the session it was called from.
    expect(read('inner-depth.txt')).toBe('2 sess-outer\n');
  });

  it('[P-BUS-3] [P-BUS-4] ZERO_HOOK_DEPTH=8 in the environment → the emit is at depth 9 and dropped', async () => {
    const dir = tempDir('hw-cli-');
    writeScript(dir, 'mark.sh', 'touch ran');
    writeHooks(dir, { tool_call: [{ command: './mark.sh' }] });
    const r = await cli(['emit', 'tool_call', '--workspace', dir, '--payload', TOOL_CALL, '--wait'], {
      env: { ZERO_HOOK_DEPTH: '8' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([expect.stringMatching(/^dropped: depth 9\b/)]);
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);

    // Depth 7 → 8 is still allowed.
    const ok = await cli(
      ['emit', 'tool_call', '--workspace', dir, '--payload', TOOL_CALL, '--wait', '--json'],
      {
        env: { ZERO_HOOK_DEPTH: '7' },
      },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(lines(ok.stdout)[0]!)).toMatchObject({ outcome: 'ok', depth: 8 });
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);
  });
});

describe('§3 hookwerk demo', () => {
  it('runs all 8 events through the bundled workspace, each with an ok hook, and lists the logs', async () => {
    const r = await cli(['demo', '--no-keep']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout.split('\n');
    for (const event of EVENTS) {
      const at = out.findIndex((l) => l.startsWith(`-> emit ${event} `));
      expect(at, `emit line for ${event}`).toBeGreaterThanOrEqual(0);
      const next = out.findIndex((l, i) => i > at && (l.startsWith('-> emit ') || l === ''));
      const block = out.slice(at + 1, next === -1 ? undefined : next);
      expect(block, `hook line after ${event}`).toContainEqual(
        expect.stringMatching(new RegExp(`^\\s+hook\\s+ok\\s+${event}\\s`)),
      );
    }
    for (const log of [
      'logs/audit.jsonl',
      'logs/llm-metrics.tsv',
      'logs/sessions.tsv',
      'logs/notifications.txt',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${log.replace('.', '\\.')} \\(\\d+ lines?\\)`, 'm'));
    }
    expect(r.stdout).toMatch(/^8 hook runs, 8 ok\./m);
    // --no-keep removed the temp workspace.
    const ws = /^hookwerk demo: workspace (\S+)$/m.exec(r.stdout)?.[1];
    expect(ws).toBeDefined();
    expect(existsSync(ws!)).toBe(false);
    // …and does not send the reader to it.
    expect(r.stdout).not.toContain(`Edit ${ws}`);
    expect(r.stdout).toMatch(/--no-keep: the workspace is removed/);
  });
});

describe('[C-LIB-1] hookwerk demo --dialect claude', () => {
  it('[C-SRC-4] [C-ANS-2] [C-ANS-3] guards the bundled .claude/ project: skipped before consent, then each scripted decision', async () => {
    const r = await cli(['demo', '--dialect', 'claude', '--no-keep']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lineOf = (what: string) => r.stdout.split('\n').find((l) => l.includes(what)) ?? '';
    expect(lineOf('Bash: ls')).toMatch(/allowed: project hooks are not approved/);
    expect(lineOf('a prompt with a secret')).toMatch(
      /BLOCKED \(exit 2\): The prompt seems to contain a secret/,
    );
    expect(lineOf('a normal prompt')).toMatch(/allowed: Project convention/);
    expect(lineOf('Bash: npm test')).toMatch(/→ allowed$/);
    expect(lineOf('Bash: rm -rf /')).toMatch(/BLOCKED \(exit 2\): Blocked: recursive force delete/);
    expect(lineOf('Edit .env')).toMatch(/BLOCKED \(exit 2\): \.env holds secrets/);
    expect(lineOf('Write a test')).toMatch(/→ allowed$/);
    expect(lineOf('session opens')).toMatch(/env \{"DEMO_PROFILE":"strict"\}/);
    expect(lineOf('the agent wants to stop')).toMatch(/BLOCKED \(exit 2\): TODO\.md still has 1 open item/);
    expect(lineOf('it stops again after continuing')).toMatch(/→ allowed$/);
    expect(r.stdout).toMatch(/async PostToolUse hook wrote 1 line/);
    const project = /project (\S+)$/m.exec(r.stdout)?.[1];
    expect(project).toBeDefined();
    expect(existsSync(project!)).toBe(false);
  });
});

describe('(issue 31) the claude demo’s “Try it yourself”', () => {
  it('runs as printed, from any folder: this checkout’s hookwerk by path, never `npx hookwerk` (E404)', async () => {
    const r = await cli(['demo', '--dialect', 'claude']);
    expect(r.code, r.stderr).toBe(0);
    const tryIt = /^Try it yourself: (.+)$/m.exec(r.stdout)?.[1] ?? '';
    expect(tryIt).not.toContain('npx');
    const project = /project (\S+)$/m.exec(r.stdout)?.[1] ?? '';
    const home = /HOME='([^']+)'/.exec(tryIt)?.[1] ?? '';
    try {
      const ran = spawnSync('sh', ['-c', tryIt], { cwd: tempDir('hw-try-'), encoding: 'utf8' });
      expect(ran.status, ran.stderr).toBe(2);
      expect(JSON.parse(ran.stdout)).toMatchObject({ decision: 'deny', blocked: true });
    } finally {
      rmSync(project, { recursive: true, force: true });
      if (home !== '') rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('§3 usage errors and help', () => {
  it.each([
    { what: 'unknown command', args: ['frobnicate'], match: /unknown command/ },
    { what: 'unknown option', args: ['emit', 'tool_call', '--frobnicate'], match: /unknown option/ },
    { what: 'unknown option of validate', args: ['validate', '--yes'], match: /unknown option/ },
    { what: 'missing event argument', args: ['emit'], match: /missing required argument/ },
  ])('$what → exit 1, no stack trace', async ({ args, match }) => {
    const r = await cli(args);
    expectCleanFailure(r);
    expect(r.stderr).toMatch(match);
  });

  it('--help exits 0 and lists the commands', async () => {
    const r = await cli(['--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const cmd of ['emit', 'validate', 'demo'])
      expect(r.stdout).toMatch(new RegExp(`^\\s+${cmd}\\b`, 'm'));
    const sub = await cli(['emit', '--help']);
    expect(sub.code, sub.stderr).toBe(0);
    expect(sub.stdout).toContain('--wait');
  });
});

describe('hookwerk --version (issue 23)', () => {
  it('prints the package version and exits 0, as -v and --version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const r = await runCli([flag]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(version);
      expect(r.stderr).toBe('');
    }
  });
});

describe('validate --workspace with an agent dialect (issue 23)', () => {
  it('[P-CFG-4] [C-CLI-1] checks the PRX workspace too, not only the agent files', async () => {
    const ws = tempDir('hw-val-ws-');
    writeFileSync(path.join(ws, 'hooks.json'), '{"hooks": [}');
    const project = tempDir('hw-val-proj-');
    const home = tempDir('hw-val-home-');
    const r = await runCli(['validate', '--workspace', ws, '--dialect', 'claude', '--project', project], {
      home,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path.join(ws, 'hooks.json'));
    expect(r.stderr).not.toMatch(STACK);
    writeFileSync(path.join(ws, 'hooks.json'), '{"hooks": {}}');
    const ok = await runCli(['validate', '--workspace', ws, '--dialect', 'claude', '--project', project], {
      home,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`ok: ${path.join(ws, 'hooks.json')}`);
  });
});
