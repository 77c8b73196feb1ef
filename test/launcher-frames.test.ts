// [X-PROC-1] The launcher protocol: what the engine encodes is what a launcher decodes.
import { describe, expect, it } from 'vitest';
import { decodeSpawn, encodeSpawn, FrameReader, REQ_SPAWN } from '../src/runners/launcher-frames.ts';

describe('[X-PROC-1] spawn frames', () => {
  it('round-trips argv, env, cwd, cgroup, stdin, the payload file and keep_children, multi-byte text included', () => {
    const frame = encodeSpawn(7, {
      command: '/bin/sh',
      args: ['-c', 'echo "é €" && exit 3', ''],
      env: { PATH: '/usr/bin:/bin', ZERO_HOOK_PAYLOAD: '{"x":"😀"}', EMPTY: '' },
      cwd: '/tmp/wörk',
      cgroupProcs: '/sys/fs/cgroup/x/run-1/cgroup.procs',
      stdin: 'line ü\n',
      payloadFile: { path: '/dev/shm/p-1.json', text: '{"payload":"ß"}' },
      keepChildren: true,
    });
    // Split anywhere, the reader still finds exactly one frame.
    const reader = new FrameReader();
    const frames = [...reader.push(frame.subarray(0, 3)), ...reader.push(frame.subarray(3))];
    expect(frames).toHaveLength(1);
    const [type, payload] = frames[0]!;
    expect(type).toBe(REQ_SPAWN);
    const req = decodeSpawn(payload);
    expect(req).toMatchObject({
      id: 7,
      cgroupProcs: '/sys/fs/cgroup/x/run-1/cgroup.procs',
      cwd: '/tmp/wörk',
      argv: ['/bin/sh', '-c', 'echo "é €" && exit 3', ''],
      env: ['PATH=/usr/bin:/bin', 'ZERO_HOOK_PAYLOAD={"x":"😀"}', 'EMPTY='],
      keepChildren: true,
    });
    expect(req.stdin?.toString('utf8')).toBe('line ü\n');
    expect(req.payloadFile?.path).toBe('/dev/shm/p-1.json');
    expect(req.payloadFile?.bytes.toString('utf8')).toBe('{"payload":"ß"}');
  });

  it('leaves stdin, the payload file and keep_children out when the run has none (flags 0)', () => {
    const frame = encodeSpawn(1, { command: 'true', args: [], env: {}, cwd: '/' });
    const [, payload] = new FrameReader().push(frame)[0]!;
    const req = decodeSpawn(payload);
    expect(req).toEqual({ id: 1, cgroupProcs: '', cwd: '/', argv: ['true'], env: [], keepChildren: false });
    expect(payload.readUInt32LE(4)).toBe(0);
  });
});

describe('[X-PROC-1] malformed spawn frames', () => {
  it('a NUL inside a string breaks the string count: the request is refused, not cut short', () => {
    const frame = encodeSpawn(3, { command: '/bin/echo', args: ['a\0b'], env: {}, cwd: '/' });
    const [, payload] = new FrameReader().push(frame)[0]!;
    expect(() => decodeSpawn(payload)).toThrow(/do not match their counts/);
  });

  it('sizes that do not add up are refused', () => {
    const frame = encodeSpawn(4, { command: 'true', args: [], env: { A: 'b' }, cwd: '/' });
    const [, payload] = new FrameReader().push(frame)[0]!;
    expect(() => decodeSpawn(payload.subarray(0, payload.length - 1))).toThrow(/do not add up/);
  });

  it('FrameReader.each hands out frames in place, across chunk borders', () => {
    const a = encodeSpawn(1, { command: 'true', args: [], env: {}, cwd: '/' });
    const b = encodeSpawn(2, { command: 'false', args: [], env: {}, cwd: '/' });
    const both = Buffer.concat([a, b]);
    const seen: number[] = [];
    const reader = new FrameReader();
    reader.each(both.subarray(0, a.length + 3), (type, buf, start) =>
      seen.push(type, buf.readUInt32LE(start)),
    );
    reader.each(both.subarray(a.length + 3), (type, buf, start) => seen.push(type, buf.readUInt32LE(start)));
    expect(seen).toEqual([REQ_SPAWN, 1, REQ_SPAWN, 2]);
    expect(() => reader.each(Buffer.from([0, 0, 0, 0]), () => {})).toThrow(/frame length 0/);
  });
});
