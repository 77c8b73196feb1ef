/**
 * [AD-MCP-1] `createMcpGate` from `hookwerk/mcp`, in-process: a host holds its own MCP client (the
 * SDK's `Client`, on the in-memory transport pair to the tests' notes server) and gates each
 * `tools/call` through the gate. The project's hooks are the Claude Code hooks a project wrote
 * for `mcp__notes__…` matchers, real `/bin/sh` and `node` scripts; the server logs each call that
 * reached it.
 */

import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../src/core/errors.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { createMcpGate, type McpGateOptions, type McpRunRecord, mcpToolName } from '../src/mcp/index.ts';
import { REPO } from './cli-runner.ts';
import { openEngine } from './engine-harness.ts';
import { tempDir, writeScript } from './helpers.ts';
import { directNotes, notesProject, serverLog } from './mcp-harness.ts';

const run = promisify(execFile);
const trusted = () => ({ trusted: true, reason: 'test' });

/** A claude-dialect engine on `project` (consent given: the trust store is not what these test). */
function claudeEngine(project = notesProject()): Promise<HookEngine> {
  return openEngine({
    projectDir: project,
    home: tempDir('hw-mcp-home-'),
    gateDialect: 'claude',
    watch: false,
    trust: trusted,
  });
}

/** A host: its client on the notes server, a gate, and what the gate recorded and said. */
async function host(engine: HookEngine, opts: Partial<McpGateOptions> = {}) {
  const log = path.join(tempDir('hw-mcp-log-'), 'calls.jsonl');
  const client = await directNotes(log);
  const records: McpRunRecord[] = [];
  const notes: string[] = [];
  const gate = createMcpGate(engine, {
    name: 'notes',
    record: (runs) => records.push(...runs),
    notify: (line) => notes.push(line),
    ...opts,
  });
  const call = (tool: string, args?: Record<string, unknown>) =>
    gate.call(tool, args, (a) => client.callTool({ name: tool, arguments: a }));
  return { gate, call, log: () => serverLog(log), records, notes };
}

describe('[G-PERM-1] createMcpGate over an engine of the policy dialect', () => {
  it("the user policy's permission rules gate the host's calls: a deny never reaches the server, the rest passes", async () => {
    const home = tempDir('hw-mcp-home-');
    mkdirSync(path.join(home, '.hookwerk'));
    writeFileSync(
      path.join(home, '.hookwerk', 'policy.json'),
      JSON.stringify({ permissions: { deny: ['mcp__notes__delete_all'] } }),
    );
    const engine = await openEngine({
      projectDir: tempDir('hw-mcp-empty-'),
      home,
      gateDialect: 'policy',
      watch: false,
    });
    const h = await host(engine);
    expect(await h.call('delete_all', {})).toEqual({
      content: [{ type: 'text', text: '~/.hookwerk/policy.json: permissions.deny: mcp__notes__delete_all' }],
      isError: true,
    });
    expect(await h.call('write_note', { title: 'a', body: 'b' })).toEqual({
      content: [{ type: 'text', text: 'wrote "a"' }],
    });
    expect(h.log().map((c) => c.tool)).toEqual(['write_note']);
    expect(h.records.find((r) => r.cause === 'permission')).toMatchObject({
      agent: 'mcp',
      hook: 'permissions.deny: mcp__notes__delete_all',
      toolName: 'mcp__notes__delete_all',
      dialect: 'policy',
    });
  });
});

