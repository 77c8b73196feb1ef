/**
 * [G-PERF-1][R-HOOK-4] A lone `hookwerk hook` decides through dist/cli/cold-bundle.cjs (the cold
 * decider, the engine and its packages in one script, run with V8's code cache kept in
 * `<home>/.hookwerk/cache/`). It is the same code as the modules the daemon and the in-process
 * decider load: these tests run real `hookwerk hook` processes and hold their answers and journal
 * records against both, and show that a cache that does not fit and a bundle that does not load
 * change nothing but speed (the second one said on stderr).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHookArgs } from '../src/cli/hook.ts';
import type { HookReply } from '../src/dialects/agent/hook-agent.ts';
import { coldDecider } from '../src/hook/cold-decider.ts';
import { journalDir } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import { startCli } from './cli-process.ts';
import { BIN, cleanEnv, REPO, runProgram } from './cli-runner.ts';
import { tempDir } from './helpers.ts';
import { LAYERED_POLICY } from './layered-policy.ts';

const ARGS = ['--agent', 'claude'];
const BUNDLE = path.join(REPO, 'dist', 'cli', 'cold-bundle.cjs');

function setup() {
  const dir = tempDir('hw-cold-bundle-');
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(path.join(home, '.hookwerk', 'policy.json'), JSON.stringify(LAYERED_POLICY));
  return { dir, home, project, socket: path.join(dir, 'd.sock') };
}
type Setup = ReturnType<typeof setup>;

const bash = (s: Setup, command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-cold',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command },
  });

/** One of each layer's answers: a permission's deny, a guard's deny, a rule's ask, no objection. */
const COMMANDS = [
  'git push --force origin main',
  'rm -fr ~',
  'curl -s https://example.com',
  'cd src && ls -la | grep ts',
];

async function hookProcess(
  s: Setup,
  input: string,
  socket = '',
  extra: Record<string, string> = {},
): Promise<HookReply> {
  const env = cleanEnv({ HOME: s.home, HOOKWERK_DAEMON_SOCKET: socket, ...extra });
  const r = await runProgram(process.execPath, [BIN, 'hook', ...ARGS], {
    env,
    cwd: s.project,
    stdin: { text: input },
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code ?? -1 };
}

/** The journal's entries from `from` on, without what differs from call to call (times). */
function records(s: Setup, from = 0): unknown[] {
  const entries = new RunJournal(journalDir(s.home)).read({}).entries.slice(from);
  return entries.map((e) =>
    Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'at' && k !== 'durationMs')),
  );
}

function cacheFiles(s: Setup): string[] {
  const dir = path.join(s.home, '.hookwerk', 'cache');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith('cold-bundle-'))
    .map((n) => path.join(dir, n));
}

