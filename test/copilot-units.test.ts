/**
 * The pieces of the copilot dialect [A-COP-1] and the shared options it added, one by one:
 * anchored matchers (compileAnchoredMatcher), the flat walk of Copilot's `hooks` maps
 * (walkAgentHooks `flat`), the two input forms, and how each way a run can end reads on
 * preToolUse / permissionRequest (only a timeout fails open). End to end: copilot-dialect.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigIssue } from '../src/core/issues.ts';
import { copilotStopsAfter, mergeCopilotAnswers, readCopilotAnswer } from '../src/dialects/copilot/answer.ts';
import { copilotEventOfKey } from '../src/dialects/copilot/events.ts';
import { compileAnchoredMatcher } from '../src/dialects/copilot/matcher.ts';
import {
  copilotInput,
  copilotToolName,
  vscodeInput,
  vscodeToolName,
} from '../src/dialects/copilot/payload.ts';
import type { ProcessResult } from '../src/runners/process-types.ts';
import { walkAgentHooks } from '../src/sources/agent-settings.ts';

const run = (over: Partial<ProcessResult>): ProcessResult => ({
  kind: 'process',
  reason: 'exit',
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  durationMs: 5,
  ...over,
});

describe('[A-COP-1] compileAnchoredMatcher', () => {
  it('[A-COP-1] is anchored as ^(?:…)$, alternation included', () => {
    const m = compileAnchoredMatcher('ba.h|view');
    expect(['bash', 'view', 'basheview', 'xbash', 'bas'].map((v) => m.test(v))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(compileAnchoredMatcher('bas').test('bash')).toBe(false);
    expect(compileAnchoredMatcher('edit|create').test('create')).toBe(true);
  });

  it('[A-COP-1, L-MATCH-4] an invalid or unsupported regex matches only exactly and says why', () => {
    const bad = compileAnchoredMatcher('ba(sh');
    expect(bad.error).toContain('not a valid regular expression');
    expect(bad.test('ba(sh')).toBe(true);
    expect(bad.test('bash')).toBe(false);
    const look = compileAnchoredMatcher('(?=b)bash');
    expect(look.error).toBeDefined();
    expect(look.test('bash')).toBe(false);
  });

  it('[A-COP-1] no pattern, or no value to test: matches', () => {
    expect(compileAnchoredMatcher(undefined).test('anything')).toBe(true);
    expect(compileAnchoredMatcher('bash').test(undefined)).toBe(true);
  });
});

describe('[A-COP-1] walkAgentHooks({ flat: true })', () => {
  it('[A-COP-1] flat entries and one group level; deeper nesting is skipped with a warning', () => {
    const warnings: ConfigIssue[] = [];
    const raws = walkAgentHooks(
      'f.json',
      {
        preToolUse: [
          { type: 'command', bash: 'a' },
          { matcher: 'bash', hooks: [{ type: 'command', bash: 'b' }, { hooks: [] }] },
        ],
      },
      ['hooks'],
      warnings,
      undefined,
      { flat: true },
    );
    expect(raws.map((r) => [Reflect.get(r.handler, 'bash'), r.matcher, r.at.join('/')])).toEqual([
      ['a', undefined, 'hooks/preToolUse/0'],
      ['b', 'bash', 'hooks/preToolUse/1/hooks/0'],
    ]);
    expect(warnings.map((w) => w.path)).toEqual(['$.hooks.preToolUse[1].hooks[1]']);
  });

  it("[C-SRC-3] without it, a flat entry is a group without hooks (Claude's shape), as before", () => {
    const warnings: ConfigIssue[] = [];
    expect(
      walkAgentHooks('f.json', { PreToolUse: [{ type: 'command', command: 'a' }] }, ['hooks'], warnings),
    ).toEqual([]);
    expect(warnings[0]?.message).toContain('must be a list of handlers');
  });
});

describe('[A-COP-1] the two input forms', () => {
  it('[A-COP-1] tool names: bash ↔ Bash, web_fetch ↔ WebFetch, MCP names unchanged', () => {
    expect(vscodeToolName('bash')).toBe('Bash');
    expect(vscodeToolName('web_fetch')).toBe('WebFetch');
    expect(vscodeToolName('github-mcp-server/list_issues')).toBe('github-mcp-server/list_issues');
    expect(copilotToolName('Bash')).toBe('bash');
    expect(copilotToolName('WebFetch')).toBe('web_fetch');
    expect(copilotToolName('bash')).toBe('bash');
  });

  it("[A-COP-1] event keys: camelCase Copilot's form, PascalCase and Claude names the VS Code form", () => {
    expect(copilotEventOfKey('preToolUse')).toEqual({ event: 'preToolUse', form: 'copilot' });
    expect(copilotEventOfKey('Stop')).toEqual({ event: 'agentStop', form: 'vscode' });
    expect(copilotEventOfKey('UserPromptSubmit')).toEqual({ event: 'userPromptSubmitted', form: 'vscode' });
    expect(copilotEventOfKey('beforeShellExecution')).toBeUndefined();
    expect(copilotEventOfKey('constructor')).toBeUndefined();
  });

  it('[A-COP-1] postToolUse toolResult ↔ tool_result, keys recased one level', () => {
    const input = copilotInput(
      'postToolUse',
      {
        toolName: 'bash',
        toolArgs: { command: 'ls' },
        toolResult: { resultType: 'success', textResultForLlm: 'x' },
      },
      { sessionId: 's', projectDir: '/p' },
    );
    expect(vscodeInput(input, 'PostToolUse')).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_result: { result_type: 'success', text_result_for_llm: 'x' },
    });
  });

  it('[A-COP-1] a NUL byte in sessionId or cwd is refused', () => {
    expect(() => copilotInput('preToolUse', { cwd: 'a\0b' }, { sessionId: 's', projectDir: '/p' })).toThrow(
      /NUL/,
    );
  });
});

describe("[A-COP-1] how a run's ending reads", () => {
  const endings: Array<[string, Partial<ProcessResult>]> = [
    ['a signal', { reason: 'signal', exitCode: null, signal: 'SIGKILL' }],
    ['too much output', { reason: 'output_limit', exitCode: null }],
    ['a launch failure', { reason: 'spawn_error', exitCode: null, error: 'ENOENT' }],
  ];
  it.each(endings)('[A-COP-1] preToolUse: %s denies (hook errored)', (_what, over) => {
    const a = readCopilotAnswer('preToolUse', run(over), 'open');
    expect(a).toMatchObject({ block: true, permission: 'deny', failed: 'closed' });
    expect(a.reason).toMatch(/^preToolUse hook errored \(/);
    expect(copilotStopsAfter('preToolUse', a)).toBe(true);
  });

  it('[A-COP-1] a timeout fails open; with failMode "closed" it denies', () => {
    const timeout = run({ reason: 'timeout', exitCode: null });
    expect(readCopilotAnswer('preToolUse', timeout, 'open')).toMatchObject({ failed: 'open' });
    expect(readCopilotAnswer('preToolUse', timeout, 'open').block).toBeUndefined();
    expect(readCopilotAnswer('preToolUse', timeout, 'closed')).toMatchObject({ block: true });
    expect(readCopilotAnswer('permissionRequest', timeout, 'open').permissionRequest).toBeUndefined();
  });

  it('[A-COP-1] events without control: a failure is no opinion', () => {
    for (const event of ['agentStop', 'sessionEnd', 'postToolUse'] as const) {
      const a = readCopilotAnswer(event, run({ exitCode: 1 }), 'open');
      expect(a.block).toBeUndefined();
      expect(a.failed).toBe('open');
    }
  });

  it('[A-COP-1] a wrong-typed field is dropped and named; an unknown permissionDecision is no opinion', () => {
    const a = readCopilotAnswer(
      'preToolUse',
      run({ stdout: '{"permissionDecision":"block","permissionDecisionReason":7}' }),
      'open',
    );
    expect(a.permission).toBeUndefined();
    expect(a.ending.reason).toContain(
      'ignored (wrong type or value): permissionDecision, permissionDecisionReason',
    );
  });

  it('[A-COP-1, C-OUT-1] merging: preToolUse asks without a deny; the last permissionRequest behavior wins', () => {
    const ask = readCopilotAnswer(
      'preToolUse',
      run({ stdout: '{"permissionDecision":"ask","permissionDecisionReason":"sure?"}' }),
      'open',
    );
    const allow = readCopilotAnswer('preToolUse', run({ stdout: '{"permissionDecision":"allow"}' }), 'open');
    expect(mergeCopilotAnswers('preToolUse', [allow, ask])).toMatchObject({
      decision: 'ask',
      blocked: false,
      reason: 'sure?',
    });
    const deny = readCopilotAnswer(
      'permissionRequest',
      run({ stdout: '{"behavior":"deny","message":"no"}' }),
      'open',
    );
    const yes = readCopilotAnswer('permissionRequest', run({ stdout: '{"behavior":"allow"}' }), 'open');
    expect(mergeCopilotAnswers('permissionRequest', [yes, deny])).toMatchObject({
      decision: 'deny',
      reason: 'no',
    });
    expect(mergeCopilotAnswers('permissionRequest', [deny, yes])).toMatchObject({ decision: 'allow' });
  });
});
