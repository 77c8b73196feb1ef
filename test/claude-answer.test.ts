/**
 * The Claude Code dialect's answers, pure [§5]: the event table [C-EV-1, C-MATCH-1, C-RUN-3,
 * C-ANS-1], one run read as an answer [C-ANS-1..3, C-RUN-4], and the answers of one event merged
 * in configuration order [C-ANS-4, C-OUT-1].
 */
import { describe, expect, it } from 'vitest';
import { mergeClaudeAnswers, readClaudeAnswer } from '../src/dialects/agent/claude-answer.ts';
import {
  CLAUDE_EVENT_NAMES,
  CLAUDE_EVENTS,
  claudeCanBlock,
  claudeGetsEnvFile,
  claudeMatchField,
  claudeMatchTarget,
  claudePlainTextIsContext,
  claudeSendsPermissionMode,
  isDocumentedClaudeEvent,
} from '../src/dialects/agent/claude-events.ts';
import type { AgentAnswer } from '../src/dispatch/agent-answer.ts';
import type { HttpResult } from '../src/runners/http-types.ts';
import type { ProcessResult } from '../src/runners/process-types.ts';
import type { InProcessResult } from '../src/runners/run-result.ts';

function proc(
  exitCode: number | null,
  stdout = '',
  stderr = '',
  extra: Partial<ProcessResult> = {},
): ProcessResult {
  return {
    kind: 'process',
    reason: 'exit',
    exitCode,
    signal: null,
    stdout,
    stderr,
    durationMs: 12.5,
    ...extra,
  };
}

function json(value: unknown, exitCode = 0, stderr = ''): ProcessResult {
  return proc(exitCode, `${JSON.stringify(value)}\n`, stderr);
}

function http(status: number | undefined, body = '', extra: Partial<HttpResult> = {}): HttpResult {
  return { kind: 'http', reason: 'response', status, body, durationMs: 3, ...extra };
}

function pre(value: unknown): ProcessResult {
  return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...(value as object) } });
}

const read = (
  event: string,
  r: Parameters<typeof readClaudeAnswer>[1],
  failMode: 'open' | 'closed' = 'open',
) => readClaudeAnswer(event, r, failMode);

// ---------------------------------------------------------------------------------------------

