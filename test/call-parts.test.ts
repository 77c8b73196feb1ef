/**
 * [C-ANS-4 across parts, R-MAP-1] One agent call that stands for several Claude calls (a Codex
 * patch's files): each part decided, the answers merged most restrictive first. A pure unit: a
 * decider that answers from a table, no engine.
 */
import { describe, expect, it } from 'vitest';
import type { ClaudeCall } from '../src/dialects/agent/hook-agent.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import { callParts, decideEachPart, MAX_CALL_PARTS, sharedToolName } from '../src/hook/call-parts.ts';
import type { PolicyQuestion } from '../src/hook/policy-decider.ts';

const part = (file: string, tool = 'Edit'): ClaudeCall => ({
  agentEvent: 'PreToolUse',
  event: 'PreToolUse',
  input: { tool_name: tool, tool_input: { command: 'PATCH', file_path: `/p/${file}` } },
  toolName: tool,
  subject: `apply_patch update ${file}`,
});
const call = (...parts: ClaudeCall[]): ClaudeCall => ({ ...parts[0]!, also: parts.slice(1) });
const ok = (over: Partial<AgentDecision> = {}): AgentDecision => ({
  decision: 'allow',
  blocked: false,
  continue: true,
  runs: [],
  ...over,
});

/** Decides each part by its file's answer; remembers which files were asked. */
function decider(answers: Record<string, AgentDecision>) {
  const asked: string[] = [];
  return {
    asked,
    decide: async (q: PolicyQuestion) => {
      const input = q.call.input.tool_input;
      const file =
        typeof input === 'object' && input !== null && 'file_path' in input ? String(input.file_path) : '';
      asked.push(file.slice(3));
      return answers[file.slice(3)] ?? ok();
    },
  };
}

const question = (c: ClaudeCall): PolicyQuestion => ({
  projectDir: '/p',
  home: '/h',
  agent: 'codex',
  env: {},
  call: c,
});

describe('[R-MAP-1] decideEachPart', () => {
  it('one part: the decision as it came, untouched', async () => {
    const d = decider({ 'a.ts': ok({ decision: 'deny', blocked: true, reason: 'no' }) });
    expect(await decideEachPart(d, question(part('a.ts')))).toEqual(
      ok({ decision: 'deny', blocked: true, reason: 'no' }),
    );
  });

  it('any deny denies, naming its part; the parts after it are not asked', async () => {
    const d = decider({ '.env': ok({ decision: 'deny', blocked: true, reason: 'secrets' }) });
    const merged = await decideEachPart(d, question(call(part('a.ts'), part('.env'), part('c.ts'))));
    expect(merged).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'apply_patch update .env: secrets',
    });
    expect(d.asked).toEqual(['a.ts', '.env']);
  });

  it('an ask of one part is the ask of the call; contexts are each kept once', async () => {
    const d = decider({
      'a.ts': ok({ additionalContext: 'lint it' }),
      'b.ts': ok({ decision: 'ask', reason: 'sure?', additionalContext: 'lint it' }),
    });
    expect(await decideEachPart(d, question(call(part('a.ts'), part('b.ts'))))).toEqual(
      ok({ decision: 'ask', reason: 'apply_patch update b.ts: sure?', additionalContext: 'lint it' }),
    );
  });

  it('a rewrite that changes every part the same way stands; one that differs, or misses a part, denies', async () => {
    const same = (file: string) => ok({ updatedInput: { command: 'NEW', file_path: `/p/${file}` } });
    const both = decider({ 'a.ts': same('a.ts'), 'b.ts': same('b.ts') });
    expect((await decideEachPart(both, question(call(part('a.ts'), part('b.ts'))))).updatedInput).toEqual({
      command: 'NEW',
      file_path: '/p/a.ts',
    });
    const one = decider({ 'b.ts': same('b.ts') });
    expect(await decideEachPart(one, question(call(part('a.ts'), part('b.ts'))))).toMatchObject({
      blocked: true,
      reason: expect.stringMatching(/^apply_patch update b\.ts: .*cannot be rewritten in part/),
    });
  });

  it('PermissionRequest: allowed only when every part is; a deny of one part denies', async () => {
    const allow = ok({ permission: { behavior: 'allow' } });
    const d1 = decider({ 'a.ts': allow });
    expect((await decideEachPart(d1, question(call(part('a.ts'), part('b.ts'))))).permission).toBeUndefined();
    const d2 = decider({ 'a.ts': allow, 'b.ts': allow });
    expect((await decideEachPart(d2, question(call(part('a.ts'), part('b.ts'))))).permission).toEqual({
      behavior: 'allow',
    });
    const d3 = decider({
      'a.ts': allow,
      'b.ts': ok({ decision: 'deny', permission: { behavior: 'deny', message: 'no' } }),
    });
    expect(await decideEachPart(d3, question(call(part('a.ts'), part('b.ts'))))).toMatchObject({
      decision: 'deny',
      blocked: false,
      permission: { behavior: 'deny', message: 'apply_patch update b.ts: no' },
    });
  });

  it(`more than ${MAX_CALL_PARTS} parts are denied without asking the policy`, async () => {
    const parts = Array.from({ length: MAX_CALL_PARTS + 1 }, (_, i) => part(`f${i}.ts`));
    const d = decider({});
    expect(await decideEachPart(d, question(call(...parts)))).toMatchObject({
      blocked: true,
      reason: expect.stringContaining(`stands for ${MAX_CALL_PARTS + 1} files`),
    });
    expect(d.asked).toEqual([]);
  });

  it('the pre-scan tool: shared by every part, else none (the scan then rules nothing out)', () => {
    expect(sharedToolName(call(part('a'), part('b')))).toBe('Edit');
    expect(sharedToolName(call(part('a'), part('b', 'Write')))).toBeUndefined();
    expect(callParts(part('a'))).toHaveLength(1);
  });
});
