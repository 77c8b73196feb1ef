/**
 * The Cursor dialect's answers and events, pure [A-CUR-1, C-OUT-1]: one run read as Cursor reads
 * it, the answers of one event merged in priority order, the event table and matched values.
 * (The same rules with real processes, files and the CLI: cursor-dialect.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { mergeCursorAnswers, NOT_JSON_BLOCKED, readCursorAnswer } from '../src/dialects/cursor/answer.ts';
import {
  CURSOR_EVENT_NAMES,
  CURSOR_EVENTS,
  cursorMatchField,
  cursorMatchTarget,
} from '../src/dialects/cursor/events.ts';
import { defaultEnterpriseFile } from '../src/dialects/cursor/source.ts';
import type { AgentAnswer } from '../src/dispatch/agent-answer.ts';
import type { ProcessResult } from '../src/runners/process-types.ts';

function proc(
  exitCode: number | null,
  stdout = '',
  stderr = '',
  extra: Partial<ProcessResult> = {},
): ProcessResult {
  return { kind: 'process', reason: 'exit', exitCode, signal: null, stdout, stderr, durationMs: 3, ...extra };
}

const read = (event: string, result: ProcessResult, failMode: 'open' | 'closed' = 'open', input = {}) =>
  readCursorAnswer(event, result, failMode, { input });
const json = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('[A-CUR-1] the event table', () => {
  it('[A-CUR-1] the 21 events of Cursor’s docs: 18 agent, 2 Tab, 1 app', () => {
    expect(CURSOR_EVENT_NAMES).toHaveLength(21);
    const groups = CURSOR_EVENT_NAMES.map((e) => CURSOR_EVENTS[e].group);
    expect(groups.filter((g) => g === 'agent')).toHaveLength(18);
    expect(groups.filter((g) => g === 'tab')).toHaveLength(2);
    expect(groups.filter((g) => g === 'app')).toHaveLength(1);
    const gates = CURSOR_EVENT_NAMES.filter((e) => CURSOR_EVENTS[e].gate).sort();
    expect(gates).toEqual(
      [
        'beforeMCPExecution',
        'beforeReadFile',
        'beforeShellExecution',
        'beforeSubmitPrompt',
        'beforeTabFileRead',
        'preToolUse',
        'subagentStart',
      ].sort(),
    );
  });

  it('[A-CUR-1] matched values: tool type, command text, subagent type, fixed tool types', () => {
    expect(cursorMatchTarget('preToolUse', { tool_name: 'Shell' })).toBe('Shell');
    expect(cursorMatchTarget('beforeShellExecution', { command: 'git status' })).toBe('git status');
    expect(cursorMatchTarget('subagentStart', { subagent_type: 'explore' })).toBe('explore');
    expect(cursorMatchTarget('beforeReadFile', { file_path: 'a' })).toBe('Read');
    expect(cursorMatchTarget('beforeTabFileRead', {})).toBe('TabRead');
    expect(cursorMatchTarget('afterFileEdit', {})).toBe('Write');
    expect(cursorMatchTarget('beforeSubmitPrompt', {})).toBe('UserPromptSubmit');
    expect(cursorMatchTarget('stop', {})).toBe('Stop');
    expect(cursorMatchTarget('sessionStart', { source: 'x' })).toBeUndefined();
    expect(cursorMatchTarget('PreToolUse', { tool_name: 'Bash' })).toBeUndefined();
    expect(cursorMatchField('beforeShellExecution')).toBe('command');
    expect(cursorMatchField('stop')).toBeUndefined();
  });

  it('[A-CUR-1] the enterprise file of each platform', () => {
    expect(defaultEnterpriseFile('linux')).toBe('/etc/cursor/hooks.json');
    expect(defaultEnterpriseFile('darwin')).toBe('/Library/Application Support/Cursor/hooks.json');
    expect(defaultEnterpriseFile('win32')).toBe('C:\\ProgramData\\Cursor\\hooks.json');
  });
});

describe('[A-CUR-1] one hook', () => {
  it('[A-CUR-1] JSON nested too deep is invalid: fail-open on gates, a block on preToolUse', () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    const shell = read('beforeShellExecution', proc(0, deep));
    expect(shell).toMatchObject({ failed: 'open', ending: { cause: 'invalid_answer' } });
    expect(shell.ending.reason).toMatch(/nested more than 64 levels/);
    expect(read('preToolUse', proc(0, deep))).toMatchObject({ block: true, reason: NOT_JSON_BLOCKED });
  });

  it('[A-CUR-1] a signal or the output limit is a failure: open, or closed with failClosed', () => {
    const killed = proc(null, '', '', { reason: 'signal', signal: 'SIGKILL' });
    expect(read('beforeMCPExecution', killed)).toMatchObject({ failed: 'open' });
    expect(read('beforeMCPExecution', killed, 'closed')).toMatchObject({
      block: true,
      failed: 'closed',
      reason: 'hook failed (killed by SIGKILL) and says failClosed',
    });
    const big = proc(null, '', '', { reason: 'output_limit', signal: 'SIGTERM' });
    expect(read('preToolUse', big)).toMatchObject({ failed: 'open' });
    // failClosed on an event that cannot refuse has nothing to close.
    expect(read('afterShellExecution', big, 'closed')).toMatchObject({ failed: 'open' });
    expect(read('afterShellExecution', big, 'closed').block).toBeUndefined();
  });

  it('[A-CUR-1] followup_message: loop_limit from the hook definition, null = no cap', () => {
    const out = proc(0, json({ followup_message: 'again' }));
    const hook = (limit: number | null | undefined) => ({
      kind: 'process' as const,
      ...(limit !== undefined ? { cursorLoopLimit: limit } : {}),
    });
    const run = (limit: number | null | undefined, loop_count: number) =>
      readCursorAnswer('stop', out, 'open', { hook: hook(limit), input: { loop_count } });
    expect(run(undefined, 4).block).toBe(true);
    expect(run(undefined, 5).block).toBeUndefined();
    expect(run(0, 0).block).toBeUndefined();
    expect(run(null, 10_000).block).toBe(true);
  });

  it('[A-CUR-1] the reason: agent_message, else user_message (an empty agent_message is none)', () => {
    const deny = (o: object) => read('beforeShellExecution', proc(0, json({ permission: 'deny', ...o })));
    expect(deny({ agent_message: 'for the model', user_message: 'for you' })).toMatchObject({
      reason: 'for the model',
      systemMessage: 'for you',
    });
    expect(deny({ agent_message: '', user_message: 'for you' }).reason).toBe('for you');
    expect(deny({}).reason).toBe('denied by hook (permission: "deny")');
  });

  it('[A-CUR-1] an empty followup_message or additional_context is nothing', () => {
    expect(read('stop', proc(0, json({ followup_message: '' }))).block).toBeUndefined();
    expect(read('sessionStart', proc(0, json({ additional_context: '' }))).additionalContext).toBeUndefined();
  });
});

describe('[A-CUR-1, C-OUT-1] several hooks', () => {
  const ok = (extra: Partial<AgentAnswer> = {}): AgentAnswer => ({
    ending: { outcome: 'ok', durationMs: 1 },
    ...extra,
  });

  it('[A-CUR-1] any deny blocks whatever order; reasons joined in priority order', () => {
    const merged = mergeCursorAnswers('beforeShellExecution', [
      ok({ permission: 'allow' }),
      ok({ block: true, permission: 'deny', reason: 'project: no' }),
      ok({ block: true, permission: 'deny', reason: 'user: no' }),
    ]);
    expect(merged).toMatchObject({ decision: 'deny', blocked: true, reason: 'project: no\nuser: no' });
  });

  it('[A-CUR-1] ask beats allow only where honoured; observe events never block', () => {
    const answers = [ok({ permission: 'allow' }), ok({ permission: 'ask', reason: 'sure?' })];
    expect(mergeCursorAnswers('beforeMCPExecution', answers)).toMatchObject({
      decision: 'ask',
      reason: 'sure?',
    });
    expect(mergeCursorAnswers('afterFileEdit', [ok({ block: true, permission: 'deny' })])).toMatchObject({
      decision: 'allow',
      blocked: false,
    });
  });

  it('[A-CUR-1] sessionStart env: the higher source wins a name both set', () => {
    const merged = mergeCursorAnswers('sessionStart', [
      ok({ hookSpecificOutput: { env: { A: 'enterprise' } } }),
      ok({ hookSpecificOutput: { env: { A: 'user', B: 'user' } } }),
    ]);
    expect(merged.env).toEqual({ A: 'enterprise', B: 'user' });
  });
});
