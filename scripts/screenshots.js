// Takes the dashboard screenshots of docs/api.md (`npm run screenshots`, issue 13): a real
// `hookwerk serve` on a temp copy of examples/demo, a scripted agent session sent through the API,
// a few gate decisions, then PNGs of the live runs and the hooks table, desktop and phone width,
// into docs/screenshots/ (dashboard-readme.png is the README's). Needs the build (dist/) and Debian's chromium (`CHROMIUM` overrides).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const RUNS = 23;

const workspace = mkdtempSync(path.join(tmpdir(), 'hw-shots-ws-'));
const home = mkdtempSync(path.join(tmpdir(), 'hw-shots-home-'));
cpSync(path.join(REPO, 'examples', 'demo'), workspace, { recursive: true });
// Global Lurus hooks (trusted without consent) so the gate panel has decisions to show.
mkdirSync(path.join(home, '.lurus'));
writeFileSync(
  path.join(home, '.lurus', 'hooks.json'),
  JSON.stringify({
    PreToolUse: [
      {
        matcher: '^Write$',
        hooks: [
          {
            type: 'command',
            command: `printf '%s\\n' '{"decision":"deny","reason":"writes outside src/ need a review"}'`,
          },
        ],
      },
      { matcher: '.*', hooks: [{ type: 'command', command: `printf '%s\\n' '{"decision":"allow"}'` }] },
    ],
  }),
);

// serve makes its own token in the workspace (and records it under this HOME).
const env = { ...process.env, HOME: home };
delete env.HOOKWERK_TOKEN;
const serve = spawn(
  process.execPath,
  [
    path.join(REPO, 'bin', 'hookwerk.js'),
    'serve',
    '--workspace',
    workspace,
    '--project',
    workspace,
    '--port',
    '0',
  ],
  { env, stdio: ['ignore', 'pipe', 'inherit'] },
);
let browser;
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    serve.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && /\nconnections: /.test(out)) resolve(m[1]);
    });
    serve.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${out}`)));
  });
  const token = readFileSync(path.join(workspace, '.hookwerk', 'token'), 'utf8').trim();
  const api = async (method, route, body) => {
    const res = await fetch(url + route, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };

  // Two hooks added the way a user would: one that fails with a message, one that times out.
  await api('POST', '/api/hooks', {
    event: 'tool_call',
    action: {
      command: '/bin/sh',
      args: ['-c', 'echo "lint: 2 problems in src/app.ts" >&2; exit 1'],
      timeout_ms: 5000,
    },
  });
  await api('POST', '/api/hooks', {
    event: 'llm_response',
    action: { command: '/bin/sleep', args: ['5'], timeout_ms: 300 },
  });
  // One hook switched off: it stays in the file, struck through in the table.
  await api('PATCH', '/api/hooks/turn-done/toggle');

  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // A broken page should not make pretty pictures silently (the 400 of the add form is expected).
  desktop.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 400/.test(msg.text())) console.error(`page: ${msg.text()}`);
  });
  desktop.on('pageerror', (err) => console.error(`page: ${err.message}`));
  await desktop.goto(url);
  await desktop.getByLabel('Token').fill(token);
  await desktop.getByRole('button', { name: 'Open dashboard' }).click();
  await desktop.locator('.feed[data-state="live"]').waitFor();

  // A short scripted agent session, as an agent in any language would send it.
  const session = 'sess-42';
  const send = (event, payload) => api('POST', '/api/events', { event, session_id: session, payload });
  await send('agent_start', { agent: 'coder', session });
  for (let turn = 0; turn < 3; turn++) {
    await send('llm_request', {
      provider: 'anthropic',
      model: 'claude-sonnet',
      messages_count: 4 + turn * 2,
    });
    await send('llm_response', {
      provider: 'anthropic',
      model: 'claude-sonnet',
      duration_ms: 850 + turn * 90,
      success: true,
    });
    await send('tool_call_start', { tool: 'shell', arguments: { cmd: 'npm test' } });
    await send('tool_call', { tool: 'shell', success: turn !== 1, output: turn !== 1 ? 'ok' : 'exit 1' });
    await send('turn_complete', {});
  }
  await send('error', { component: 'tool', message: 'npm test failed' });
  await send('agent_end', { success: true, messages_count: 10 });
  await api('POST', '/api/decide', {
    event: 'PreToolUse',
    context: { toolName: 'Write', toolInput: { path: 'a.txt' } },
  });
  await api('POST', '/api/decide', {
    event: 'PreToolUse',
    context: { toolName: 'Read', toolInput: { path: 'a.txt' } },
  });

  // Every run recorded (the timeouts last 300 ms) and shown: 21 observe runs (turn-done is off), 2 gate runs.
  await desktop.waitForFunction((n) => document.querySelectorAll('tr.run').length >= n, RUNS, {
    timeout: 20_000,
  });
  await desktop.locator('tr.run.outcome-error').first().click();
  await desktop.locator('#explain-event').selectOption('turn_complete');
  await desktop.getByRole('button', { name: 'Explain' }).click();
  await desktop.locator('.explain-list li').first().waitFor();
  await desktop.evaluate(() => window.scrollTo(0, 0));

  mkdirSync(OUT, { recursive: true });
  const shots = [];
  const save = async (target, name) => {
    const file = path.join(OUT, name);
    await target.screenshot({ path: file });
    shots.push(path.relative(REPO, file));
  };
  await save(desktop, 'dashboard-desktop.png');
  await save(desktop.locator('#runs'), 'runs-desktop.png');
  // The hooks table, with the add form showing the API's answer at its field.
  await desktop.getByRole('button', { name: 'Add hook' }).click();
  await desktop.locator('#new-command').fill('echo hi; rm -rf /tmp/x');
  await desktop.getByRole('button', { name: 'Add hook' }).last().click();
  await desktop.locator('.field-command .field-error').waitFor();
  await save(desktop.locator('#hooks'), 'hooks-desktop.png');

  const phone = await browser.newPage({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await phone.goto(url);
  await phone.getByLabel('Token').fill(token);
  await phone.getByRole('button', { name: 'Open dashboard' }).click();
  await phone.waitForFunction((n) => document.querySelectorAll('tr.run').length >= n, RUNS, {
    timeout: 20_000,
  });
  await save(phone, 'runs-phone.png');
  await phone.evaluate(() => document.getElementById('hooks')?.scrollIntoView());
  await save(phone, 'hooks-phone.png');

  // (issue 31) The README's picture: the first screen at a small size (runs, gate decisions with
  // their tool and session, latency), kept small in bytes.
  const readme = await browser.newPage({ viewport: { width: 1000, height: 620 } });
  await readme.goto(url);
  await readme.getByLabel('Token').fill(token);
  await readme.getByRole('button', { name: 'Open dashboard' }).click();
  await readme.waitForFunction((n) => document.querySelectorAll('tr.run').length >= n, RUNS, {
    timeout: 20_000,
  });
  await readme.locator('.gate-list li .gate-subject').first().waitFor();
  await save(readme, 'dashboard-readme.png');
  console.log(`wrote ${shots.join(', ')}`);
} finally {
  await browser?.close();
  if (serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  rmSync(workspace, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
