/**
 * [T-MGD-3] The reply version 2 of the warm path's wire: the system daemon's replies carry a
 * FINAL flag. Both versions read back, in any chunking; an unknown flag or version is an error.
 */
import { describe, expect, it } from 'vitest';
import { encodeReply, REPLY_FLAG_FINAL, replyReader } from '../src/hook/daemon-wire.ts';

function feed(bytes: Buffer, size: number) {
  const reader = replyReader();
  let state: ReturnType<typeof reader.push> = { kind: 'more' };
  for (let at = 0; at < bytes.length && state.kind === 'more'; at += size)
    state = reader.push(bytes.subarray(at, at + size));
  return state;
}

describe('[T-MGD-3] reply version 2: exit code, flags (bit 0 FINAL), stdout, stderr', () => {
  const base = { exitCode: 2, stdout: Buffer.from('{"x":1}\n'), stderr: Buffer.from('denied\n') };

  it('[T-MGD-3] writes version 2 only when `final` is given, and reads both back in any chunking', () => {
    const v1 = encodeReply(base);
    expect(v1.readUInt32LE(4)).toBe(1);
    const final = encodeReply({ ...base, final: true });
    expect(final.toString('latin1', 0, 4)).toBe('HWKR');
    expect(final.readUInt32LE(4)).toBe(2);
    expect(final.readInt32LE(8)).toBe(2);
    expect(final.readUInt32LE(12)).toBe(REPLY_FLAG_FINAL);
    expect(final.readUInt32LE(16)).toBe(base.stdout.length);
    expect(encodeReply({ ...base, final: false }).readUInt32LE(12)).toBe(0);
    for (const size of [1, 3, 7, 9, 1000]) {
      expect(feed(v1, size)).toEqual({ kind: 'done', value: base });
      expect(feed(final, size)).toEqual({ kind: 'done', value: { ...base, final: true } });
      expect(feed(encodeReply({ ...base, final: false }), size)).toEqual({
        kind: 'done',
        value: { ...base, final: false },
      });
    }
  });

  it('[T-MGD-3] an unknown flag, an unknown version, or bytes after the reply are errors', () => {
    const flagged = encodeReply({ ...base, final: true });
    flagged.writeUInt32LE(3, 12);
    expect(feed(flagged, 5).kind).toBe('error');
    const v3 = encodeReply({ ...base, final: true });
    v3.writeUInt32LE(3, 4);
    expect(feed(v3, 4).kind).toBe('error');
    expect(feed(Buffer.concat([encodeReply({ ...base, final: true }), Buffer.from('x')]), 100).kind).toBe(
      'error',
    );
    const whole = encodeReply({ ...base, final: true });
    expect(feed(whole.subarray(0, whole.length - 1), 2)).toEqual({ kind: 'more' });
  });
});
