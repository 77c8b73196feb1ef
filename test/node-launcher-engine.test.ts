/**
 * [X-PROC-1] The engine's own process paths through the Node launcher (a machine without a C
 * compiler), once each: what CI used to learn by running engine-dispatch, engine-payload,
 * lurus-gate and hot-reload a second time whole with HOOKWERK_LAUNCHER=node. The dialects' process
 * cases run under both launchers in dialect-suite.test.ts; the launcher's own guarantees per
 * backend are in launcher-runs.test.ts. Hooks that must overlap meet through files, never the clock.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookEngineOptions } from '../src/engine-api.ts';
import { makeEngine } from './engine-harness.ts';
import { processAlive, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { backendOf } from './launcher-choice.ts';

const NODE: HookEngineOptions = { launcher: 'node' };
const read = (file: string) => readFileSync(file, 'utf8');

describe('[X-PROC-1] the engine through the Node launcher', () => {
  it('[X-PROC-1] the engine asked for the Node launcher gets it', () => {
    expect(backendOf('node')).toBe('node');
  });

  it('[P-PAY-1] [P-PAY-2] [P-PAY-3] an emit reaches the hook on stdin, in ZERO_HOOK_PAYLOAD and in a 0600 file that is gone after the run', async () => {
    const ws = tempDir('hw-nl-');
    writeScript(
      ws,
      'capture.sh',
      [
        'read -r line; printf "%s" "$line" > line',
        'printf "%s" "$ZERO_HOOK_PAYLOAD" > env',
        'cat "$ZERO_HOOK_PAYLOAD_FILE" > file',
        'printf "%s" "$ZERO_HOOK_PAYLOAD_FILE" > path',
        'stat -c %a "$ZERO_HOOK_PAYLOAD_FILE" > mode',
      ].join('\n'),
    );
    writeHooks(ws, { tool_call: [{ command: './capture.sh', stdin_json: true }] });
    const engine = await makeEngine(ws, NODE);
    const payload = { tool: 'sh', success: true, output: 'quote " backslash \\ é €' };
    engine.emit('tool_call', payload, { sessionId: 'sess-node' });
    await engine.drain();
    expect(engine.runs()[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
    const line = read(path.join(ws, 'line'));
    expect(JSON.parse(line)).toMatchObject({ event: 'tool_call', session_id: 'sess-node', payload });
    expect(read(path.join(ws, 'env'))).toBe(line);
    expect(read(path.join(ws, 'file'))).toBe(line);
    expect(read(path.join(ws, 'mode')).trim()).toBe('600');
    expect(existsSync(read(path.join(ws, 'path')))).toBe(false);
  });

  it('[P-PAY-2] a 1 MiB envelope arrives whole through the file (not the variable)', async () => {
    const ws = tempDir('hw-nl-');
    writeScript(
      ws,
      'big.sh',
      `cat "$ZERO_HOOK_PAYLOAD_FILE" > file; printf "%s" "\${ZERO_HOOK_PAYLOAD-UNSET}" > env`,
    );
    writeHooks(ws, { tool_call: [{ command: './big.sh' }] });
    const engine = await makeEngine(ws, NODE);
    const output = 'x€'.repeat(350_000);
    engine.emit('tool_call', { tool: 'shell', success: true, output });
    await engine.drain();
    expect(read(path.join(ws, 'env'))).toBe('UNSET');
    expect(JSON.parse(read(path.join(ws, 'file'))).payload.output).toBe(output);
  });

  it('[P-FF-2] the actions of one event run at the same time: each waits for the other to start', async () => {
    const ws = tempDir('hw-nl-');
    const meet = (me: string, other: string) =>
      `touch ${me}; while [ ! -e ${other} ]; do sleep 0.02; done; echo ok > ${me}.done`;
    writeHooks(ws, {
      tool_call: [
        { id: 'a', command: 'sh', args: ['-c', meet('a', 'b')], timeout_ms: 20_000 },
        { id: 'b', command: 'sh', args: ['-c', meet('b', 'a')], timeout_ms: 20_000 },
      ],
    });
    const engine = await makeEngine(ws, NODE);
    engine.emit('tool_call', { tool: 'sh', success: true, output: '' });
    await engine.drain();
    expect(engine.runs().map((r) => r.outcome)).toEqual(['ok', 'ok']);
    expect(existsSync(path.join(ws, 'a.done')) && existsSync(path.join(ws, 'b.done'))).toBe(true);
  });

  it('[P-PAY-2] [L-RUN-4] at its timeout a hook and its background child are stopped; its payload file is gone', async () => {
    const ws = tempDir('hw-nl-');
    writeScript(
      ws,
      'hang.sh',
      'printf "%s" "$ZERO_HOOK_PAYLOAD_FILE" > path; sleep 30 & echo $! > bg.pid; wait',
    );
    // 2 s: time for a loaded machine to start the script and its child before the timeout.
    writeHooks(ws, { llm_request: [{ command: './hang.sh', timeout_ms: 2000 }] });
    const engine = await makeEngine(ws, NODE);
    engine.emit('llm_request', { provider: 'p', model: 'm', messages_count: 1 });
    await engine.drain();
    expect(engine.runs()[0]).toMatchObject({ outcome: 'timeout', cause: 'timeout' });
    expect(existsSync(read(path.join(ws, 'path')))).toBe(false);
    const pid = Number(read(path.join(ws, 'bg.pid')).trim());
    await waitFor(() => !processAlive(pid), `background sleep ${pid} to be stopped`);
  });

  it('[L-RUN-2] a 2 MB Lurus context arrives whole on stdin; a hook that never reads it still answers', async () => {
    const project = tempDir('hw-nl-proj-');
    const home = tempDir('hw-nl-home-');
    const lurus = path.join(project, '.lurus');
    writeScript(lurus, 'keep.sh', `cat > ${path.join(project, 'stdin.json')}; echo '{"decision":"allow"}'`);
    writeHooks(project, {});
    writeFileSync(
      path.join(lurus, 'hooks.json'),
      JSON.stringify({
        PreToolUse: [
          { matcher: '^Write$', hooks: [{ type: 'command', command: 'sh .lurus/keep.sh' }] },
          {
            matcher: '^Edit$',
            hooks: [
              { type: 'command', command: `exec 0<&-; echo '{"decision":"deny","reason":"did not read"}'` },
            ],
          },
        ],
      }),
    );
    const engine = await makeEngine(undefined, {
      ...NODE,
      projectDir: project,
      home,
      trust: () => ({ trusted: true, reason: 'test' }),
    });
    const content = 'y'.repeat(2_000_000);
    const kept = await engine.decide('PreToolUse', { toolName: 'Write', toolInput: { content } });
    expect(kept).toMatchObject({ decision: 'allow' });
    expect(JSON.parse(read(path.join(project, 'stdin.json'))).context.toolInput.content).toBe(content);
    const unread = await engine.decide('PreToolUse', { toolName: 'Edit', toolInput: { content } });
    expect(unread).toMatchObject({ decision: 'deny', reason: 'did not read' });
  });

  it('[§4 close] close() waits for the running hook to finish', async () => {
    const ws = tempDir('hw-nl-');
    writeHooks(ws, {
      agent_end: [
        {
          command: 'sh',
          args: ['-c', 'touch started; while [ ! -e go ]; do sleep 0.02; done; touch done'],
          timeout_ms: 20_000,
        },
      ],
    });
    const engine = await makeEngine(ws, NODE);
    engine.emit('agent_end', { success: true, messages_count: 1 });
    await waitFor(() => existsSync(path.join(ws, 'started')), 'the hook to start');
    const closed = engine.close();
    writeFileSync(path.join(ws, 'go'), '');
    await closed;
    expect(existsSync(path.join(ws, 'done'))).toBe(true);
    expect(engine.runs()[0]).toMatchObject({ outcome: 'ok' });
  });
});