describe('[G-PERF-1] the cold bundle', () => {
  it('is built, and a cold call runs it: its code cache appears, and the next call uses it unchanged', async () => {
    expect(statSync(BUNDLE).isFile()).toBe(true);
    const s = setup();
    const first = await hookProcess(s, bash(s, 'git push --force origin main'));
    expect(first.stdout).toContain('"permissionDecision":"deny"');
    const [cache] = cacheFiles(s);
    expect(cache).toBeDefined();
    const before = statSync(cache ?? '');
    expect(before.size).toBeGreaterThan(0);
    // Written atomically (a new file renamed over): the same inode means it was not rewritten.
    expect(await hookProcess(s, bash(s, 'git push --force origin main'))).toEqual(first);
    expect(cacheFiles(s)).toEqual([cache]);
    expect(statSync(cache ?? '').ino).toBe(before.ino);
  });

  it('answers and records each call as the in-process modules and the warm daemon do [R-HOOK-4]', async () => {
    const s = setup();
    const bundled: HookReply[] = [];
    for (const command of COMMANDS) bundled.push(await hookProcess(s, bash(s, command)));
    const coldRecords = records(s);
    expect(coldRecords.length).toBeGreaterThan(COMMANDS.length);
    expect(cacheFiles(s)).toHaveLength(1);

    // The reference: the modules' cold decider in this process (what `hookwerk test` runs).
    const env = cleanEnv({ HOME: s.home, HOOKWERK_DAEMON_SOCKET: '' });
    for (const [i, command] of COMMANDS.entries()) {
      const reply = await answerHookArgs(
        ARGS,
        { stdin: Buffer.from(bash(s, command)), cwd: s.project, env },
        { decider: coldDecider },
      );
      expect(bundled[i]).toEqual(reply);
    }
    expect(records(s, coldRecords.length)).toEqual(coldRecords);

    // The warm path: a real `hookwerk daemon` (the only kind a client believes [T-SELF-4]), asked
    // by the same `hookwerk hook` process.
    const daemon = startCli(['daemon', '--socket', s.socket, '--idle', '0'], { home: s.home });
    await daemon.waitForOutput(/^ready$/m);
    const mark = coldRecords.length * 2;
    for (const [i, command] of COMMANDS.entries())
      expect(await hookProcess(s, bash(s, command), s.socket)).toEqual(bundled[i]);
    expect(records(s, mark)).toEqual(coldRecords);
    const answers = bundled.map((r) => r.stdout);
    expect(answers[0]).toContain('permissions.deny: Bash(git push --force *)');
    expect(answers[1]).toContain('"permissionDecision":"deny"');
    expect(answers[2]).toContain('network?');
    expect(answers[3]).toBe('');
  }, 120_000);

  it('a code cache that does not fit (another Node, a damaged file) is ignored and written anew', async () => {
    const s = setup();
    const input = bash(s, 'shred -u notes.txt');
    const first = await hookProcess(s, input);
    const [cache] = cacheFiles(s);
    writeFileSync(cache ?? '', 'not a code cache');
    expect(await hookProcess(s, input)).toEqual(first);
    expect(cacheFiles(s)).toEqual([cache]);
    expect(readFileSync(cache ?? '', 'utf8')).not.toBe('not a code cache');
    expect(statSync(cache ?? '').size).toBeGreaterThan(1000);
  });

  it('HOOKWERK_COLD_BUNDLE=off: the modules decide, with the same answers and records, and keep no cache', async () => {
    const s = setup();
    const off: HookReply[] = [];
    for (const command of COMMANDS)
      off.push(await hookProcess(s, bash(s, command), '', { HOOKWERK_COLD_BUNDLE: 'off' }));
    expect(cacheFiles(s)).toEqual([]);
    const offRecords = records(s);
    for (const [i, command] of COMMANDS.entries())
      expect(await hookProcess(s, bash(s, command))).toEqual(off[i]);
    expect(records(s, offRecords.length)).toEqual(offRecords);
    expect(cacheFiles(s)).toHaveLength(1);
  }, 120_000);

  it('a bundle that does not load: the modules decide the same, and stderr says so [G-FAIL-1]', async () => {
    const s = setup();
    const broken = path.join(s.dir, 'cold-bundle.cjs');
    writeFileSync(broken, 'module.exports = {};\n');
    const call = JSON.stringify({
      projectDir: s.project,
      home: s.home,
      agent: 'claude',
      call: { event: 'PreToolUse', sessionId: 'sess-cold', input: JSON.parse(bash(s, 'shred -u notes.txt')) },
    });
    // A real process, as `hookwerk hook` is: the loader of dist/ with a bundle path that fails.
    const script = [
      `import { loadColdDecider } from ${JSON.stringify(path.join(REPO, 'dist', 'hook', 'cold-load.js'))};`,
      `const q = ${call};`,
      `const d = await loadColdDecider(q.home, process.env, ${JSON.stringify(broken)});`,
      'const r = await d.decide({ ...q, env: process.env });',
      'process.stdout.write(JSON.stringify({ blocked: r.blocked, reason: r.reason }));',
    ].join('\n');
    const r = await runProgram(process.execPath, ['--input-type=module', '-e', script], {
      env: cleanEnv({ HOME: s.home }),
      cwd: s.project,
    });
    expect(r.stderr).toContain('cold-bundle.cjs did not load (the bundle has no cold decider)');
    expect(r.stderr).toContain('deciding through the modules');
    expect(JSON.parse(r.stdout)).toEqual({ blocked: true, reason: expect.stringContaining('no shredding') });
  });
});