describe('[C-EV-1, C-MATCH-1] the Claude Code event table', () => {
  it('[C-EV-1] lists the 31 documented events', () => {
    expect(CLAUDE_EVENT_NAMES).toHaveLength(31);
    expect(Object.keys(CLAUDE_EVENTS)).toHaveLength(31);
    expect(isDocumentedClaudeEvent('PreToolUse')).toBe(true);
    expect(isDocumentedClaudeEvent('BeforeTool')).toBe(false);
    expect(isDocumentedClaudeEvent('constructor')).toBe(false);
    expect(isDocumentedClaudeEvent('__proto__')).toBe(false);
  });

  it('[C-EV-1] exactly the listed events can block; the others and unknown ones never do', () => {
    const blocking = [
      'PreToolUse',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'Stop',
      'SubagentStop',
      'PreCompact',
      'ConfigChange',
      'TaskCreated',
      'TaskCompleted',
      'TeammateIdle',
      'UserPromptExpansion',
      'PostToolBatch',
    ];
    expect(CLAUDE_EVENT_NAMES.filter(claudeCanBlock).sort()).toEqual([...blocking].sort());
    for (const e of ['PermissionRequest', 'SessionStart', 'Notification', 'WorktreeCreate', 'Elicitation'])
      expect(claudeCanBlock(e), e).toBe(false);
    expect(claudeCanBlock('MyOwnEvent')).toBe(false);
    expect(claudeCanBlock('toString')).toBe(false);
  });

  it('[C-MATCH-1] each event tests its matcher against its own field', () => {
    const fields: Record<string, string> = {
      PreToolUse: 'tool_name',
      PostToolUse: 'tool_name',
      PostToolUseFailure: 'tool_name',
      PermissionRequest: 'tool_name',
      PermissionDenied: 'tool_name',
      SessionStart: 'source',
      ConfigChange: 'source',
      PreCompact: 'trigger',
      PostCompact: 'trigger',
      Setup: 'trigger',
      Notification: 'notification_type',
      SessionEnd: 'reason',
      SubagentStart: 'agent_type',
      SubagentStop: 'agent_type',
      StopFailure: 'error',
    };
    for (const e of CLAUDE_EVENT_NAMES) expect(claudeMatchField(e), e).toBe(fields[e]);
    expect(claudeMatchField('Unknown')).toBeUndefined();
  });

  it('[C-MATCH-1] the match target is the field when it is a string; else none (matcher ignored)', () => {
    expect(claudeMatchTarget('PreToolUse', { tool_name: 'Bash', source: 'x' })).toBe('Bash');
    expect(claudeMatchTarget('SessionStart', { source: 'compact', tool_name: 'Bash' })).toBe('compact');
    expect(claudeMatchTarget('SessionEnd', { reason: 'logout' })).toBe('logout');
    expect(claudeMatchTarget('PreToolUse', { tool_name: 7 })).toBeUndefined();
    expect(claudeMatchTarget('PreToolUse', {})).toBeUndefined();
    expect(claudeMatchTarget('Stop', { tool_name: 'Bash', trigger: 'x' })).toBeUndefined();
    expect(claudeMatchTarget('Unknown', { tool_name: 'Bash' })).toBeUndefined();
  });

  it('[C-IN-1] permission_mode is on the events whose input Claude Code 2.1 builds with it, not on SessionStart', () => {
    expect(CLAUDE_EVENT_NAMES.filter(claudeSendsPermissionMode).sort()).toEqual(
      [
        'PreToolUse',
        'PostToolUse',
        'PostToolUseFailure',
        'PostToolBatch',
        'PermissionRequest',
        'PermissionDenied',
        'UserPromptSubmit',
        'UserPromptExpansion',
        'Stop',
        'SubagentStop',
        'TeammateIdle',
        'TaskCreated',
        'TaskCompleted',
        'Elicitation',
        'ElicitationResult',
      ].sort(),
    );
    for (const e of ['SessionStart', 'SessionEnd', 'Setup', 'Notification', 'PreCompact', 'MyOwnEvent'])
      expect(claudeSendsPermissionMode(e), e).toBe(false);
  });

  it('[C-RUN-3] SessionStart, Setup, CwdChanged, FileChanged get CLAUDE_ENV_FILE', () => {
    expect(CLAUDE_EVENT_NAMES.filter(claudeGetsEnvFile).sort()).toEqual(
      ['CwdChanged', 'FileChanged', 'SessionStart', 'Setup'].sort(),
    );
    expect(claudeGetsEnvFile('Unknown')).toBe(false);
  });

  it('[C-ANS-1] plain stdout is context on UserPromptSubmit, UserPromptExpansion, SessionStart only', () => {
    expect(CLAUDE_EVENT_NAMES.filter(claudePlainTextIsContext).sort()).toEqual(
      ['SessionStart', 'UserPromptExpansion', 'UserPromptSubmit'].sort(),
    );
    expect(claudePlainTextIsContext('Unknown')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------

describe('[C-ANS-1] exit 0', () => {
  it('[C-ANS-1] empty stdout is no objection, not an error', () => {
    const a = read('PreToolUse', proc(0, '', 'debug noise\n'));
    expect(a.block).toBeUndefined();
    expect(a.permission).toBeUndefined();
    expect(a.failed).toBeUndefined();
    expect(a.ending).toEqual({ outcome: 'ok', durationMs: 12.5, exitCode: 0, stderrTail: 'debug noise\n' });
  });

  it('[C-ANS-3] {} and {"continue": true} are no objection', () => {
    for (const out of [{}, { continue: true }]) {
      const a = read('PreToolUse', json(out));
      expect(a.block, JSON.stringify(out)).toBeUndefined();
      expect(a.ending.outcome).toBe('ok');
      expect(a.ending.cause).toBeUndefined();
    }
    expect(read('Stop', json({ continue: true })).continue).toBe(true);
  });

  it('[C-ANS-1] leading whitespace before { is still JSON', () => {
    const a = read('UserPromptSubmit', proc(0, '\n   {"decision":"block","reason":"no"}\n'));
    expect(a.block).toBe(true);
    expect(a.reason).toBe('no');
  });

  it('[C-ANS-1] plain text becomes additionalContext on UserPromptSubmit, SessionStart, UserPromptExpansion', () => {
    for (const e of ['UserPromptSubmit', 'SessionStart', 'UserPromptExpansion']) {
      const a = read(e, proc(0, 'Today is Friday.\n'));
      expect(a.additionalContext, e).toBe('Today is Friday.');
      expect(a.ending.outcome).toBe('ok');
      expect(a.block).toBeUndefined();
    }
  });

  it('[C-ANS-1] plain text on PreToolUse is only recorded (no context, no decision)', () => {
    const a = read('PreToolUse', proc(0, 'checking…\n{"decision":"block"}\n'));
    expect(a.additionalContext).toBeUndefined();
    expect(a.block).toBeUndefined();
    expect(a.permission).toBeUndefined();
    expect(a.ending.outcome).toBe('ok');
    expect(a.ending.cause).toBeUndefined();
    expect(a.ending.reason).toContain('checking');
  });

  it('[C-ANS-1] stdout starting with { that is not JSON is a recorded non-blocking error (invalid_answer)', () => {
    const a = read('PreToolUse', proc(0, '{"decision": "block",}'));
    expect(a.block).toBeUndefined();
    expect(a.failed).toBe('open');
    expect(a.ending.outcome).toBe('error');
    expect(a.ending.cause).toBe('invalid_answer');
    expect(a.ending.exitCode).toBe(0);
  });

  it('[C-RUN-4] invalid JSON under failMode closed blocks (a closed guard that answers garbage)', () => {
    const a = read('PreToolUse', proc(0, '{oops'), 'closed');
    expect(a.block).toBe(true);
    expect(a.failed).toBe('closed');
    expect(a.ending.cause).toBe('invalid_answer');
  });
});

describe('[C-ANS-3] JSON output', () => {
  it('[C-ANS-3] {"decision":"approve"} on PreToolUse is the old form of allow', () => {
    const a = read('PreToolUse', json({ decision: 'approve', reason: 'fine' }));
    expect(a.permission).toBe('allow');
    expect(a.permissionReason).toBe('fine');
    expect(a.block).toBeUndefined();
    expect(a.ending.outcome).toBe('ok');
  });

  it('[C-ANS-3] {"decision":"approve"} elsewhere is no objection', () => {
    const a = read('Stop', json({ decision: 'approve' }));
    expect(a.block).toBeUndefined();
    expect(a.permission).toBeUndefined();
  });

  it('[C-ANS-3] {"decision":"block","reason":"r"} blocks where the event can block', () => {
    for (const e of ['Stop', 'UserPromptSubmit', 'PostToolUse', 'SubagentStop', 'PreCompact']) {
      const a = read(e, json({ decision: 'block', reason: 'r' }));
      expect(a.block, e).toBe(true);
      expect(a.reason).toBe('r');
      expect(a.ending.outcome).toBe('deny');
      expect(a.ending.reason).toBe('r');
    }
  });

  it('[C-ANS-3] {"decision":"block"} on PreToolUse is the old form of deny', () => {
    const a = read('PreToolUse', json({ decision: 'block', reason: 'r' }));
    expect(a.permission).toBe('deny');
    expect(a.block).toBe(true);
    expect(a.reason).toBe('r');
  });

  it('[C-EV-1] {"decision":"block"} on an event that cannot block is recorded, not blocking', () => {
    const a = read('SessionStart', json({ decision: 'block', reason: 'r', systemMessage: 'hi' }));
    expect(a.block).toBeUndefined();
    expect(a.systemMessage).toBe('hi');
    expect(a.failed).toBe('open');
    expect(a.ending.outcome).toBe('error');
    expect(a.ending.cause).toBe('block_ignored');
    expect(a.ending.reason).toContain('SessionStart cannot block');
  });

  for (const [decision, outcome] of [
    ['deny', 'deny'],
    ['allow', 'ok'],
    ['ask', 'ok'],
    ['defer', 'ok'],
  ] as const) {
    it(`[C-ANS-3] PreToolUse permissionDecision "${decision}" with its reason`, () => {
      const a = read(
        'PreToolUse',
        pre({ permissionDecision: decision, permissionDecisionReason: `why ${decision}` }),
      );
      expect(a.permission).toBe(decision);
      expect(a.permissionReason).toBe(`why ${decision}`);
      expect(a.block).toBe(decision === 'deny' ? true : undefined);
      expect(a.reason).toBe(decision === 'deny' ? 'why deny' : undefined);
      expect(a.ending.outcome).toBe(outcome);
      expect(a.ending.reason).toBe(`why ${decision}`);
    });
  }

  it('[C-ANS-3] permissionDecision wins over the old top-level decision', () => {
    const a = read(
      'PreToolUse',
      json({
        decision: 'block',
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
      }),
    );
    expect(a.permission).toBe('allow');
    expect(a.block).toBeUndefined();
  });

  it('[C-ANS-3] updatedInput, additionalContext, systemMessage, suppressOutput, continue/stopReason', () => {
    const a = read(
      'PreToolUse',
      json({
        continue: false,
        stopReason: 'enough',
        systemMessage: 'careful',
        suppressOutput: true,
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { command: 'ls -la' },
          additionalContext: 'ctx',
        },
      }),
    );
    expect(a).toMatchObject({
      continue: false,
      stopReason: 'enough',
      systemMessage: 'careful',
      suppressOutput: true,
      permission: 'allow',
      updatedInput: { command: 'ls -la' },
      additionalContext: 'ctx',
    });
  });

  it('[C-ANS-3] PermissionRequest decision.behavior, updatedInput, message, interrupt', () => {
    const allow = read(
      'PermissionRequest',
      json({
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'allow', updatedInput: { file_path: '/x' } },
        },
      }),
    );
    expect(allow.permissionRequest).toEqual({ behavior: 'allow', updatedInput: { file_path: '/x' } });
    expect(allow.ending.outcome).toBe('ok');
    expect(allow.block).toBeUndefined();

    const deny = read(
      'PermissionRequest',
      json({
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'deny', message: 'not here', interrupt: true },
        },
      }),
    );
    expect(deny.permissionRequest).toEqual({ behavior: 'deny', message: 'not here', interrupt: true });
    expect(deny.ending.outcome).toBe('deny');
    expect(deny.ending.reason).toBe('not here');
    expect(deny.block).toBeUndefined(); // PermissionRequest cannot block [C-EV-1]
  });

  it('[C-ANS-3] unknown fields are ignored; wrong-typed known fields are ignored, not fatal', () => {
    const a = read(
      'PreToolUse',
      json({
        whatever: 1,
        continue: 'no',
        systemMessage: 42,
        decision: 'deny',
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 7,
          updatedInput: ['not', 'an', 'object'],
          additionalContext: 'still read',
        },
      }),
    );
    expect(a.continue).toBeUndefined();
    expect(a.systemMessage).toBeUndefined();
    expect(a.updatedInput).toBeUndefined();
    expect(a.additionalContext).toBe('still read');
    expect(a.permission).toBe('deny');
    expect(a.block).toBe(true);
    expect(a.ending.reason).toContain('ignored: continue, systemMessage, decision');
    expect(a.ending.reason).toContain('hookSpecificOutput.updatedInput');
  });

  it('[C-ANS-3] null fields are treated as absent; updatedInput keeps its keys exactly', () => {
    const a = read(
      'PreToolUse',
      proc(
        0,
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":null,"additionalContext":null,' +
          '"updatedInput":{"command":"x","__proto__":{"polluted":true}}}}',
      ),
    );
    expect(a.permission).toBeUndefined();
    expect(a.additionalContext).toBeUndefined();
    expect(a.ending.reason).toBeUndefined();
    expect(Object.keys(a.updatedInput ?? {})).toEqual(['command', '__proto__']);
    expect(Reflect.get(a.updatedInput ?? {}, 'polluted')).toBeUndefined();
    // An in-process object reaches the tool as the very same object (no copy).
    const input = { command: 'y' };
    const b = read('PreToolUse', {
      kind: 'in-process',
      reason: 'returned',
      value: {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: input },
      },
      durationMs: 0,
    });
    expect(b.updatedInput).toBe(input);
  });

  it('[C-ANS-3] hookSpecificOutput for another event makes the whole output invalid: a recorded non-blocking error', () => {
    const a = read(
      'PreToolUse',
      json({
        systemMessage: 'not shown',
        hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' },
      }),
    );
    expect(a.permission).toBeUndefined();
    expect(a.block).toBeUndefined();
    expect(a.systemMessage).toBeUndefined();
    expect(a.failed).toBe('open');
    expect(a.ending).toMatchObject({ outcome: 'error', cause: 'invalid_answer', exitCode: 0 });
    expect(a.ending.reason).toContain('hookEventName is "PostToolUse", not "PreToolUse"');
  });

  it('[C-ANS-3] a missing hookEventName makes the whole output invalid, like a wrong one: the tool runs', () => {
    const deny = { permissionDecision: 'deny', permissionDecisionReason: 'DENYNOEV' };
    const a = read('PreToolUse', json({ continue: false, hookSpecificOutput: deny }));
    expect(a.permission).toBeUndefined();
    expect(a.block).toBeUndefined();
    expect(a.continue).toBeUndefined();
    expect(a.failed).toBe('open');
    expect(a.ending).toMatchObject({ outcome: 'error', cause: 'invalid_answer' });
    expect(a.ending.reason).toBe('JSON output is invalid: hookSpecificOutput.hookEventName is missing');
    expect(mergeClaudeAnswers('PreToolUse', [a])).toMatchObject({ decision: 'allow', blocked: false });
    // Not a string, or null: the same.
    for (const hookEventName of [7, null])
      expect(read('PreToolUse', json({ hookSpecificOutput: { ...deny, hookEventName } })).ending.cause).toBe(
        'invalid_answer',
      );
    // The same for an HTTP body and an in-process object.
    expect(read('PreToolUse', http(200, JSON.stringify({ hookSpecificOutput: deny }))).failed).toBe('open');
    const inProcess = read('PreToolUse', {
      kind: 'in-process',
      reason: 'returned',
      value: { hookSpecificOutput: deny },
      durationMs: 0,
    });
    expect(inProcess).toMatchObject({ failed: 'open', ending: { cause: 'invalid_answer' } });
  });

  it('[C-ANS-3] with failMode "closed" an output missing hookEventName, or naming another event, is a denial', () => {
    const missing = read(
      'PreToolUse',
      json({ hookSpecificOutput: { permissionDecision: 'allow' } }),
      'closed',
    );
    expect(missing).toMatchObject({ block: true, permission: 'deny', failed: 'closed' });
    expect(missing.reason).toContain('hookSpecificOutput.hookEventName is missing');
    const wrong = read(
      'Stop',
      json({ hookSpecificOutput: { hookEventName: 'SubagentStop', additionalContext: 'x' } }),
      'closed',
    );
    expect(wrong).toMatchObject({ block: true, failed: 'closed' });
    expect(mergeClaudeAnswers('PreToolUse', [missing])).toMatchObject({ decision: 'deny', blocked: true });
    // An event that cannot block has nothing to close.
    const notify = read('Notification', json({ hookSpecificOutput: {} }), 'closed');
    expect(notify).toMatchObject({ failed: 'open', ending: { cause: 'invalid_answer' } });
    expect(notify.block).toBeUndefined();
  });

  it('[C-ANS-3] PreToolUse fields are not read on other events', () => {
    const a = read(
      'PostToolUse',
      json({
        hookSpecificOutput: {
          hookEventName: 'PostToolUse',
          permissionDecision: 'deny',
          additionalContext: 'c',
        },
      }),
    );
    expect(a.permission).toBeUndefined();
    expect(a.block).toBeUndefined();
    expect(a.additionalContext).toBe('c');
  });
});

