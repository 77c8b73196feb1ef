import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../src/records/journal-entry.ts';
import { journalDir } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import { cleanEnv, runCli } from './cli-runner.ts';
import { tempDir, waitFor } from './helpers.ts';
import { journalOf } from './journal-fixture.ts';
import { request, type Served, startServe } from './serve-process.ts';

// [UI-1..3] The dashboard in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core) against a real `hookwerk serve` process on a temp workspace. Each test has its
// own server and browser context; the browser is shared by the file and closed after it.

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Generous: the page shows a run as soon as the stream brings it; a loaded CI machine is slow. */
const SEEN = { timeout: 15_000 };

if (!existsSync(CHROMIUM)) {
  throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does), or set CHROMIUM`);
}

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

interface Dashboard {
  served: Served;
  workspace: string;
  /** serve's HOME: its journal holds the agents' runs [R-HOOK-3]. */
  home: string;
  token: string;
  page: Page;
  /** POST to the API with the token, as an agent would. */
  api(method: string, route: string, body?: unknown): Promise<{ status: number; text: string }>;
  hooksFile(): { hooks: Record<string, Array<Record<string, unknown>>> };
}

const open: Array<{ context: BrowserContext; served: Served; problems: string[]; dash: Dashboard }> = [];

// Runs before serve-process.ts's own clean-up (after-hooks run last-registered first): the page is
// checked and closed, then serve stops the way a user stops it.
afterEach(async () => {
  for (const { context, served, problems, dash } of open.splice(0)) {
    const origin = new URL(served.url).origin;
    let foreign: unknown = [];
    try {
      foreign = await dash.page.evaluate('performance.getEntriesByType("resource").map((e) => e.name)');
    } finally {
      await context.close();
      await served.stop();
    }
    expect(problems, 'errors in the page').toEqual([]);
    // [UI-2] Nothing but its own origin: no CDN, no fonts, no network at run time.
    expect(Array.isArray(foreign) ? foreign.filter((u) => !String(u).startsWith(origin)) : foreign).toEqual(
      [],
    );
  }
});

/**
 * A workspace with two tool_call hooks (one fails with a message on stderr) and an agent_start
 * one, a global Lurus gate hook that denies `Write`, `hookwerk serve` on it, and a page.
 * `prepare` adds to the workspace (also the project) and home before serve starts.
 */
async function openDashboard(
  viewport = { width: 1280, height: 800 },
  prepare?: (dirs: { workspace: string; home: string }) => Promise<void>,
): Promise<Dashboard> {
  const workspace = tempDir('hw-ui-ws-');
  const home = tempDir('hw-ui-home-');
  writeFileSync(
    path.join(workspace, 'hooks.json'),
    JSON.stringify(
      {
        hooks: {
          tool_call: [
            { id: 'quick', command: '/bin/true' },
            { id: 'fails', command: '/bin/sh', args: ['-c', 'echo broken pipe dream >&2; exit 3'] },
          ],
          agent_start: [{ id: 'hello', command: '/bin/true' }],
        },
      },
      null,
      2,
    ),
  );
  mkdirSync(path.join(home, '.lurus'));
  writeFileSync(
    path.join(home, '.lurus', 'hooks.json'),
    JSON.stringify({
      PreToolUse: [
        {
          matcher: '^Write$',
          hooks: [
            { type: 'command', command: `printf '%s\\n' '{"decision":"deny","reason":"no writes today"}'` },
          ],
        },
      ],
    }),
  );
  await prepare?.({ workspace, home });
  const served = await startServe(
    ['--workspace', workspace, '--project', workspace, '--port', '0'],
    cleanEnv({ HOME: home }),
  );
  const token = readFileSync(path.join(workspace, '.hookwerk', 'token'), 'utf8').trim();
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // The browser logs every 4xx answer by itself; the tests provoke those (a wrong token, a bad hook).
    if (msg.type() === 'error' && !/Failed to load resource: .* status of 4\d\d/.test(msg.text()))
      problems.push(`console: ${msg.text()}`);
  });
  const dash: Dashboard = {
    served,
    workspace,
    home,
    token,
    page,
    api: (method, route, body) => request(served.port, method, route, token, body),
    hooksFile: () => JSON.parse(readFileSync(path.join(workspace, 'hooks.json'), 'utf8')),
  };
  open.push({ context, served, problems, dash });
  await page.goto(served.url);
  return dash;
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

async function signIn(d: Dashboard): Promise<void> {
  await d.page.getByLabel('Token').fill(d.token);
  await d.page.getByRole('button', { name: 'Open dashboard' }).click();
  // Live: subscribed to the stream and the recorded runs loaded.
  await d.page.locator('.feed[data-state="live"]').waitFor(SEEN);
}

const TOOL_CALL = { tool: 'shell', success: true, output: 'ok' };

async function emit(d: Dashboard, event: string, payload: unknown): Promise<void> {
  const res = await d.api('POST', '/api/events', { event, session_id: 'ui-test', payload });
  expect(res.status, res.text).toBe(202);
}

// Each test starts a serve and a page (two for the last one): room for a loaded 2-CPU machine.
describe('[UI-1] [UI-3] the dashboard in Chromium', { timeout: 60_000 }, () => {
  it('asks for the token once: refuses a wrong one, keeps the right one for the tab, forgets it on sign-out', async () => {
    const d = await openDashboard();
    await d.page.getByLabel('Token').fill('not-the-token-at-all');
    await d.page.getByRole('button', { name: 'Open dashboard' }).click();
    await d.page.getByRole('alert').filter({ hasText: 'not the one serve uses' }).waitFor(SEEN);
    await signIn(d);
    expect(await d.page.evaluate('sessionStorage.getItem("hookwerk.token")')).toBe(d.token);
    await d.page.reload();
    await d.page.locator('.feed[data-state="live"]').waitFor(SEEN);
    expect(await d.page.getByLabel('Token').count()).toBe(0);
    await d.page.getByRole('button', { name: 'Sign out' }).click();
    await d.page.getByLabel('Token').waitFor(SEEN);
    expect(await d.page.evaluate('sessionStorage.getItem("hookwerk.token")')).toBeNull();
  });

  it('shows each run as it happens, coloured by outcome, with its details on click; gate decisions too', async () => {
    const d = await openDashboard();
    await signIn(d);
    await emit(d, 'tool_call', TOOL_CALL);
    const failed = d.page.locator('tr.run[data-hook="fails"]');
    await failed.waitFor(SEEN);
    await d.page.locator('tr.run[data-hook="quick"]').waitFor(SEEN);
    expect(await failed.getAttribute('class')).toContain('outcome-error');
    expect(await d.page.locator('tr.run[data-hook="quick"]').getAttribute('class')).toContain('outcome-ok');
    await failed.click();
    const details = d.page.locator('tr.details');
    await details.waitFor(SEEN);
    const field = (name: string) => details.locator(`dt:text-is("${name}") + dd`).textContent();
    expect(await field('cause')).toBe('exit_code');
    expect(await field('exit code')).toBe('3');
    expect(await details.locator('pre.stderr').textContent()).toContain('broken pipe dream');
    // Latency per hook, from the records the page holds.
    await d.page.locator('table.latency tr[data-hook="fails"] td.p95').waitFor(SEEN);
    expect(await d.page.locator('.latency-panel canvas').count()).toBeGreaterThan(0);
    // A gate decision, as it happens.
    const decided = await d.api('POST', '/api/decide', {
      event: 'PreToolUse',
      context: { toolName: 'Write' },
    });
    expect(JSON.parse(decided.text)).toMatchObject({ decision: 'deny', blocked: true });
    const deny = d.page.locator('.gate-list li[data-verdict="deny"]');
    await deny.waitFor(SEEN);
    expect(await deny.textContent()).toContain('no writes today');
    // (issue 31) Each decision names its tool and session, and so does the runs table.
    expect(await deny.locator('.gate-subject').textContent()).toMatch(/^Write · session sess_/);
    const denied = d.page.locator('tr.run[data-outcome="deny"]');
    await denied.waitFor(SEEN);
    expect(await denied.locator('.c-tool').textContent()).toBe('Write');
    expect(await denied.locator('.c-session').textContent()).toMatch(/^sess_/);
  });

  it('filters the runs by outcome, event and hook', async () => {
    const d = await openDashboard();
    await signIn(d);
    await emit(d, 'tool_call', TOOL_CALL);
    await emit(d, 'tool_call', TOOL_CALL);
    await emit(d, 'agent_start', { agent: 'a', session: 's' });
    const runs = d.page.locator('#runs');
    const rows = runs.locator('tr.run');
    const count = runs.locator('.count');
    await count.filter({ hasText: /^5 runs$/ }).waitFor(SEEN);
    await runs.getByLabel('Outcome').selectOption('error');
    await count.filter({ hasText: '2 of 5 runs' }).waitFor(SEEN);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-outcome')))).toEqual([
      'error',
      'error',
    ]);
    await runs.getByLabel('Outcome').selectOption('');
    await runs.getByLabel('Event').selectOption('agent_start');
    await count.filter({ hasText: '1 of 5 runs' }).waitFor(SEEN);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-hook')))).toEqual(['hello']);
    await runs.getByLabel('Event').selectOption('');
    await runs.getByLabel('Hook').selectOption('quick');
    await count.filter({ hasText: '2 of 5 runs' }).waitFor(SEEN);
    await runs.getByLabel('Outcome').selectOption('error');
    await d.page.getByText('No run matches these filters.').waitFor(SEEN);
  });

  it('toggles, edits and deletes hooks through the API, and hooks.json on disk follows', async () => {
    const d = await openDashboard();
    await signIn(d);
    const quick = () => d.hooksFile().hooks.tool_call?.find((a) => a.id === 'quick');
    const box = d.page.getByRole('checkbox', { name: 'enabled quick' });
    await box.uncheck();
    await waitFor(() => quick()?.enabled === false, 'hooks.json to say quick is disabled', SEEN.timeout);
    await d.page.locator('tr.hook.disabled[data-hook-id="quick"]').waitFor(SEEN);
    await box.check();
    await waitFor(() => quick()?.enabled === true, 'hooks.json to say quick is enabled', SEEN.timeout);

    // Edit keeps what the form does not show (args here) and writes the new timeout.
    await d.page.getByRole('button', { name: 'edit fails' }).click();
    await d.page.locator('#edit-timeout_ms').fill('1234');
    await d.page.getByRole('button', { name: 'Save' }).click();
    await d.page.getByRole('status').filter({ hasText: 'fails saved.' }).waitFor(SEEN);
    const fails = d.hooksFile().hooks.tool_call?.find((a) => a.id === 'fails');
    expect(fails).toMatchObject({ timeout_ms: 1234, args: ['-c', 'echo broken pipe dream >&2; exit 3'] });

    const del = d.page.getByRole('button', { name: 'delete hello' });
    await del.click();
    await del.click();
    await d.page.getByRole('status').filter({ hasText: 'hello deleted.' }).waitFor(SEEN);
    expect(d.hooksFile().hooks.agent_start).toEqual([]);
  });

  it('adds a hook, showing the API’s validation errors at their fields until the hook is valid', async () => {
    const d = await openDashboard();
    await signIn(d);
    const before = readFileSync(path.join(d.workspace, 'hooks.json'), 'utf8');
    await d.page.getByRole('button', { name: 'Add hook' }).click();
    const form = d.page.getByRole('form', { name: 'add a hook' });
    await form.getByLabel('Command').fill('echo hi; rm -rf /');
    await form.getByLabel('Environment').fill('HOME=/tmp/elsewhere');
    await form.getByRole('button', { name: 'Add hook' }).click();
    const commandError = form.locator('[data-field="command"] .field-error');
    await commandError.filter({ hasText: 'shell metacharacter ";"' }).waitFor(SEEN);
    expect(await form.getByLabel('Command').getAttribute('aria-invalid')).toBe('true');
    await form.locator('[data-field="env"] .field-error').filter({ hasText: 'HOME' }).waitFor(SEEN);
    // Refused: the file is untouched.
    expect(readFileSync(path.join(d.workspace, 'hooks.json'), 'utf8')).toBe(before);

    await form.getByLabel('Command').fill('/bin/echo');
    await form.getByLabel('Arguments').fill('hello\nworld');
    await form.getByLabel('Environment').fill('GREETING=hi');
    await form.getByRole('button', { name: 'Add hook' }).click();
    await d.page.locator('tr.hook[data-hook-id="hook_01"]').waitFor(SEEN);
    expect(await form.count()).toBe(0);
    expect(d.hooksFile().hooks.tool_call?.at(-1)).toMatchObject({
      id: 'hook_01',
      command: '/bin/echo',
      args: ['hello', 'world'],
      env: { GREETING: 'hi' },
      enabled: true,
    });
  });

  it('explains why a hook did or did not fire', async () => {
    const d = await openDashboard();
    await signIn(d);
    await d.page.getByRole('checkbox', { name: 'enabled fails' }).uncheck();
    await d.page.locator('tr.hook.disabled[data-hook-id="fails"]').waitFor(SEEN);
    const panel = d.page.locator('#explain');
    await panel.getByLabel('Event').selectOption('tool_call');
    await panel.getByRole('button', { name: 'Explain' }).click();
    const items = panel.locator('.explain-list li');
    await items.nth(1).waitFor(SEEN);
    expect(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-verdict')))).toEqual([
      'runs',
      'disabled',
    ]);
    expect(await items.nth(1).textContent()).toContain('fails');
    // A gate event: the matcher is tested against the tool given.
    await panel.getByLabel('Event').selectOption('PreToolUse');
    await panel.getByLabel('Tool', { exact: true }).fill('Read');
    await panel.getByRole('button', { name: 'Explain' }).click();
    const miss = panel.locator('.explain-list li[data-verdict="matcher"]');
    await miss.waitFor(SEEN);
    expect(await miss.textContent()).toContain('does not match "Read"');
  });

  it('[R-HOOK-3] shows the agents’ runs from the journal beside its own, newest first, filterable by agent', async () => {
    const d = await openDashboard();
    const journal = new RunJournal(journalDir(d.home));
    const run = (agent: string, toolName: string, minutesAgo: number, over: Partial<JournalEntry> = {}) => ({
      hook: `policy-${toolName}`,
      source: '/home/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
      event: 'PreToolUse',
      dialect: 'claude',
      outcome: 'ok' as const,
      durationMs: 3.5,
      at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      sessionId: `${agent}-session`,
      agent,
      toolName,
      ...over,
    });
    // Written out of time order (a long hook is recorded after a later short one): shown by time.
    journal.append([
      run('claude', 'Bash', 5),
      run('codex', 'apply_patch', 1, { outcome: 'deny', decision: 'deny', reason: 'no patches to .env' }),
      run('gemini', 'Write', 3),
      run('claude', 'Read', 2),
    ]);
    await signIn(d);
    const panel = d.page.locator('#agents');
    const rows = panel.locator('tr.agent-run');
    const count = panel.locator('.count');
    await count.filter({ hasText: /^4 runs$/ }).waitFor(SEEN);
    const column = (name: string) => rows.evaluateAll((trs, n) => trs.map((tr) => tr.getAttribute(n)), name);
    expect(await column('data-agent')).toEqual(['codex', 'claude', 'gemini', 'claude']);
    const times = await column('data-at');
    expect(times).toEqual([...times].sort().reverse());
    expect(await rows.first().getAttribute('class')).toContain('outcome-deny');
    const agentSelect = panel.getByLabel('Agent', { exact: true });
    expect(await agentSelect.locator('option').evaluateAll((os) => os.map((o) => o.textContent))).toEqual([
      'all',
      'claude',
      'codex',
      'gemini',
    ]);

    await agentSelect.selectOption('claude');
    await count.filter({ hasText: '2 runs of claude' }).waitFor(SEEN);
    expect(await column('data-agent')).toEqual(['claude', 'claude']);
    expect(await panel.locator('tr.agent-run .c-tool').allTextContents()).toEqual(['Read', 'Bash']);
    await rows.first().click();
    const details = panel.locator('tr.details');
    await details.waitFor(SEEN);
    expect(await details.locator('dt:text-is("session") + dd').textContent()).toBe('claude-session');

    // A run an agent records later is there on the next load; the other agents stay filtered out.
    journal.append([run('claude', 'Edit', 0), run('cursor', 'Shell', 0)]);
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await count.filter({ hasText: '3 runs of claude' }).waitFor(SEEN);
    expect(await panel.locator('tr.agent-run .c-tool').first().textContent()).toBe('Edit');
    await agentSelect.selectOption('');
    await count.filter({ hasText: /^6 runs$/ }).waitFor(SEEN);
    expect(await agentSelect.locator('option').count()).toBe(5);
    // serve's own runs are apart: none happened here.
    expect(await d.page.locator('#runs tr.run').count()).toBe(0);
  });

  it('[T-SELF-3] shows the journal’s chain: whole up to its last record, then broken at the record edited on disk', async () => {
    const d = await openDashboard();
    const { dir } = journalOf(3, d.home);
    await signIn(d);
    const panel = d.page.locator('#agents');
    const chain = panel.locator('.journal-chain');
    await chain
      .filter({ hasText: 'Journal chain: whole up to runs-000000000001.jsonl:3, 3 records checked.' })
      .waitFor(SEEN);
    const file = path.join(dir, 'runs-000000000001.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"hook":"h2"', '"hook":"h9"'));
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await chain
      .filter({ hasText: 'Journal chain: broken at runs-000000000001.jsonl:2: edited.' })
      .waitFor(SEEN);
    expect(await chain.getAttribute('data-kind')).toBe('error');
  });

  it('(issue 23) the Gate page: each hook’s consent state (approved, pending approval, changed since approval), its recent decisions, a decide in any dialect', async () => {
    const d = await openDashboard(undefined, async ({ workspace, home }) => {
      const deny = JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'no shell here',
        },
      });
      const settings = path.join(workspace, '.claude', 'settings.json');
      const guard = { matcher: 'Bash', hooks: [{ type: 'command', command: `printf '%s\\n' '${deny}'` }] };
      writeJson(settings, { hooks: { PreToolUse: [guard] } });
      writeJson(path.join(workspace, '.gemini', 'settings.json'), {
        hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'gemini-log', command: 'true' }] }] },
      });
      const trusted = await runCli(['trust', '--project', workspace, '--yes'], { home });
      expect(trusted.code, trusted.stderr).toBe(0);
      // Edited after the approval: the approved guard runs, the added hook waits.
      const added = { matcher: 'Write', hooks: [{ type: 'command', command: 'echo added-later' }] };
      writeJson(settings, { hooks: { PreToolUse: [guard, added] } });
    });
    await signIn(d);
    const page = d.page.locator('#gate');
    const claude = page.locator('section.gate-dialect[data-dialect="claude"]');
    const badge = (dialect: string, consent: string) =>
      page.locator(
        `section.gate-dialect[data-dialect="${dialect}"] li.gate-hook[data-consent="${consent}"] > .badge`,
      );
    await badge('claude', 'changed').first().waitFor(SEEN);
    expect(await badge('claude', 'changed').textContent()).toBe('changed since approval');
    expect(await badge('claude', 'pending').textContent()).toBe('pending approval');
    expect(await badge('gemini', 'approved').textContent()).toBe('approved');
    expect(await claude.locator('li.gate-hook[data-consent="pending"]').textContent()).toContain(
      'echo added-later',
    );
    expect(await claude.locator('.gate-sources li[data-state="ok"]').textContent()).toContain(
      'newer version pending',
    );
    expect(await page.locator('.gate-trust').textContent()).toMatch(/approved .*Changed since approval/);
    // (issue 31) .claude/settings.json is read by three dialects: its hooks are listed once each
    // (2 of it, Gemini's 1 and the global Lurus one; 8 before).
    expect(await page.locator('.panel-head .count').textContent()).toMatch(/^4 hooks in /);
    expect(await claude.locator('li.gate-hook .read-by').first().textContent()).toBe(
      'read by Claude Code, GitHub Copilot CLI, Cursor',
    );
    expect(await page.locator('section.gate-dialect[data-dialect="cursor"] li.gate-hook').count()).toBe(0);

    // A decide in Claude Code's dialect from the page: the approved guard denies, and its recent
    // decisions show it (from the runs the page follows).
    const form = page.getByRole('form', { name: 'try a decide' });
    await form.getByLabel('Dialect').selectOption('claude');
    await form.getByLabel('Event').fill('PreToolUse');
    await form.getByLabel(/^Input/).fill('{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}');
    await form.getByRole('button', { name: 'Decide' }).click();
    await form.locator('.decision[data-decision="deny"]').filter({ hasText: 'no shell here' }).waitFor(SEEN);
    const recent = claude.locator('li.gate-hook[data-consent="changed"] .hook-runs li[data-verdict="deny"]');
    await recent.waitFor(SEEN);
    expect(await recent.textContent()).toContain('no shell here');
    // One that matches no hook says so.
    await form.getByLabel('Dialect').selectOption('gemini');
    await form.getByLabel('Event').fill('SessionStart');
    await form.getByLabel(/^Input/).fill('');
    await form.getByRole('button', { name: 'Decide' }).click();
    await form.locator('.no-hooks').filter({ hasText: 'no hook matched' }).waitFor(SEEN);
  });

  it('(issue 23) sorts the runs by time whatever order they arrive in; a decide that matched no hook replaces “No gate decisions yet”', async () => {
    let slowHook = '';
    const d = await openDashboard(undefined, async ({ home }) => {
      // A Lurus gate hook that holds its run until the test says go, and one that answers at once.
      slowHook = `touch ${path.join(home, 'started')}; while [ ! -e ${path.join(home, 'go')} ]; do sleep 0.05; done`;
      writeJson(path.join(home, '.lurus', 'settings.json'), {
        hooks: {
          PreToolUse: [
            {
              matcher: '^Slow$',
              hooks: [{ type: 'command', command: slowHook }],
            },
            { matcher: '^Fast$', hooks: [{ type: 'command', command: 'true' }] },
          ],
        },
      });
    });
    await signIn(d);
    const empty = d.page.locator('.gate-list li.empty');
    expect(await empty.textContent()).toContain('No gate decisions yet');
    const none = await d.api('POST', '/api/decide', { dialect: 'claude', event: 'Stop', input: {} });
    expect(JSON.parse(none.text)).toMatchObject({ decision: 'allow', runs: [] });
    const noHooks = d.page.locator('.gate-list li.no-hooks');
    await noHooks.waitFor(SEEN);
    expect(await noHooks.textContent()).toContain('no hook matched');
    expect(await noHooks.locator('.gate-subject').textContent()).toMatch(/^no tool · session sess_/);
    expect(await empty.count()).toBe(0);

    // The slow run starts first and is recorded last: it belongs below the fast one.
    const slow = d.api('POST', '/api/decide', { event: 'PreToolUse', context: { toolName: 'Slow' } });
    await waitFor(() => existsSync(path.join(d.home, 'started')), 'the slow hook to start', SEEN.timeout);
    const fast = await d.api('POST', '/api/decide', { event: 'PreToolUse', context: { toolName: 'Fast' } });
    expect(fast.status).toBe(200);
    const rows = d.page.locator('#runs tr.run');
    await rows.first().waitFor(SEEN);
    writeFileSync(path.join(d.home, 'go'), '');
    expect((await slow).status).toBe(200);
    await d.page
      .locator('#runs .count')
      .filter({ hasText: /^2 runs$/ })
      .waitFor(SEEN);
    const column = (name: string) =>
      rows.evaluateAll((trs, n) => trs.map((tr) => tr.getAttribute(n) ?? ''), name);
    expect(await column('data-hook')).toEqual(['true', slowHook]);
    const times = await column('data-at');
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(times).size, 'two moments').toBe(2);
    // A reload shows the decide that ran no hook again (from /api/decisions).
    await d.page.reload();
    await d.page.locator('.feed[data-state="live"]').waitFor(SEEN);
    await noHooks.waitFor(SEEN);
  });

  it('fits a phone screen (390×844) and a 1280×800 one without sideways scrolling', async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      // A user-level Claude Code guard (no consent needed) whose command line has no room to break.
      const d = await openDashboard(viewport, async ({ home }) => {
        const answer = JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'no',
          },
        });
        const guard = {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: `printf '%s\\n' '${answer}'` }],
        };
        writeJson(path.join(home, '.claude', 'settings.json'), { hooks: { PreToolUse: [guard] } });
      });
      await signIn(d);
      await emit(d, 'tool_call', TOOL_CALL);
      await d.page.locator('tr.run[data-hook="fails"]').waitFor(SEEN);
      await d.page.locator('tr.hook[data-hook-id="fails"]').waitFor(SEEN);
      // A decide from the Gate page's form: its answer names the hook by its long command line.
      const form = d.page.getByRole('form', { name: 'try a decide' });
      await form.getByLabel('Dialect').selectOption('claude');
      await form.getByLabel(/^Input/).fill('{"tool_name":"Bash","tool_input":{"command":"ls"}}');
      await form.getByRole('button', { name: 'Decide' }).click();
      await form.locator('.decide-runs li').waitFor(SEEN);
      const width = await d.page.evaluate('document.documentElement.scrollWidth');
      expect(width, `page width at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      // Everything a user acts on is on screen once scrolled to.
      for (const name of ['edit fails', 'delete fails', 'enabled fails', 'Decide']) {
        const target = d.page.getByRole(name.startsWith('enabled') ? 'checkbox' : 'button', { name });
        await target.scrollIntoViewIfNeeded();
        const box = await target.boundingBox();
        expect(box !== null && box.x >= 0 && box.x + box.width <= viewport.width, name).toBe(true);
      }
    }
  });
});