describe('[AD-MCP-1] createMcpGate: enforce mode', () => {
  it('a denied call never reaches the server: the host gets isError and the reason, and both are recorded', async () => {
    const h = await host(await claudeEngine());
    const result = await h.call('delete_all', {});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'no deleting: notes are kept' }],
      isError: true,
    });
    expect(h.log()).toEqual([]);
    const verdict = h.records.find((r) => r.hook === 'mcp-gate');
    expect(verdict).toMatchObject({
      agent: 'mcp',
      toolName: 'mcp__notes__delete_all',
      sessionId: h.gate.sessionId,
      event: 'PreToolUse',
      source: 'mcp:notes',
      outcome: 'deny',
      decision: 'deny',
      reason: 'no deleting: notes are kept',
    });
    // [R-HOOK-3] the hooks' own runs, as journal entries of the agent "mcp".
    const deny = h.records.find((r) => r.source.endsWith('#/hooks/PreToolUse/0/hooks/0'));
    expect(deny).toMatchObject({ agent: 'mcp', toolName: 'mcp__notes__delete_all', outcome: 'deny' });
  });

  it('updatedInput replaces the arguments; a PostToolUse block reason is added to the result as text', async () => {
    const h = await host(await claudeEngine());
    const result = await h.call('write_note', { title: 'groceries', body: 'milk' });
    expect(h.log()).toEqual([{ tool: 'write_note', args: { title: '[reviewed] groceries', body: 'milk' } }]);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'wrote "[reviewed] groceries"' },
        { type: 'text', text: 'remember to tag the note' },
      ],
    });
    expect(h.records.find((r) => r.hook === 'mcp-gate')).toMatchObject({ outcome: 'ok', decision: 'allow' });
    expect(h.records.filter((r) => r.event === 'PostToolUse').length).toBe(1);
  });

  it("PostToolUse gets the server's CallToolResult as tool_response; an isError result goes to PostToolUseFailure", async () => {
    const engine = await claudeEngine(tempDir('hw-mcp-empty-'));
    const seen: { event: string; input: Record<string, unknown> }[] = [];
    for (const event of ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const)
      engine.use(event, { matcher: 'mcp__notes__.*' }, (input) => {
        seen.push({ event, input });
        return undefined;
      });
    const h = await host(engine, { sessionId: 'sess-host-1' });
    await h.call('write_note', { title: 't', body: 'b' });
    await h.call('fail');
    expect(seen.map((s) => s.event)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PreToolUse',
      'PostToolUseFailure',
    ]);
    expect(seen[0]?.input).toMatchObject({
      tool_name: 'mcp__notes__write_note',
      tool_input: { title: 't', body: 'b' },
      session_id: 'sess-host-1',
      hook_event_name: 'PreToolUse',
    });
    expect(seen[1]?.input.tool_response).toEqual({ content: [{ type: 'text', text: 'wrote "t"' }] });
    // `fail` ran (the server says so) and failed: Claude Code's PostToolUseFailure, with the text.
    expect(seen[2]?.input.tool_input).toEqual({});
    expect(seen[3]?.input).toMatchObject({ error: 'the disk is full', is_interrupt: false });
    expect(h.log().map((c) => c.tool)).toEqual(['write_note', 'fail']);
  });

  it('a forward that throws: PostToolUseFailure runs with its message, and the host gets the same error', async () => {
    const engine = await claudeEngine(tempDir('hw-mcp-empty-'));
    const failures: unknown[] = [];
    engine.use('PostToolUseFailure', {}, (input) => {
      failures.push(input.error);
      return undefined;
    });
    const gate = createMcpGate(engine, { name: 'notes' });
    const lost = new Error('connection lost');
    await expect(gate.call('write_note', {}, () => Promise.reject(lost))).rejects.toBe(lost);
    expect(failures).toEqual(['connection lost']);
  });

  it('additionalContext reaches the model as text after the result; systemMessage goes to the host', async () => {
    const project = tempDir('hw-mcp-context-');
    writeScript(
      path.join(project, '.claude', 'hooks'),
      'context.sh',
      `cat >/dev/null; echo '{"systemMessage":"checked by policy","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"notes are public"}}'`,
    );
    writeSettings(project, {
      PreToolUse: [{ matcher: 'mcp__notes__write_note', hooks: [hookCommand('context.sh')] }],
    });
    const h = await host(await claudeEngine(project));
    const result = await h.call('write_note', { title: 't', body: 'b' });
    expect(result.content).toEqual([
      { type: 'text', text: 'wrote "t"' },
      { type: 'text', text: 'notes are public' },
    ]);
    expect(h.notes).toEqual(['checked by policy']);
  });

  it('ask and defer stop the call: a gate has no one to ask and nothing to resume', async () => {
    const project = tempDir('hw-mcp-ask-');
    const hooks = path.join(project, '.claude', 'hooks');
    const answer = (decision: string) =>
      `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":"a person decides"}}'`;
    writeScript(hooks, 'ask.sh', answer('ask'));
    writeScript(hooks, 'defer.sh', answer('defer'));
    writeSettings(project, {
      PreToolUse: [
        { matcher: 'mcp__notes__write_note', hooks: [hookCommand('ask.sh')] },
        { matcher: 'mcp__notes__delete_all', hooks: [hookCommand('defer.sh')] },
      ],
    });
    const h = await host(await claudeEngine(project));
    const asked = await h.call('write_note', { title: 't', body: 'b' });
    expect(asked.isError).toBe(true);
    expect(asked.content).toEqual([
      {
        type: 'text',
        text: "a hook asks for the user's approval of mcp__notes__write_note, which the MCP gate cannot ask for: a person decides",
      },
    ]);
    expect((await h.call('delete_all')).isError).toBe(true);
    expect(h.log()).toEqual([]);
  });

  it('a signal aborted before the tool is called: it is not, and the call rejects', async () => {
    const engine = await claudeEngine(tempDir('hw-mcp-empty-'));
    const stop = new AbortController();
    engine.use('PreToolUse', {}, () => {
      stop.abort(new Error('the user gave up'));
      return undefined;
    });
    const h = await host(engine);
    await expect(
      h.gate.call('delete_all', {}, () => Promise.reject(new Error('must not be called')), {
        signal: stop.signal,
      }),
    ).rejects.toThrow('the user gave up');
    expect(h.log()).toEqual([]);
  });
});