describe('[C-ANS-2] exit 2 and other exit codes', () => {
  it('[C-ANS-2] exit 2 blocks even when the JSON says allow', () => {
    const a = read(
      'PreToolUse',
      json(
        {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            updatedInput: { command: 'rm -rf /' },
          },
        },
        2,
        'no way\n',
      ),
    );
    expect(a.block).toBe(true);
    expect(a.permission).toBe('deny');
    expect(a.updatedInput).toBeUndefined();
    expect(a.reason).toBe('no way');
    expect(a.ending).toMatchObject({ outcome: 'deny', exitCode: 2, reason: 'no way' });
    expect(a.ending.cause).toBeUndefined();
  });

  it('[C-ANS-2] exit 2: stdout is ignored, the reason is stderr trimmed', () => {
    expect(read('Stop', json({ reason: 'keep going' }, 2, 'stderr')).reason).toBe('stderr');
    const pdr = json(
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecisionReason: 'pdr' } },
      2,
      ' e \n',
    );
    expect(read('PreToolUse', pdr)).toMatchObject({ reason: 'e', permissionReason: 'e' });
    const allow = json(
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          permissionDecisionReason: 'JSONALLOW',
        },
      },
      2,
      'EXIT2STDERR',
    );
    expect(read('PreToolUse', allow)).toMatchObject({
      block: true,
      permission: 'deny',
      reason: 'EXIT2STDERR',
    });
    expect(read('Stop', proc(2, 'plain stdout', '  line one\nline two \n')).reason).toBe(
      'line one\nline two',
    );
    expect(read('Stop', proc(2)).reason).toBe('blocked by hook (exit 2)');
  });

  it('[C-ANS-2] exit 2 with invalid JSON still blocks, reason from stderr', () => {
    const a = read('UserPromptSubmit', proc(2, '{bad', 'secret found'));
    expect(a.block).toBe(true);
    expect(a.reason).toBe('secret found');
  });

  it('[C-ANS-2] exit 2 keeps the JSON’s context and systemMessage, not `continue` (as Claude Code 2.1.197, differential pre-exit2-json-context / -continue)', () => {
    const a = read(
      'Stop',
      json(
        {
          systemMessage: 'sm',
          continue: false,
          stopReason: 'sr',
          hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'c' },
        },
        2,
        'e',
      ),
    );
    expect(a).toEqual({
      ending: { outcome: 'deny', exitCode: 2, durationMs: 12.5, reason: 'e', stderrTail: 'e' },
      block: true,
      reason: 'e',
      additionalContext: 'c',
      systemMessage: 'sm',
    });
    // JSON that is not valid output (no hookEventName) makes the exit 2 a non-blocking error
    // (differential pre-exit2-json-noevent: Claude Code runs the tool); closed, it blocks.
    const invalid = read('PreToolUse', json({ hookSpecificOutput: { permissionDecision: 'deny' } }, 2, 'x'));
    expect(invalid.block).toBeUndefined();
    expect(invalid.ending).toMatchObject({ outcome: 'error', cause: 'invalid_answer' });
    expect(
      readClaudeAnswer('PreToolUse', proc(2, JSON.stringify({ hookSpecificOutput: {} }), 'x'), 'closed'),
    ).toMatchObject({ block: true, failed: 'closed' });
    // A JSON deny's own reason wins over stderr (pre-exit2-json-deny); an allow's does not.
    const deny = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'J' };
    expect(read('PreToolUse', json({ hookSpecificOutput: deny }, 2, 'x'))).toMatchObject({
      block: true,
      reason: 'J',
    });
    expect(read('PreToolUse', json({ decision: 'block', reason: 'B' }, 2, 'x'))).toMatchObject({
      reason: 'B',
    });
    const allow = { ...deny, permissionDecision: 'allow' };
    expect(read('PreToolUse', json({ hookSpecificOutput: allow }, 2, 'x'))).toMatchObject({
      block: true,
      reason: 'x',
    });
  });

  it('[C-EV-1] exit 2 on an event that cannot block is recorded as an error (exit_2_ignored), not a block', () => {
    const a = read('Notification', proc(2, '', 'nope\nmore'));
    expect(a.block).toBeUndefined();
    expect(a.reason).toBeUndefined();
    expect(a.failed).toBe('open');
    expect(a.ending).toMatchObject({ outcome: 'error', cause: 'exit_2_ignored', exitCode: 2 });
    expect(a.ending.reason).toBe('exit 2 ignored: Notification cannot block (nope)');
    expect(read('PermissionRequest', proc(2), 'closed').block).toBeUndefined();
    expect(read('SomeUnknownEvent', proc(2)).ending.cause).toBe('exit_2_ignored');
  });

  it('[C-ANS-2] exit 1 is a non-blocking error whose reason is the first stderr line', () => {
    const a = read('PreToolUse', proc(1, 'not json', '\n  boom  \nstack…\n'));
    expect(a.block).toBeUndefined();
    expect(a.failed).toBe('open');
    expect(a.ending).toMatchObject({ outcome: 'error', cause: 'exit_code', exitCode: 1, reason: 'boom' });
  });

  it('[C-ANS-2] exit 127 (missing script) is a non-blocking error; under failMode closed it blocks', () => {
    const open = read('PreToolUse', proc(127, '', 'sh: 1: ./guard.sh: not found\n'));
    expect(open.block).toBeUndefined();
    expect(open.ending).toMatchObject({ outcome: 'error', cause: 'exit_code', exitCode: 127 });
    expect(open.ending.reason).toBe('sh: 1: ./guard.sh: not found');
    expect(read('PreToolUse', proc(127)).ending.reason).toContain('127');

    const closed = read('PreToolUse', proc(127, '', 'sh: 1: ./guard.sh: not found\n'), 'closed');
    expect(closed.block).toBe(true);
    expect(closed.permission).toBe('deny');
    expect(closed.failed).toBe('closed');
    expect(closed.reason).toContain('not found');
    expect(closed.ending.outcome).toBe('error');
  });

  it('[C-ANS-2] exit 1 with valid JSON stdout decides as on exit 0, and is not an error', () => {
    const a = read(
      'PreToolUse',
      json(
        {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'j',
          },
        },
        1,
        'warn',
      ),
    );
    expect(a.block).toBe(true);
    expect(a.permission).toBe('deny');
    expect(a.failed).toBeUndefined();
    expect(a.ending).toMatchObject({ outcome: 'deny', exitCode: 1, reason: 'j', stderrTail: 'warn' });
    expect(a.ending.cause).toBeUndefined();

    const illTyped = read('PreToolUse', json({ decision: 'deny' }, 1, 'oops'));
    expect(illTyped.block).toBeUndefined();
    expect(illTyped.ending).toMatchObject({ outcome: 'error', cause: 'exit_code', exitCode: 1 });
    expect(illTyped.ending.reason).toBe('oops; stdout JSON not valid output (decision)');

    const noEvent = read(
      'PreToolUse',
      json({ hookSpecificOutput: { permissionDecision: 'deny' } }, 1, 'oops'),
    );
    expect(noEvent.block).toBeUndefined();
    expect(noEvent.ending.reason).toBe(
      'oops; stdout JSON not valid output (JSON output is invalid: hookSpecificOutput.hookEventName is missing)',
    );

    const ok = read('PostToolUse', json({ systemMessage: 'fine' }, 3));
    expect(ok.ending.outcome).toBe('ok');
    expect(ok.ending.cause).toBeUndefined();
    expect(ok.systemMessage).toBe('fine');
  });

  it('[C-ANS-2] stderr is never parsed as JSON', () => {
    const a = read('PreToolUse', proc(0, '', '{"decision":"block","reason":"x"}'));
    expect(a.block).toBeUndefined();
    const b = read('PreToolUse', proc(1, '', '{"decision":"block","reason":"x"}'));
    expect(b.block).toBeUndefined();
    expect(b.ending.cause).toBe('exit_code');
  });
});

