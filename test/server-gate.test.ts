import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/bus/memory-bus.ts';
import { createHookEngine } from '../src/engine.ts';
import type { GateDialect, HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { silentLogger } from '../src/records/logger.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { createApp, type HookwerkApp } from '../src/server/app.ts';
import type { DecisionNote } from '../src/server/decision-log.ts';
import type { GateDialectView, GateHookView, GateListing } from '../src/server/gate-listing.ts';
import { cleanEnv, REPO, runCli, STACK } from './cli-runner.ts';
import { tempDir, waitFor, writeScript } from './helpers.ts';
import { request, startServe } from './serve-process.ts';
import { serveApp } from './server-harness.ts';

// (issue 23) `serve` speaks every gate dialect: `POST /api/decide` with `dialect`, one gate-only
// engine per dialect whose records join the main engine's, and `GET /api/gate`: every gate source
// by dialect with each hook's consent state. Real engines, real files in temp projects approved
// with the real `hookwerk trust --yes` under a temp HOME, a real HTTP server on 127.0.0.1.

const TOKEN = 'gate-token-0123456789abcdef';

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js')))
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
});

interface Harness {
  url: string;
  project: string;
  home: string;
  engine: HookEngine;
  app: HookwerkApp;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are inspected field by field.
  call(method: string, route: string, body?: unknown): Promise<{ status: number; json: any }>;
}

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of running.splice(0)) await stop();
});

/** The main engine (`gateDialect` as given) behind the API, with the options the gate engines take. */
async function start(project: string, home: string, gateDialect?: GateDialect): Promise<Harness> {
  const engineOptions: HookEngineOptions = {
    projectDir: project,
    home,
    logger: silentLogger,
    watch: false,
    ...(gateDialect !== undefined ? { gateDialect } : {}),
  };
  const engine = await createHookEngine({ ...engineOptions, workspace: tempDir('hw-gate-ws-') });
  const app = createApp({ engine, token: TOKEN, logger: silentLogger, engineOptions, home });
  const served = await serveApp(engine, app);
  running.push(served.stop);
  return {
    url: served.url,
    project,
    home,
    engine,
    app,
    async call(method, route, body) {
      const res = await fetch(served.url + route, {
        method,
        headers: { authorization: `Bearer ${TOKEN}` },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
    },
  };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** A Claude Code handler that answers `permissionDecision: deny` with `reason`. */
function claudeDeny(reason: string, command?: string) {
  const answer = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  });
  return { type: 'command', command: command ?? `printf '%s\\n' '${answer}'` };
}

/** `.claude/settings.json` guarding Bash, and `.gemini/settings.json` guarding run_shell_command. */
function agentProject(): { project: string; home: string } {
  const project = tempDir('hw-gate-project-');
  const home = tempDir('hw-gate-home-');
  writeJson(path.join(project, '.claude', 'settings.json'), {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [claudeDeny('no shell from claude')] }] },
  });
  const geminiDeny = JSON.stringify({ decision: 'deny', reason: 'no shell from gemini' });
  writeJson(path.join(project, '.gemini', 'settings.json'), {
    hooks: {
      BeforeTool: [
        {
          matcher: 'run_shell_command',
          hooks: [{ type: 'command', name: 'gemini-guard', command: `printf '%s\\n' '${geminiDeny}'` }],
        },
      ],
    },
  });
  return { project, home };
}