describe('[AD-MCP-1] createMcpGate: audit mode and failures of the gate', () => {
  it('audit mode: the denied call runs and nothing is rewritten or added; the record says what enforce would do', async () => {
    const h = await host(await claudeEngine(), { mode: 'audit' });
    expect(await h.call('delete_all', {})).toEqual({
      content: [{ type: 'text', text: 'deleted every note' }],
    });
    expect(await h.call('write_note', { title: 'groceries', body: 'milk' })).toEqual({
      content: [{ type: 'text', text: 'wrote "groceries"' }],
    });
    expect(h.log()).toEqual([
      { tool: 'delete_all', args: {} },
      { tool: 'write_note', args: { title: 'groceries', body: 'milk' } },
    ]);
    const verdicts = h.records.filter((r) => r.hook === 'mcp-gate');
    expect(verdicts).toMatchObject([
      { toolName: 'mcp__notes__delete_all', outcome: 'ok', decision: 'allow', cause: 'audit_would_deny' },
      { toolName: 'mcp__notes__write_note', outcome: 'ok', decision: 'allow', cause: 'audit_would_rewrite' },
    ]);
    expect(verdicts[0]?.reason).toBe('no deleting: notes are kept');
    // The hooks' own runs say what they answered.
    expect(h.records.some((r) => r.toolName === 'mcp__notes__delete_all' && r.outcome === 'deny')).toBe(true);
    expect(h.notes).toContain('audit: hooks would deny mcp__notes__delete_all: no deleting: notes are kept');
  });

  it('fail-closed: a gate that cannot decide denies in enforce mode, and lets the call through in audit mode', async () => {
    const engine = await claudeEngine();
    const enforce = await host(engine);
    const audit = await host(engine, { mode: 'audit' });
    await engine.close();
    const denied = await enforce.call('write_note', { title: 't', body: 'b' });
    expect(denied.isError).toBe(true);
    expect(resultText(denied)).toMatch(/^hookwerk could not gate mcp__notes__write_note: .*closed/);
    expect(enforce.log()).toEqual([]);
    expect(enforce.records.find((r) => r.hook === 'mcp-gate')).toMatchObject({
      outcome: 'error',
      cause: 'gate_error',
      failed: 'closed',
      decision: 'deny',
    });
    expect(await audit.call('write_note', { title: 't', body: 'b' })).toEqual({
      content: [{ type: 'text', text: 'wrote "t"' }],
    });
    expect(audit.records.find((r) => r.hook === 'mcp-gate')).toMatchObject({
      failed: 'open',
      decision: 'allow',
    });
    expect(audit.records.filter((r) => r.event === 'PostToolUse')).toMatchObject([{ cause: 'gate_error' }]);
  });

  it('a record callback or notify that throws never breaks the call', async () => {
    const h = await host(await claudeEngine(), {
      record: () => {
        throw new Error('disk full');
      },
      notify: () => {
        throw new Error('no log');
      },
    });
    expect((await h.call('delete_all')).isError).toBe(true);
    expect((await h.call('write_note', { title: 't', body: 'b' })).isError).toBeUndefined();
  });
});