describe('[C-RUN-4] timeouts, spawn errors, signals, output limits', () => {
  const failures: Array<[string, ProcessResult, string, string]> = [
    ['timeout', proc(null, '', '', { reason: 'timeout', signal: 'SIGTERM' }), 'timeout', 'timeout'],
    [
      'spawn error',
      proc(null, '', '', { reason: 'spawn_error', error: 'spawn /nope ENOENT' }),
      'spawn_error',
      'spawn_error',
    ],
    ['signal', proc(null, '', '', { reason: 'signal', signal: 'SIGSEGV' }), 'error', 'signal'],
    [
      'output limit',
      proc(null, '{"decision":"block"', '', { reason: 'output_limit', signal: 'SIGTERM' }),
      'error',
      'output_limit',
    ],
  ];
  for (const [name, r, outcome, cause] of failures) {
    it(`[C-RUN-4] ${name}: no decision (allow), recorded with its cause`, () => {
      const a = read('PreToolUse', r);
      expect(a.block).toBeUndefined();
      expect(a.permission).toBeUndefined();
      expect(a.failed).toBe('open');
      expect(a.ending.outcome).toBe(outcome);
      expect(a.ending.cause).toBe(cause);
    });
    it(`[C-RUN-4] ${name} under failMode closed blocks, naming the failure`, () => {
      const a = read('PreToolUse', r, 'closed');
      expect(a.block).toBe(true);
      expect(a.failed).toBe('closed');
      expect(a.reason).toContain('failMode "closed"');
      expect(a.reason).toContain(a.ending.reason!);
      expect(a.ending.outcome).toBe(outcome);
      expect(a.ending.cause).toBe(cause);
    });
  }

  it('[C-RUN-4] failMode closed on an event that cannot block blocks nothing', () => {
    const a = read('SessionStart', proc(null, '', '', { reason: 'timeout', signal: 'SIGTERM' }), 'closed');
    expect(a.block).toBeUndefined();
    expect(a.failed).toBe('open');
  });

  it('[C-RUN-4] the ending of a failure is outcomeOf()’s, complete', () => {
    const a = read(
      'Stop',
      proc(null, '', 'partial\n', { reason: 'timeout', signal: 'SIGKILL', durationMs: 600_000 }),
    );
    expect(a.ending).toEqual({
      outcome: 'timeout',
      cause: 'timeout',
      reason: 'timed out; process group stopped',
      signal: 'SIGKILL',
      stderrTail: 'partial\n',
      durationMs: 600_000,
    });
  });
});