/** [C-SRC-4] `hookwerk trust --project DIR --yes` under the temp HOME, as a user approves. */
async function trust(project: string, home: string): Promise<void> {
  const r = await runCli(['trust', '--project', project, '--yes'], { home });
  expect(r.stderr).not.toMatch(STACK);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

/** Every bus message of `topic` pattern on the main engine's bus (what the event stream carries). */
function collect(engine: HookEngine, pattern: string): BusMessage[] {
  const seen: BusMessage[] = [];
  running.push(async () => off());
  const off = engine.bus.subscribe(pattern, (msg) => {
    seen.push(msg);
  });
  return seen;
}

const bash = { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };

describe('(issue 23) POST /api/decide speaks every gate dialect', () => {
  it('[C-LIB-1] [G-CLI-1] [P-API-4] dialect claude and gemini run that agent’s approved project hooks; their records join /api/runs and the bus', async () => {
    const { project, home } = agentProject();
    await trust(project, home);
    const h = await start(project, home);
    const runsOnBus = collect(h.engine, 'hookwerk.run.*');

    const claude = await h.call('POST', '/api/decide', {
      dialect: 'claude',
      event: 'PreToolUse',
      input: bash,
    });
    expect(claude.status, JSON.stringify(claude.json)).toBe(200);
    expect(claude.json).toMatchObject({ decision: 'deny', blocked: true, reason: 'no shell from claude' });
    expect(claude.json.runs).toHaveLength(1);
    expect(claude.json.runs[0]).toMatchObject({ dialect: 'claude', outcome: 'deny', event: 'PreToolUse' });

    const gemini = await h.call('POST', '/api/decide', {
      dialect: 'gemini',
      event: 'BeforeTool',
      input: { tool_name: 'run_shell_command', tool_input: { command: 'ls' } },
    });
    expect(gemini.status, JSON.stringify(gemini.json)).toBe(200);
    expect(gemini.json).toMatchObject({ decision: 'deny', blocked: true, reason: 'no shell from gemini' });
    expect(gemini.json.runs[0]).toMatchObject({ dialect: 'gemini', hook: 'gemini-guard' });

    // One engine per dialect, made once: a second claude decide reuses it.
    await h.call('POST', '/api/decide', { dialect: 'claude', event: 'PreToolUse', input: bash });
    expect(h.app.engines.engines).toHaveLength(3);

    const runs = await h.call('GET', '/api/runs?limit=10');
    const records: RunRecord[] = runs.json.runs;
    expect(records.map((r) => r.dialect).sort()).toEqual(['claude', 'claude', 'gemini']);
    const times = records.map((r) => r.at);
    expect(times).toEqual([...times].sort().reverse());
    // The stream's source: the gate engines' records are published on the main bus.
    await waitFor(() => runsOnBus.length === 3, 'three run records on the main bus');
    expect(runsOnBus.map((m) => m.topic)).toEqual([
      'hookwerk.run.deny',
      'hookwerk.run.deny',
      'hookwerk.run.deny',
    ]);
  });

  it('[L-TRUST-1] [C-SRC-4] before `hookwerk trust` the claude project hook is skipped_untrusted and the call allowed', async () => {
    const { project, home } = agentProject();
    const h = await start(project, home);
    const res = await h.call('POST', '/api/decide', { dialect: 'claude', event: 'PreToolUse', input: bash });
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe('allow');
    expect(res.json.runs.map((r: RunRecord) => r.outcome)).toEqual(['skipped_untrusted']);
  });

  it('[P-API-4] without dialect: the engine’s own (lurus by default, with context; claude with --dialect, with input)', async () => {
    const home = tempDir('hw-gate-home-');
    writeJson(path.join(home, '.lurus', 'hooks.json'), {
      PreToolUse: [
        {
          matcher: '^Write$',
          hooks: [{ type: 'command', command: `printf '%s\\n' '{"decision":"deny","reason":"no writes"}'` }],
        },
      ],
    });
    writeJson(path.join(home, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [claudeDeny('user says no')] }] },
    });
    const project = tempDir('hw-gate-project-');
    const lurus = await start(project, home);
    const a = await lurus.call('POST', '/api/decide', {
      event: 'PreToolUse',
      context: { toolName: 'Write' },
    });
    expect(a.json).toMatchObject({ decision: 'deny', reason: 'no writes' });
    expect(a.json.runs[0].dialect).toBe('lurus');
    expect(lurus.app.engines.engines).toHaveLength(1);

    const claude = await start(project, home, 'claude');
    const b = await claude.call('POST', '/api/decide', { event: 'PreToolUse', input: bash });
    expect(b.json).toMatchObject({ decision: 'deny', reason: 'user says no' });
    // Lurus is then one dialect among the others.
    const c = await claude.call('POST', '/api/decide', {
      dialect: 'lurus',
      event: 'PreToolUse',
      context: { toolName: 'Write' },
    });
    expect(c.json).toMatchObject({ decision: 'deny', reason: 'no writes' });
    expect(claude.app.engines.engines).toHaveLength(2);
  });

  it('[P-API-4] 400 with one line for an unknown dialect, the other dialect’s field, a non-object input, a bad event', async () => {
    const { project, home } = agentProject();
    const h = await start(project, home);
    const cases: Array<[unknown, string, RegExp]> = [
      [
        { dialect: 'klingon', event: 'PreToolUse' },
        'dialect',
        /^dialect: unknown dialect "klingon" \(one of lurus, claude, gemini/,
      ],
      [{ dialect: 'claude', event: 'PreToolUse', context: {} }, 'context', /takes "input"/],
      [{ event: 'PreToolUse', input: {} }, 'input', /lurus dialect takes "context"/],
      [{ dialect: 'claude', event: 'PreToolUse', input: [] }, 'input', /input must be an object/],
      [{ dialect: 'gemini', event: 'PreToolUse', input: {} }, 'event', /PreToolUse/],
      [{ dialect: 7, event: 'PreToolUse' }, 'dialect', /string/],
    ];
    for (const [body, field, message] of cases) {
      const res = await h.call('POST', '/api/decide', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.issues[0].path, JSON.stringify(res.json)).toBe(field);
      expect(res.json.error).toMatch(message);
      expect(res.json.error).not.toContain('\n');
    }
    // Too deep: named as the body calls it, `input`.
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 80; i++) deep = { a: deep };
    const res = await h.call('POST', '/api/decide', { dialect: 'claude', event: 'PreToolUse', input: deep });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/^input/);
    expect(res.json.error).not.toMatch(/\bcontext\b/);
  });

  it('a decide that matched no hook is a decision too: /api/decisions and the bus have it with runs 0', async () => {
    const h = await start(tempDir('hw-gate-project-'), tempDir('hw-gate-home-'));
    const onBus = collect(h.engine, 'hookwerk.decision');
    const res = await h.call('POST', '/api/decide', { dialect: 'claude', event: 'Stop', input: {} });
    expect(res.json).toMatchObject({ decision: 'allow', blocked: false, runs: [] });
    const listed = await h.call('GET', '/api/decisions');
    const notes: DecisionNote[] = listed.json.decisions;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      dialect: 'claude',
      event: 'Stop',
      decision: 'allow',
      blocked: false,
      runs: 0,
    });
    await waitFor(() => onBus.length === 1, 'the decision on the bus');
    expect(onBus[0]?.payload).toEqual(notes[0]);
    expect((await h.call('GET', '/api/decisions?limit=0')).status).toBe(400);
  });

  it('(issue 31) every decision names its tool and session: the input’s, else the deciding engine’s session', async () => {
    const h = await start(tempDir('hw-gate-project-'), tempDir('hw-gate-home-'));
    await h.call('POST', '/api/decide', {
      dialect: 'claude',
      event: 'PreToolUse',
      input: { ...bash, session_id: 'sess-from-claude' },
    });
    await h.call('POST', '/api/decide', { event: 'PreToolUse', context: { toolName: 'Write' } });
    await h.call('POST', '/api/decide', { dialect: 'claude', event: 'Stop', input: {} });
    const notes: DecisionNote[] = (await h.call('GET', '/api/decisions')).json.decisions;
    const [stop, lurus, claude] = notes;
    expect(claude).toMatchObject({ toolName: 'Bash', sessionId: 'sess-from-claude' });
    expect(lurus).toMatchObject({ toolName: 'Write', sessionId: h.engine.sessionId });
    expect(stop?.toolName).toBeUndefined();
    const [, claudeEngine] = h.app.engines.engines;
    expect(stop?.sessionId).toBe(claudeEngine?.sessionId);
    expect(stop?.sessionId).toMatch(/^sess_/);
  });

  it('closing the app closes the gate engines it made; a decide after that is 503', async () => {
    const h = await start(tempDir('hw-gate-project-'), tempDir('hw-gate-home-'));
    await h.call('POST', '/api/decide', { dialect: 'gemini', event: 'BeforeAgent', input: { prompt: 'hi' } });
    const [, gemini] = h.app.engines.engines;
    await h.app.closeEngines();
    await expect(gemini?.decide('BeforeAgent', {})).rejects.toThrow(/closed/);
    const res = await h.call('POST', '/api/decide', { dialect: 'gemini', event: 'BeforeAgent', input: {} });
    expect(res.status).toBe(503);
    // The main engine is its owner's: still deciding.
    expect((await h.call('POST', '/api/decide', { event: 'Stop', context: {} })).status).toBe(200);
  });
});

