/**
 * Two promises of emit() that the suite did not pin down (issue 11, found by seeding bugs): the
 * hook sees the very timestamp emit() was given [P-PAY-4], and no hook starts before emit()
 * returns [P-FF-1]. Real engines, real hook processes.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeHooks, writeScript } from './helpers.ts';

/** Far from any clock this test could run at: a value taken at spawn time cannot match it. */
const GIVEN = '2001-02-03T04:05:06.789Z';

describe('[P-PAY-4] issue 11: ZERO_HOOK_TIMESTAMP is the timestamp given to emit()', () => {
  it('[P-PAY-4] [P-EV-2] issue 11: an explicit timestamp reaches the variable, the payload file, ZERO_HOOK_PAYLOAD and stdin unchanged', async () => {
    const ws = tempDir('hw-ts-');
    const out = path.join(ws, 'out');
    writeScript(
      ws,
      'capture.sh',
      [
        `mkdir -p "${out}"`,
        `printf '%s' "$ZERO_HOOK_TIMESTAMP" > "${out}/var"`,
        `cat "$ZERO_HOOK_PAYLOAD_FILE" > "${out}/file.json"`,
        `printf '%s' "$ZERO_HOOK_PAYLOAD" > "${out}/env.json"`,
        `cat > "${out}/stdin.json"`,
      ].join('\n'),
    );
    writeHooks(ws, { agent_end: [{ command: './capture.sh', stdin_json: true }] });
    const engine = await makeEngine(ws);
    engine.emit('agent_end', { success: true, messages_count: 1 }, { timestamp: GIVEN });
    await engine.drain();
    expect(engine.runs().map((r) => r.outcome)).toEqual(['ok']);
    expect(readFileSync(path.join(out, 'var'), 'utf8')).toBe(GIVEN);
    for (const file of ['file.json', 'env.json', 'stdin.json']) {
      expect(JSON.parse(readFileSync(path.join(out, file), 'utf8')).timestamp, file).toBe(GIVEN);
    }
    // The record is stamped with the event's time as well.
    expect(engine.runs()[0]!.at).toBe(GIVEN);
  });
});

describe('[P-FF-1] issue 11: emit() returns before any hook starts', () => {
  it('[P-FF-1] issue 11: right after emit() returns nothing has run — no in-process call, no process, no record; after drain() all have', async () => {
    const ws = tempDir('hw-sync-');
    const marker = path.join(ws, 'started');
    writeScript(ws, 'mark.sh', `: > "${marker}"`);
    writeHooks(ws, { tool_call: [{ command: './mark.sh' }] });
    const engine = await makeEngine(ws);
    let calls = 0;
    engine.use('tool_call', () => {
      calls++;
    });

    engine.emit('tool_call', { tool: 'shell', success: true, output: 'ok' });
    // Still inside the caller's turn: a scheduler that started runs synchronously shows here.
    const callsAtReturn = calls;
    const recordsAtReturn = engine.runs().length;
    const markedAtReturn = existsSync(marker);
    expect(callsAtReturn).toBe(0);
    expect(recordsAtReturn).toBe(0);
    expect(markedAtReturn).toBe(false);

    await engine.drain();
    expect(calls).toBe(1);
    expect(existsSync(marker)).toBe(true);
    expect(
      engine
        .runs()
        .map((r) => r.outcome)
        .sort(),
    ).toEqual(['ok', 'ok']);
  });
});