describe('[C-ANS-3] HTTP answers', () => {
  it('[C-ANS-3] 2xx with an empty body is no objection', () => {
    for (const body of ['', '  \n']) {
      const a = read('PreToolUse', http(204, body));
      expect(a.ending).toEqual({ outcome: 'ok', durationMs: 3, status: 204 });
      expect(a.block).toBeUndefined();
    }
  });

  it('[C-ANS-3] 2xx with a JSON body is read as stdout JSON', () => {
    const a = read(
      'PreToolUse',
      http(
        200,
        JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'h',
          },
        }),
      ),
    );
    expect(a.block).toBe(true);
    expect(a.reason).toBe('h');
    expect(a.ending).toMatchObject({ outcome: 'deny', status: 200 });
    expect(read('Stop', http(200, '{"decision":"block","reason":"more"}')).block).toBe(true);
  });

  it('[C-ANS-3] 2xx with a non-JSON body is a non-blocking error (invalid_answer)', () => {
    for (const body of ['ok', '[1]', '"deny"']) {
      const a = read('UserPromptSubmit', http(200, body));
      expect(a.block, body).toBeUndefined();
      expect(a.additionalContext).toBeUndefined();
      expect(a.ending).toMatchObject({ outcome: 'error', cause: 'invalid_answer', status: 200 });
    }
    expect(read('UserPromptSubmit', http(200, 'ok'), 'closed').block).toBe(true);
  });

  it('[C-ANS-3] a 500 is a non-blocking error (http_status), even with a blocking body', () => {
    const a = read('PreToolUse', http(500, '{"decision":"block"}'));
    expect(a.block).toBeUndefined();
    expect(a.ending).toMatchObject({ outcome: 'error', cause: 'http_status', status: 500 });
    expect(read('PreToolUse', http(500), 'closed').block).toBe(true);
  });

  it('[C-ANS-3] transport errors and timeouts are non-blocking errors', () => {
    const t = read('PreToolUse', http(undefined, '', { reason: 'transport', error: 'connect ECONNREFUSED' }));
    expect(t.ending).toMatchObject({ outcome: 'error', cause: 'transport', reason: 'connect ECONNREFUSED' });
    expect(t.block).toBeUndefined();
    expect(read('PreToolUse', http(undefined, '', { reason: 'timeout' })).ending.outcome).toBe('timeout');
  });
});

