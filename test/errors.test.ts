/**
 * Issue 19: every error hookwerk throws to its caller is a HookwerkError with a code; input and
 * option errors stay TypeErrors [P-EV-3]. Driven through the real entry points.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createHookEngine,
  EngineClosedError,
  HookInputError,
  HookwerkError,
  HookwerkTypeError,
  InvalidOptionError,
  isHookwerkError,
  MemoryBus,
} from '../src/index.ts';
import { silentLogger } from '../src/records/logger.ts';

async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('[issue 19] HookwerkError', () => {
  it('[P-EV-3] emit() with an unknown event throws a HookInputError: a TypeError and a HookwerkError, code HOOK_INPUT', async () => {
    const engine = await createHookEngine({ watch: false, logger: silentLogger });
    try {
      const err = await caught(() => engine.emit('no_such_event', {}));
      expect(err).toBeInstanceOf(HookInputError);
      expect(err).toBeInstanceOf(TypeError);
      expect(err).toBeInstanceOf(HookwerkError);
      expect(err).toBeInstanceOf(HookwerkTypeError);
      expect(isHookwerkError(err)).toBe(true);
      expect(err).toMatchObject({ code: 'HOOK_INPUT', field: 'event', name: 'HookInputError' });
    } finally {
      await engine.close();
    }
  });

  it('decide() after close() rejects with EngineClosedError, code ENGINE_CLOSED (not a TypeError)', async () => {
    const engine = await createHookEngine({ watch: false, logger: silentLogger });
    await engine.close();
    const err = await caught(() => engine.decide('PreToolUse', {}));
    expect(err).toBeInstanceOf(EngineClosedError);
    expect(err).toBeInstanceOf(HookwerkError);
    expect(err).not.toBeInstanceOf(TypeError);
    expect(err).toMatchObject({ code: 'ENGINE_CLOSED', name: 'EngineClosedError' });
  });

  it('a missing workspace is code WORKSPACE; a bad option is an InvalidOptionError (code INVALID_OPTION)', async () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'hw-err-')), 'gone');
    const err = await caught(() =>
      createHookEngine({ workspace: missing, watch: false, logger: silentLogger }),
    );
    expect(err).toBeInstanceOf(HookwerkError);
    expect(err).toMatchObject({ code: 'WORKSPACE' });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'hw-err-')), 'f');
    writeFileSync(file, '');
    expect(
      await caught(() => createHookEngine({ workspace: file, watch: false, logger: silentLogger })),
    ).toMatchObject({
      code: 'WORKSPACE',
    });
    const bad = await caught(() => new MemoryBus({ maxPending: -1 }));
    expect(bad).toBeInstanceOf(InvalidOptionError);
    expect(bad).toBeInstanceOf(TypeError);
    expect(bad).toMatchObject({ code: 'INVALID_OPTION' });
    const nats = await caught(() => createHookEngine({ nats: { servers: [] }, logger: silentLogger }));
    expect(nats).toMatchObject({ code: 'INVALID_OPTION' });
  });

  it('instanceof on a subclass stays exact: an EngineClosedError is no HookInputError; plain errors are no HookwerkError', () => {
    const closed = new EngineClosedError('x');
    expect(closed).not.toBeInstanceOf(HookInputError);
    expect(new HookInputError('f', 'm')).not.toBeInstanceOf(EngineClosedError);
    expect(new Error('plain')).not.toBeInstanceOf(HookwerkError);
    expect(new TypeError('plain')).not.toBeInstanceOf(HookwerkError);
    expect(isHookwerkError({ code: 'HOOK_INPUT', message: 'forged' })).toBe(false);
  });
});
