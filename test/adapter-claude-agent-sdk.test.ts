/**
 * [AD-CAS-1] `hookwerk/claude-agent-sdk` against the real Claude Agent SDK and the Claude Code
 * binary it bundles, driven offline by the differential's mock Messages API on 127.0.0.1: one
 * query in which the model calls Bash twice. The project's `.claude/settings.json` guard (a real
 * script) runs in hookwerk's engine, once, and the SDK acts on its answers. The rest reads the
 * answer mapping in-process.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HOOK_EVENTS, query } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CLAUDE_AGENT_EVENTS,
  claudeAgentAnswer,
  claudeAgentHooks,
  claudeAgentSessionStart,
} from '../src/adapters/claude-agent-sdk/index.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { DENY_REASON, guardedProject, policyProject, USER_REASON } from './adapter-harness.ts';
import { claudeEnv, startAnthropicMock } from './differential-mocks.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';

/** The `tool_result` blocks of a Messages API request body, by tool_use id. */
const toolResults = (body: unknown) => {
  const parsed = z
    .object({
      messages: z.array(
        z.object({
          role: z.string(),
          content: z.union([
            z.string(),
            z.array(
              z.looseObject({
                type: z.string(),
                tool_use_id: z.string().optional(),
                content: z.unknown().optional(),
                is_error: z.boolean().optional(),
              }),
            ),
          ]),
        }),
      ),
    })
    .parse(body);
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const m of parsed.messages) {
    if (typeof m.content === 'string') continue;
    for (const block of m.content) {
      if (block.type !== 'tool_result' || block.tool_use_id === undefined) continue;
      results.set(block.tool_use_id, {
        text: JSON.stringify(block.content),
        isError: block.is_error === true,
      });
    }
  }
  return results;
};

describe('[AD-CAS-1] claudeAgentHooks with the real Claude Agent SDK and its Claude Code', () => {
  it('a denied Bash never runs and the model is told the reason; an allowed one runs, with the env SessionStart set; each hook runs once, in hookwerk', async () => {
    const g = await guardedProject({ sessionStart: true });
    const envs: Array<{ env: Record<string, string>; event: string }> = [];
    const hooks = claudeAgentHooks(g.engine, { onEnv: (env, event) => envs.push({ env, event }) });
    // The events the engine has hooks for, but SessionStart: the SDK never raises it for callbacks.
    expect(Object.keys(hooks).sort()).toEqual(['PostToolUse', 'PreToolUse']);
    // [C-RUN-3] The host runs it, and hands its CLAUDE_ENV_FILE variables to Claude Code's process.
    const start = await claudeAgentSessionStart(g.engine, { cwd: g.project });
    expect(start.env).toEqual({ GREETING: 'hello from the hook' });

    const mock = await startAnthropicMock([
      {
        tools: [
          { name: 'Bash', input: { command: 'rm -rf ./scratch; touch denied.txt', description: 'clean' } },
          {
            name: 'Bash',
            input: { command: 'printf %s "$GREETING" > allowed.txt', description: 'make a file' },
          },
        ],
      },
      { text: 'Done.' },
    ]);
    const messages: Array<{ type: string; subtype?: string }> = [];
    try {
      for await (const message of query({
        prompt: 'Clean up, then make a file.',
        options: {
          cwd: g.project,
          // The SDK's Claude Code must not run .claude/settings.json itself: hookwerk does.
          settingSources: [],
          allowedTools: ['Bash'],
          maxTurns: 4,
          hooks,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: g.home,
            ...(await claudeEnv(mock.url)),
            ...start.env,
          },
        },
      })) {
        messages.push({
          type: message.type,
          ...('subtype' in message ? { subtype: String(message.subtype) } : {}),
        });
      }
    } finally {
      await mock.close();
    }
    await g.engine.drain();

    expect(messages.at(-1)).toEqual({ type: 'result', subtype: 'success' });
    expect(existsSync(path.join(g.project, 'denied.txt'))).toBe(false);
    expect(readFileSync(path.join(g.project, 'allowed.txt'), 'utf8')).toBe('hello from the hook');

    const main = mock.requests().filter((r) => r.kind === 'main');
    expect(main).toHaveLength(2);
    const results = toolResults(main[1]?.body);
    expect(results.get('toolu_diff_1')?.isError).toBe(true);
    expect(results.get('toolu_diff_1')?.text).toContain(DENY_REASON);
    expect(results.get('toolu_diff_2')?.isError).toBe(false);

    // Each call was put to the guard once (not a second time by the SDK's Claude Code), with
    // Claude Code's own input: its session, the project as cwd, the tool_use id.
    const pre = g.preInputs();
    expect(pre.map((i) => i.tool_use_id)).toEqual(['toolu_diff_1', 'toolu_diff_2']);
    expect(pre[0]).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', cwd: g.project });
    expect(pre[0]?.session_id).toEqual(expect.any(String));
    expect(g.postInputs().map((i) => i.tool_use_id)).toEqual(['toolu_diff_2']);
    expect(
      g.engine
        .runs({ event: 'PreToolUse' })
        .map((r) => r.outcome)
        .sort(),
    ).toEqual(['deny', 'ok']);
    expect(g.engine.runs({ event: 'SessionStart' })).toMatchObject([{ outcome: 'ok' }]);
    // No Setup / CwdChanged / FileChanged hook here: nothing else set variables.
    expect(envs).toEqual([]);
  }, 120_000);
});