describe('[C-ANS-3] in-process answers', () => {
  const ip = (value: unknown, reason: InProcessResult['reason'] = 'returned'): InProcessResult => ({
    kind: 'in-process',
    reason,
    value,
    durationMs: 0.1,
    ...(reason === 'returned' ? {} : { error: 'boom' }),
  });

  it('[C-ANS-3] undefined is no objection; an object is the JSON output; a string is stdout', () => {
    expect(read('PreToolUse', ip(undefined)).ending).toEqual({ outcome: 'ok', durationMs: 0.1 });
    expect(read('Stop', ip({ decision: 'block', reason: 'r' })).block).toBe(true);
    expect(read('UserPromptSubmit', ip('context')).additionalContext).toBe('context');
    expect(read('PreToolUse', ip(42)).ending.cause).toBe('invalid_answer');
  });

  it('[C-RUN-4] a throw is a failure, closed blocks', () => {
    expect(read('PreToolUse', ip(undefined, 'threw')).ending).toMatchObject({
      outcome: 'error',
      cause: 'exception',
    });
    expect(read('PreToolUse', ip(undefined, 'timeout'), 'closed').block).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe('[C-ANS-4, C-OUT-1] merging, in configuration order', () => {
  const ending = { outcome: 'ok' as const, durationMs: 1 };
  const ans = (a: Partial<AgentAnswer>): AgentAnswer => ({ ending, ...a });

  it('[C-OUT-1] no answers: allow, not blocked, continue', () => {
    expect(mergeClaudeAnswers('PreToolUse', [])).toEqual({
      decision: 'allow',
      blocked: false,
      continue: true,
    });
  });

  it('[C-ANS-4] deny > defer > ask > allow, whatever the order', () => {
    const perms = ['allow', 'ask', 'defer', 'deny'] as const;
    const orders = [perms, [...perms].reverse(), ['ask', 'deny', 'allow', 'defer'] as const];
    for (const order of orders) {
      const answers = order.map((p) => read('PreToolUse', pre({ permissionDecision: p })));
      expect(mergeClaudeAnswers('PreToolUse', answers).decision).toBe('deny');
      const noDeny = answers.filter((a) => a.permission !== 'deny');
      expect(mergeClaudeAnswers('PreToolUse', noDeny).decision).toBe('defer');
      expect(
        mergeClaudeAnswers(
          'PreToolUse',
          noDeny.filter((a) => a.permission !== 'defer'),
        ).decision,
      ).toBe('ask');
      expect(
        mergeClaudeAnswers(
          'PreToolUse',
          noDeny.filter((a) => a.permission === 'allow'),
        ).decision,
      ).toBe('allow');
    }
  });

  it('[C-ANS-4] a permissionDecision deny blocks; blocked means decision deny with the blocking reasons', () => {
    const m = mergeClaudeAnswers('PreToolUse', [
      read('PreToolUse', pre({ permissionDecision: 'ask', permissionDecisionReason: 'asked' })),
      read('PreToolUse', pre({ permissionDecision: 'deny', permissionDecisionReason: 'first' })),
      read('PreToolUse', proc(2, '', 'second')),
      read('PreToolUse', pre({ permissionDecision: 'allow', permissionDecisionReason: 'ok' })),
    ]);
    expect(m.blocked).toBe(true);
    expect(m.decision).toBe('deny');
    expect(m.reason).toBe('first\nsecond');
  });

  it('[C-ANS-4] a hand-built deny without block still blocks on a blockable event', () => {
    const m = mergeClaudeAnswers('PreToolUse', [ans({ permission: 'deny', permissionReason: 'x' })]);
    expect(m).toMatchObject({ blocked: true, decision: 'deny', reason: 'x' });
  });

  it('[C-ANS-4] ask / defer: reason joins the reasons of the hooks that asked or deferred', () => {
    const ask = mergeClaudeAnswers('PreToolUse', [
      read('PreToolUse', pre({ permissionDecision: 'allow', permissionDecisionReason: 'a' })),
      read('PreToolUse', pre({ permissionDecision: 'ask', permissionDecisionReason: 'b' })),
      read('PreToolUse', pre({ permissionDecision: 'ask', permissionDecisionReason: 'c' })),
    ]);
    expect(ask).toMatchObject({ decision: 'ask', blocked: false, reason: 'b\nc' });
    const defer = mergeClaudeAnswers('PreToolUse', [
      read('PreToolUse', pre({ permissionDecision: 'ask', permissionDecisionReason: 'b' })),
      read('PreToolUse', pre({ permissionDecision: 'defer', permissionDecisionReason: 'd' })),
    ]);
    expect(defer).toMatchObject({ decision: 'defer', blocked: false, reason: 'b\nd' });
  });

  it('[C-ANS-4] updatedInput comes from the last hook in configuration order that gave one (not the last to finish)', () => {
    const first = read('PreToolUse', pre({ permissionDecision: 'allow', updatedInput: { command: 'one' } }));
    const second = read('PreToolUse', pre({ permissionDecision: 'allow', updatedInput: { command: 'two' } }));
    const none = read('PreToolUse', pre({ permissionDecision: 'ask' }));
    // Finish order would put `first` last; configuration order is what counts.
    first.ending.durationMs = 500;
    second.ending.durationMs = 1;
    expect(mergeClaudeAnswers('PreToolUse', [first, second, none]).updatedInput).toEqual({ command: 'two' });
    expect(mergeClaudeAnswers('PreToolUse', [second, first, none]).updatedInput).toEqual({ command: 'one' });
  });

  it('[C-ANS-4] every additionalContext and systemMessage, joined with \\n in configuration order', () => {
    const m = mergeClaudeAnswers('UserPromptSubmit', [
      read('UserPromptSubmit', proc(0, 'plain one\n')),
      read(
        'UserPromptSubmit',
        json({
          systemMessage: 's1',
          hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'two' },
        }),
      ),
      read('UserPromptSubmit', proc(1, '', 'failed')),
      read('UserPromptSubmit', json({ systemMessage: 's2' })),
    ]);
    expect(m.additionalContext).toBe('plain one\ntwo');
    expect(m.systemMessage).toBe('s1\ns2');
    expect(m.blocked).toBe(false);
    expect(m.decision).toBe('allow');
  });

  it('[C-ANS-4] continue:false if any hook said so, with the first stopReason in configuration order', () => {
    const m = mergeClaudeAnswers('PostToolUse', [
      read('PostToolUse', json({ continue: true, stopReason: 'ignored: continue is true' })),
      read('PostToolUse', json({ continue: false })),
      read('PostToolUse', json({ continue: false, stopReason: 'first' })),
      read('PostToolUse', json({ continue: false, stopReason: 'second' })),
    ]);
    expect(m.continue).toBe(false);
    expect(m.stopReason).toBe('first');
    expect(m.blocked).toBe(false);
  });

  it('[C-ANS-4] blocking reasons on a blockable event, in configuration order', () => {
    const m = mergeClaudeAnswers('Stop', [
      read('Stop', json({ decision: 'block', reason: 'tests fail' })),
      read('Stop', json({})),
      read('Stop', proc(2, '', 'lint fails')),
    ]);
    expect(m).toMatchObject({ decision: 'deny', blocked: true, reason: 'tests fail\nlint fails' });
  });

  it('[C-EV-1] nothing blocks on an event that cannot block, even hand-built blocks', () => {
    const m = mergeClaudeAnswers('Notification', [
      ans({ block: true, reason: 'x' }),
      ans({ permission: 'deny' }),
      read('Notification', proc(2, '', 'e')),
    ]);
    expect(m).toMatchObject({ decision: 'allow', blocked: false });
    expect(m.reason).toBeUndefined();
  });

  it('[C-RUN-4] a closed failure blocks; an open one does not', () => {
    const timeout = proc(null, '', '', { reason: 'timeout', signal: 'SIGTERM' });
    expect(mergeClaudeAnswers('PreToolUse', [read('PreToolUse', timeout)]).blocked).toBe(false);
    const m = mergeClaudeAnswers('PreToolUse', [read('PreToolUse', timeout, 'closed')]);
    expect(m.blocked).toBe(true);
    expect(m.reason).toContain('timed out');
  });

  it('[C-ANS-4] PermissionRequest: deny wins over allow; the merged behavior goes into permission', () => {
    const pr = (decision: object) =>
      read(
        'PermissionRequest',
        json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }),
      );
    const allowA = pr({ behavior: 'allow', updatedInput: { a: 1 } });
    const allowB = pr({ behavior: 'allow', updatedInput: { b: 2 } });
    const deny = pr({ behavior: 'deny', message: 'no', interrupt: true });
    const denied = mergeClaudeAnswers('PermissionRequest', [allowA, deny, allowB]);
    expect(denied.permission).toEqual({ behavior: 'deny', message: 'no', interrupt: true });
    expect(denied.decision).toBe('deny');
    expect(denied.blocked).toBe(false);
    expect(denied.reason).toBe('no');
    const allowed = mergeClaudeAnswers('PermissionRequest', [
      allowA,
      allowB,
      read('PermissionRequest', json({})),
    ]);
    expect(allowed.permission).toEqual({ behavior: 'allow', updatedInput: { b: 2 } });
    expect(allowed.decision).toBe('allow');
    expect(
      mergeClaudeAnswers('PermissionRequest', [read('PermissionRequest', json({}))]).permission,
    ).toBeUndefined();
  });
});
