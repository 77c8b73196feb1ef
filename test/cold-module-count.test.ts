/**
 * [G-PERF-1] Issue 31's "load only what runs": a cold `hookwerk hook --agent claude` call (no
 * daemon) whose policy is one guard, counted module file by module file. The call runs from its
 * unbundled modules (test/fixtures/count-modules.mjs: dist/cli/hook.js with the cold bundle off,
 * the same modules both bundles are made of), so each of hookwerk's own modules and each package
 * file counts once. NATS, prom-client, OpenTelemetry, the PRX workspace (its plugin scan, watcher and TOML
 * reader) are not loaded by a call that does not use them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, REPO, runProgram } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const COUNTER = path.join(REPO, 'test', 'fixtures', 'count-modules.mjs');
const DIST = `${path.join(REPO, 'dist')}/`;
const PACKAGES = `${path.join(REPO, 'node_modules')}/`;

/**
 * What the call loads now, the bound (before session 38: 436 files, 244 of them hookwerk's own;
 * prom-client and the OpenTelemetry API it loads, 81 files, the PRX workspace and six of the seven
 * gate dialects are gone). Still loaded though unused by a one-guard call: the five hook agents'
 * protocol, install and demo files (dialects/hook-agents.ts is not lazy yet), every surface, every
 * guard, the runners, smol-toml; zod's ES build alone is 95 files (issue 31 asks for 100 in all).
 */
const MAX_OWN = 226;
const MAX_FILES = 337;

/** The package a file of node_modules belongs to (`@scope/name` or `name`). */
function packageOf(file: string): string {
  const parts = file.slice(PACKAGES.length).split('/');
  return (parts[0] ?? '').startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '');
}

async function coldCall(policy: unknown, command: string) {
  const dir = tempDir('hw-modules-');
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(home, '.hookwerk', 'policy.json'), JSON.stringify(policy));
  const out = path.join(dir, 'modules.txt');
  writeFileSync(out, '');
  const input = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-modules',
    cwd: project,
    tool_name: 'Bash',
    tool_input: { command },
  });
  const r = await runProgram(process.execPath, [COUNTER, '--agent', 'claude'], {
    env: cleanEnv({
      HOME: home,
      HOOKWERK_DAEMON_SOCKET: '',
      HOOKWERK_COLD_BUNDLE: 'off',
      COUNT_MODULES_OUT: out,
    }),
    cwd: project,
    stdin: { text: input },
  });
  const files = [...new Set(readFileSync(out, 'utf8').split('\n'))].filter((f) => f !== '' && f !== COUNTER);
  const own = files.filter((f) => f.startsWith(DIST)).map((f) => f.slice(DIST.length));
  const packages = new Set(files.filter((f) => f.startsWith(PACKAGES)).map(packageOf));
  return { reply: r, files, own, packages };
}

describe('[G-PERF-1] a cold hook call loads only what runs (issue 31)', () => {
  it('one guard: at most the bound of module files, and no NATS, prom-client, OpenTelemetry or PRX workspace', async () => {
    const { reply, files, own, packages } = await coldCall(
      { guards: { 'destructive-delete': true } },
      'rm -rf /',
    );
    expect(reply.code, reply.stderr).toBe(0);
    expect(JSON.parse(reply.stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
    // What the call loaded, said when the bound is passed (the list shows where).
    const summary = `${files.length} files, ${own.length} own: ${own.join(' ')}; packages: ${[...packages].join(' ')}`;
    expect(own.length, summary).toBeLessThanOrEqual(MAX_OWN);
    expect(files.length, summary).toBeLessThanOrEqual(MAX_FILES);
    for (const pkg of [
      '@nats-io/transport-node',
      '@nats-io/jetstream',
      '@opentelemetry/api',
      '@bufbuild/cel',
    ])
      expect(packages.has(pkg), summary).toBe(false);
    expect(
      own.filter((f) => /^(nats\/|dialects\/prx\/workspace\.js|sources\/(plugin-scan|watch)\.js)/.test(f)),
      summary,
    ).toEqual([]);
  }, 60_000);
});