describe('[AD-CAS-1] claudeAgentHooks: the options and the answers', () => {
  const decision = (d: Partial<AgentDecision>): AgentDecision => ({
    decision: 'allow',
    blocked: false,
    continue: true,
    runs: [],
    ...d,
  });
  const explicitAllow: RunRecord[] = [
    {
      hook: 'h',
      source: 'project',
      event: 'PreToolUse',
      outcome: 'ok',
      durationMs: 1,
      at: '',
      permission: 'allow',
    },
  ];

  it('knows every hook event of the SDK', () => {
    expect([...CLAUDE_AGENT_EVENTS].sort()).toEqual([...HOOK_EVENTS].sort());
  });

  it('answers in the SDK shape: no opinion is {}, a deny a permissionDecision with its reason, a rewrite updatedInput', () => {
    expect(claudeAgentAnswer('PreToolUse', decision({}))).toEqual({});
    expect(
      claudeAgentAnswer('PreToolUse', decision({ decision: 'deny', blocked: true, reason: 'no' })),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no',
      },
    });
    expect(
      claudeAgentAnswer(
        'PreToolUse',
        decision({ updatedInput: { command: 'ls' }, additionalContext: 'ctx', runs: explicitAllow }),
      ),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'ls' },
        additionalContext: 'ctx',
      },
    });
  });

  it('blocks, stops, messages and context on the other events; PermissionRequest its own decision', () => {
    expect(
      claudeAgentAnswer('Stop', decision({ decision: 'deny', blocked: true, reason: 'keep going' })),
    ).toEqual({
      decision: 'block',
      reason: 'keep going',
    });
    expect(
      claudeAgentAnswer(
        'UserPromptSubmit',
        decision({ continue: false, stopReason: 'halt', systemMessage: 'note' }),
      ),
    ).toEqual({ continue: false, stopReason: 'halt', systemMessage: 'note' });
    expect(claudeAgentAnswer('SessionStart', decision({ additionalContext: 'welcome' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'welcome' },
    });
    expect(
      claudeAgentAnswer(
        'PermissionRequest',
        decision({ permission: { behavior: 'deny', message: 'not this one', interrupt: true } }),
      ),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not this one', interrupt: true },
      },
    });
  });

  it('refuses an engine that does not read Claude Code events; takes the events, timeout and onFailure given', async () => {
    const lurus = await makeEngine(undefined, {
      projectDir: tempDir('hw-cas-'),
      home: tempDir('hw-cas-home-'),
    });
    expect(() => claudeAgentHooks(lurus)).toThrow(/gateDialect: 'claude'/);
    const g = await guardedProject();
    const hooks = claudeAgentHooks(g.engine, { events: ['Stop'], timeout: 5, onFailure: 'block' });
    expect(Object.keys(hooks)).toEqual(['Stop']);
    expect(hooks.Stop).toMatchObject([{ timeout: 5, onFailure: 'block' }]);
    // A callback answers through the engine: no Stop hook, so no objection.
    const callback = hooks.Stop?.[0]?.hooks[0];
    const answer = await callback?.(
      {
        hook_event_name: 'Stop',
        session_id: 's',
        transcript_path: '',
        cwd: g.project,
        stop_hook_active: false,
      },
      undefined,
      { signal: new AbortController().signal },
    );
    expect(answer).toEqual({});
  });
});

describe('[G-PERM-1] claudeAgentHooks over an engine of the policy dialect', () => {
  const preToolUse = (command: string, cwd: string) => ({
    hook_event_name: 'PreToolUse' as const,
    session_id: 's',
    transcript_path: '',
    cwd,
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
  });
  const signal = () => ({ signal: new AbortController().signal });

  it('a policy of permission rules alone is answered on PreToolUse: the SDK gets the deny and its rule', async () => {
    const p = await policyProject();
    const hooks = claudeAgentHooks(p.engine);
    expect(Object.keys(hooks)).toEqual(['PreToolUse']);
    const callback = hooks.PreToolUse?.[0]?.hooks[0];
    expect(await callback?.(preToolUse('rm --recursive --force /', p.project), 'toolu_1', signal())).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: USER_REASON,
      },
    });
    expect(await callback?.(preToolUse('ls', p.project), 'toolu_1', signal())).toEqual({});
  });

  it('[G-FAIL-1] a broken policy file: PreToolUse is answered, and denied with the file and cause', async () => {
    const home = tempDir('hw-cas-home-');
    mkdirSync(path.join(home, '.hookwerk'));
    writeFileSync(path.join(home, '.hookwerk', 'policy.json'), '{"permissions": {"deny": "Bash"}}');
    const project = tempDir('hw-cas-');
    const engine = await makeEngine(undefined, { projectDir: project, home, gateDialect: 'policy' });
    const hooks = claudeAgentHooks(engine);
    expect(Object.keys(hooks).sort()).toEqual(['PermissionRequest', 'PreToolUse']);
    const answer = await hooks.PreToolUse?.[0]?.hooks[0]?.(preToolUse('ls', project), 'toolu_1', signal());
    expect(answer).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringMatching(
          /^hookwerk: ~\/\.hookwerk\/policy\.json: \$\.permissions\.deny: .* — fix it, or check it with hookwerk validate$/,
        ),
      },
    });
  });
});