describe('(issue 23) GET /api/gate: every gate source by dialect, each hook with its consent state', () => {
  const dialect = (g: GateListing, name: string): GateDialectView => {
    const d = g.dialects.find((x) => x.dialect === name);
    if (d === undefined) throw new Error(`no ${name} in ${g.dialects.map((x) => x.dialect).join(', ')}`);
    return d;
  };
  const hook = (d: GateDialectView, name: string): GateHookView => {
    const found = d.hooks.find((x) => x.name === name);
    if (found === undefined) throw new Error(`no hook ${name} in ${d.hooks.map((x) => x.name).join(', ')}`);
    return found;
  };

  it('(issue 31) a hook of .claude/settings.json is listed once, under Claude Code, with every dialect that reads it', async () => {
    const project = tempDir('hw-gate-project-');
    const home = tempDir('hw-gate-home-');
    const command = (text: string) => ({ type: 'command', command: `echo ${text}` });
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [command('a')] },
          { matcher: 'Write', hooks: [command('b')] },
        ],
      },
    });
    const h = await start(project, home);
    const g: GateListing = (await h.call('GET', '/api/gate')).json;
    const listed = g.dialects.flatMap((d) => d.hooks.map((x) => [d.dialect, x.name, x.readBy.join(',')]));
    expect(listed).toEqual([
      ['claude', 'echo a', 'claude,copilot,cursor'],
      ['claude', 'echo b', 'claude,copilot,cursor'],
    ]);
    // The other readers still show the source, with its two hooks.
    for (const reader of ['copilot', 'cursor'])
      expect(dialect(g, reader).sources.find((s) => s.exists)?.hookCount).toBe(2);
  });

  it('[L-TRUST-3] [L-TRUST-6] approved, pending (not approved, or only in a newer version), changed since approval, not needed', async () => {
    const { project, home } = agentProject();
    const userGuard = `printf '%s\\n' user-guard`;
    writeJson(path.join(home, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: userGuard }] }] },
    });
    const lurusGuard = `printf '%s\\n' '{"decision":"allow"}'`;
    writeJson(path.join(project, '.lurus', 'hooks.json'), {
      PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: lurusGuard }] }],
    });
    // A user setting turns the project's Gemini hook off: it stays listed, with the reason.
    writeJson(path.join(home, '.gemini', 'settings.json'), { hooks: { disabled: ['gemini-guard'] } });
    const h = await start(project, home);
    const anonymous = await fetch(`${h.url}/api/gate`);
    expect(anonymous.status).toBe(401);

    // Never approved: every project hook waits, nothing of it was evaluated.
    const before: GateListing = (await h.call('GET', '/api/gate')).json;
    expect(before.project).toMatchObject({
      approved: false,
      reason: 'not approved',
      review: `hookwerk trust --project ${before.project.dir}`,
    });
    const unapproved = dialect(before, 'claude');
    const claudeGuard = unapproved.hooks.find((x) => x.scope === 'project');
    expect(claudeGuard).toMatchObject({ consent: 'pending', event: 'PreToolUse', enabled: false });
    expect(claudeGuard?.kind).toBeUndefined();
    expect(claudeGuard?.handler).toBeUndefined();
    expect(unapproved.sources.find((s) => s.scope === 'project')?.state).toBe('unapproved');
    expect(hook(dialect(before, 'lurus'), lurusGuard)).toMatchObject({
      consent: 'pending',
      scope: 'project',
    });
    expect(hook(unapproved, userGuard)).toMatchObject({
      consent: 'not needed',
      scope: 'user',
      matcher: 'Read',
      kind: 'process',
      // [G-FAIL-5] Its if, failMode and timeout, as explain shows them.
      handler: { type: 'command', failMode: 'open', timeoutMs: 600_000 },
    });

    await trust(project, home);
    // The claude file changes after the approval: a second guard is added.
    const settings = path.join(project, '.claude', 'settings.json');
    const added = `printf '%s\\n' added-later`;
    writeJson(settings, {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [claudeDeny('no shell from claude')] },
          { matcher: 'Write', hooks: [{ type: 'command', command: added }] },
        ],
      },
    });
    // And a dialect's file appears that the approval found absent: all of it waits.
    const codexFile = path.join(project, '.codex', 'hooks.json');
    const codexGuard = `printf '%s\\n' codex-guard`;
    writeJson(codexFile, {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: codexGuard }] }] },
    });
    const g: GateListing = (await h.call('GET', '/api/gate')).json;
    expect(g.project.approved).toBe(true);
    expect(g.project.reason).toMatch(/^approved /);
    expect(g.project.pending).toEqual([settings, codexFile].sort());
    const codex = dialect(g, 'codex');
    expect(codex.sources.find((s) => s.file === codexFile)).toMatchObject({
      exists: false,
      newerVersionPending: true,
    });
    expect(hook(codex, codexGuard)).toMatchObject({ consent: 'pending', newer: true, scope: 'project' });
    const claude = dialect(g, 'claude');
    expect(claude.label).toBe('Claude Code');
    expect(claude.sources.find((s) => s.file === settings)).toMatchObject({
      state: 'ok',
      newerVersionPending: true,
    });
    const approvedGuard = claude.hooks.find((x) => x.file === settings && x.newer === undefined);
    expect(approvedGuard).toMatchObject({
      consent: 'changed',
      matcher: 'Bash',
      enabled: true,
      source: `${settings}#/hooks/PreToolUse/0/hooks/0`,
    });
    expect(approvedGuard?.consentDetail).toMatch(/the approved version runs/);
    expect(hook(claude, added)).toMatchObject({ consent: 'pending', newer: true, matcher: 'Write' });
    expect(hook(claude, userGuard).consent).toBe('not needed');
    expect(hook(dialect(g, 'lurus'), lurusGuard)).toMatchObject({ consent: 'approved', matcher: '^Bash$' });
    const disabled = hook(dialect(g, 'gemini'), 'gemini-guard');
    expect(disabled.enabled).toBe(false);
    expect(disabled.disabledReason).toMatch(/disabled/);
    expect(hook(dialect(g, 'gemini'), 'gemini-guard')).toMatchObject({
      consent: 'approved',
      matcher: 'run_shell_command',
    });
    // Lurus is always listed; dialects with no file anywhere are not.
    expect(dialect(g, 'lurus')).toMatchObject({ default: true });
    expect(g.dialects.map((d) => d.dialect)).not.toContain('policy');
    expect(g.known).toEqual(['lurus', 'claude', 'gemini', 'copilot', 'cursor', 'codex', 'policy']);

    // The listing is what the engine runs: the approved version decides.
    const res = await h.call('POST', '/api/decide', { dialect: 'claude', event: 'PreToolUse', input: bash });
    expect(res.json).toMatchObject({ decision: 'deny', reason: 'no shell from claude' });
    expect(res.json.runs[0]).toMatchObject({
      source: approvedGuard?.source,
      consent: 'newer_version_pending',
    });
  });

  it('[L-TRUST-6] a pinned script changed since approval: every project hook is `changed`, skipped or denying', async () => {
    const project = tempDir('hw-gate-project-');
    const home = tempDir('hw-gate-home-');
    writeScript(project, '.claude/hooks/guard.sh', 'exit 0');
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh"' },
              { type: 'command', command: 'sh .claude/hooks/guard.sh closed', failMode: 'closed' },
            ],
          },
        ],
      },
    });
    await trust(project, home);
    const h = await start(project, home);
    const approved: GateListing = (await h.call('GET', '/api/gate')).json;
    expect(dialect(approved, 'claude').hooks.map((x) => x.consent)).toEqual(['approved', 'approved']);
    writeScript(project, '.claude/hooks/guard.sh', 'echo changed; exit 0');
    const g: GateListing = (await h.call('GET', '/api/gate')).json;
    const [open, closed] = dialect(g, 'claude').hooks;
    expect(open?.consent).toBe('changed');
    expect(open?.consentDetail).toMatch(
      /guard\.sh changed since approval, so this hook is skipped: run `hookwerk trust --project /,
    );
    expect(closed?.consentDetail).toMatch(/so this hook denies/);
    expect(g.project.changed).toEqual([path.join(g.project.dir, '.claude', 'hooks', 'guard.sh')]);
  });
});

describe('(issue 23) hookwerk serve --dialect', () => {
  it('[C-CLI-1] serve --dialect claude decides a body without dialect in Claude Code’s dialect; an unknown one is refused', async () => {
    const home = tempDir('hw-gate-home-');
    writeJson(path.join(home, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [claudeDeny('served claude says no')] }] },
    });
    const workspace = tempDir('hw-gate-ws-');
    const served = await startServe(
      ['--workspace', workspace, '--project', workspace, '--port', '0', '--dialect', 'claude'],
      cleanEnv({ HOME: home, HOOKWERK_TOKEN: TOKEN }),
    );
    try {
      expect(served.stdout()).toContain('gate: claude by default; /api/decide takes "dialect"');
      const res = await request(served.port, 'POST', '/api/decide', TOKEN, {
        event: 'PreToolUse',
        input: bash,
      });
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.text)).toMatchObject({ decision: 'deny', reason: 'served claude says no' });
      const gate = await request(served.port, 'GET', '/api/gate', TOKEN);
      expect(JSON.parse(gate.text)).toMatchObject({ defaultDialect: 'claude' });
    } finally {
      expect((await served.stop()).code).toBe(0);
    }
    const bad = await runCli(['serve', '--dialect', 'klingon', '--port', '0'], { home });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/klingon/);
    expect(bad.stderr).not.toMatch(STACK);
  });
});
