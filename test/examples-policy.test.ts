/**
 * Issues 23 and 29: the README's "one policy, every agent" as written. Its first command copies
 * examples/policy/starter.json into ~/.hookwerk/policy.json (a temp HOME here); the policy then
 * loads (`validate --dialect policy`), the README's own `hook --agent claude` line prints the
 * denial the README shows, and the same file guards each of the five agents in its own protocol
 * [R-POL-1, R-HOOK-1, R-HOOK-2, R-MAP-1].
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coldDecider } from '../src/hook/cold-decider.ts';
import { answerHookCall } from '../src/hook/hook-call.ts';
import { cleanEnv, REPO, runCli, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const run = promisify(execFile);
const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** The README line that starts with `start` (and holds `holding`), and the line after it. */
function readmeLine(start: string, holding: string): { line: string; next: string } {
  const lines = readme.split('\n');
  const i = lines.findIndex((l) => l.startsWith(start) && l.includes(holding));
  const line = lines[i];
  if (line === undefined) throw new Error(`README: no line starting with ${start} that holds ${holding}`);
  return { line, next: lines[i + 1] ?? '' };
}

/** A home with the policy in it, put there by the README's own first command. */
async function homeWithPolicy(): Promise<string> {
  const home = tempDir('hw-expol-home-');
  const { line } = readmeLine('mkdir -p ~/.hookwerk', 'examples/policy/starter.json');
  const command = line.replace(/\s+#.*$/, '');
  await run('/bin/sh', ['-c', command], { cwd: REPO, env: cleanEnv({ HOME: home }) });
  expect(existsSync(path.join(home, '.hookwerk', 'policy.json'))).toBe(true);
  return home;
}

const starterShape = z.object({
  permissions: z.object({ deny: z.array(z.string()), ask: z.array(z.string()) }),
  guards: z.record(z.string(), z.literal(true)),
  hooks: z.object({
    PreToolUse: z.array(
      z.object({
        matcher: z.string(),
        hooks: z.array(z.object({ type: z.literal('rule'), when: z.string() })),
      }),
    ),
  }),
});

describe('[issue 29] examples/policy/starter.json, as the README uses it', () => {
  it('[G-PERM-1, G-LIB-1, G-CEL-1] holds permission rules, six shipped guards and a CEL rule, and loads as the policy', async () => {
    const text = readFileSync(path.join(REPO, 'examples', 'policy', 'starter.json'), 'utf8');
    const { parseJsoncText } = await import('../src/core/json-text.ts');
    const parsed = parseJsoncText('starter.json', text);
    if (!parsed.ok) throw new Error('starter.json does not parse');
    const file = starterShape.parse(parsed.value);
    expect(Object.keys(file.guards)).toEqual([
      'destructive-delete',
      'secrets',
      'force-push',
      'outside-project',
      'publish',
      'pipe-to-shell',
    ]);
    const home = await homeWithPolicy();
    const project = tempDir('hw-expol-proj-');
    const r = await runCli(['validate', '--dialect', 'policy', '--project', project], { home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${path.join(home, '.hookwerk', 'policy.json')}: 1 hooks, 9 rules (user)`);
  });

  it("[R-HOOK-1, R-HOOK-2] the README's hook --agent claude line prints the denial the README shows; ls gets no objection", async () => {
    const home = await homeWithPolicy();
    const project = tempDir('hw-expol-proj-');
    const { line, next } = readmeLine('echo ', 'npx hookwerk hook --agent claude');
    const input = /^echo '([^']*)'/.exec(line)?.[1];
    if (input === undefined) throw new Error('README: the hook line pipes no input');
    expect(next.startsWith('# ')).toBe(true);
    const denied = await runCli(['hook', '--agent', 'claude'], {
      home,
      cwd: project,
      stdin: { text: input },
    });
    expect(denied.code).toBe(0);
    expect(denied.stdout.trim()).toBe(next.slice(2));
    expect(denied.stderr).not.toMatch(STACK);

    const ls = input.replace('sudo rm -r -f ~', 'rm -rf node_modules');
    const allowed = await runCli(['hook', '--agent', 'claude'], { home, cwd: project, stdin: { text: ls } });
    expect(allowed).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('[R-HOOK-1, R-MAP-1] the same file guards every agent, each answered in its own protocol', async () => {
    const home = await homeWithPolicy();
    const project = tempDir('hw-expol-proj-');
    const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const rmrf = 'rm -fr ~';
    const cases = [
      {
        agent: 'claude' as const,
        input: {
          hook_event_name: 'PreToolUse',
          cwd: project,
          tool_name: 'Bash',
          tool_input: { command: rmrf },
        },
        denied: { hookSpecificOutput: { permissionDecision: 'deny' } },
      },
      {
        agent: 'gemini' as const,
        input: {
          hook_event_name: 'BeforeTool',
          cwd: project,
          tool_name: 'run_shell_command',
          tool_input: { command: rmrf },
        },
        denied: { decision: 'deny' },
      },
      {
        agent: 'codex' as const,
        input: {
          hook_event_name: 'PreToolUse',
          cwd: project,
          tool_name: 'Bash',
          tool_input: { command: rmrf },
        },
        denied: { hookSpecificOutput: { permissionDecision: 'deny' } },
      },
      {
        agent: 'copilot' as const,
        event: 'preToolUse',
        input: { cwd: project, toolName: 'bash', toolArgs: { command: rmrf } },
        denied: { permissionDecision: 'deny' },
      },
      {
        agent: 'cursor' as const,
        input: {
          hook_event_name: 'beforeShellExecution',
          workspace_roots: [project],
          cwd: project,
          command: rmrf,
        },
        denied: { permission: 'deny' },
      },
    ];
    for (const c of cases) {
      const reply = await answerHookCall(
        { agent: c.agent, stdin: JSON.stringify(c.input), event: c.event, cwd: project, env, home },
        { decider: coldDecider },
      );
      expect({ agent: c.agent, answer: JSON.parse(reply.stdout) }).toMatchObject({
        agent: c.agent,
        answer: c.denied,
      });
      expect(reply.stdout).toContain('guards.destructive-delete');
    }
  });

  it('[G-TEST-1, G-TEST-2] hookwerk test on examples/policy passes: the starter in every agent shape, and the hook example', async () => {
    const home = tempDir('hw-expol-home-');
    const project = tempDir('hw-expol-proj-');
    const r = await runCli(['test', path.join(REPO, 'examples', 'policy')], { home, cwd: project });
    expect(r).toEqual({ code: 0, stdout: '104 passed, 0 failed\n', stderr: '' });
    const json = await runCli(['test', 'examples/policy', '--json'], { home, cwd: REPO });
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => z.record(z.string(), z.unknown()).parse(JSON.parse(l)));
    const cases = lines.filter((l) => l.type === 'case');
    expect(cases).toHaveLength(104);
    expect(cases.filter((l) => l.expect !== l.got)).toEqual([]);
    expect(new Set(cases.map((l) => l.got))).toEqual(new Set(['deny', 'ask', 'none']));
  });
});