describe('[AD-MCP-1] createMcpGate: dialects, names and options', () => {
  it('lurus: PreToolUse gets toolName and toolInput, and its deny stops the call', async () => {
    const engine = await openEngine({
      projectDir: tempDir('hw-mcp-lurus-'),
      home: tempDir('hw-mcp-home-'),
      watch: false,
      trust: trusted,
    });
    const contexts: unknown[] = [];
    engine.use('PreToolUse', { matcher: '^mcp__notes__delete_all$' }, (ctx) => {
      contexts.push(ctx);
      return { decision: 'deny', reason: 'lurus says no' };
    });
    engine.use('PostToolUse', {}, (ctx) => {
      contexts.push(ctx);
      return undefined;
    });
    const h = await host(engine);
    expect(await h.call('delete_all', {})).toEqual({
      content: [{ type: 'text', text: 'lurus says no' }],
      isError: true,
    });
    await h.call('write_note', { title: 't', body: 'b' });
    expect(contexts).toEqual([
      { toolName: 'mcp__notes__delete_all', toolInput: {} },
      {
        toolName: 'mcp__notes__write_note',
        toolInput: { title: 't', body: 'b' },
        toolResponse: { content: [{ type: 'text', text: 'wrote "t"' }] },
      },
    ]);
  });

  it('tool names are mcp__<server>__<tool>, with what Claude Code does not allow in a name made _', () => {
    expect(mcpToolName('notes', 'write_note')).toBe('mcp__notes__write_note');
    expect(mcpToolName('my.notes server', 'tool/v2')).toBe('mcp__my_notes_server__tool_v2');
  });

  it('bad options are InvalidOptionErrors: an empty name, an unknown mode, a dialect without MCP tools', async () => {
    const engine = await claudeEngine(tempDir('hw-mcp-empty-'));
    expect(() => createMcpGate(engine, { name: '' })).toThrow(InvalidOptionError);
    const loud: McpGateOptions = JSON.parse('{"name":"n","mode":"loud"}');
    expect(() => createMcpGate(engine, loud)).toThrow(/enforce.*audit/);
    expect(() => createMcpGate(engine, { name: 'n', sessionId: 'a\0b' })).toThrow(InvalidOptionError);
    const gemini = await openEngine({
      projectDir: tempDir('hw-mcp-g-'),
      gateDialect: 'gemini',
      watch: false,
    });
    expect(() => createMcpGate(gemini, { name: 'n' })).toThrow(/policy, claude or lurus/);
  });
});

function writeSettings(project: string, hooks: Record<string, unknown>): void {
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ hooks }));
}

function hookCommand(file: string) {
  return { type: 'command', command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${file}` };
}

function resultText(result: Record<string, unknown>): string {
  const content = result.content;
  if (!Array.isArray(content)) return '';
  return content.map((b: { text?: string }) => b.text ?? '').join('\n');
}

describe('[AD-MCP-1, AD-ALL-1] the subpath export hookwerk/mcp', () => {
  it('resolves through package.json exports (code and types) and runs; the strict compile is package-types.test.ts', async () => {
    const consumer = tempDir('hw-mcp-consumer-');
    mkdirSync(path.join(consumer, 'node_modules'));
    symlinkSync(REPO, path.join(consumer, 'node_modules', 'hookwerk'));
    writeFileSync(
      path.join(consumer, 'use.mts'),
      `import { createHookEngine } from 'hookwerk';
import { createMcpGate, mcpToolName, type McpGate, type McpRunRecord, type McpToolResult } from 'hookwerk/mcp';

const engine = await createHookEngine({ gateDialect: 'claude', watch: false, trust: () => ({ trusted: true, reason: 'test' }) });
const records: McpRunRecord[] = [];
const gate: McpGate = createMcpGate(engine, { name: 'notes', mode: 'enforce', record: (runs) => records.push(...runs) });
const result: McpToolResult = await gate.call('write_note', { title: 't' }, async (args) => ({
  content: [{ type: 'text', text: JSON.stringify(args) }],
}));
console.log(mcpToolName('notes', 'write_note'), JSON.stringify(result), records.length);
await engine.close();
`,
    );
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          // Only this file is checked here: dist/*.d.ts under skipLibCheck false is package-types.test.ts.
          skipLibCheck: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          outDir: 'out',
          types: ['node'],
          typeRoots: [path.join(REPO, 'node_modules', '@types')],
        },
        files: ['use.mts'],
      }),
    );
    const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await run(process.execPath, [tsc, '-p', consumer], { cwd: consumer }).then(
      (r) => r.stdout + r.stderr,
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
    expect(compiled).toBe('');
    const ran = await run(process.execPath, [path.join(consumer, 'out', 'use.mjs')], { cwd: consumer });
    expect(ran.stdout).toBe(
      'mcp__notes__write_note {"content":[{"type":"text","text":"{\\"title\\":\\"t\\"}"}]} 1\n',
    );
  });
});
