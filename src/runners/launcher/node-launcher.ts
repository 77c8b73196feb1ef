/**
 * The Node launcher [X-PROC-1]: where no C compiler was present at install, this small Node
 * program is the launcher. It speaks the C launcher's protocol (see launcher-frames.ts) over its
 * stdin and stdout and starts each hook with `child_process.spawn` — the fork then costs this
 * small process, not the agent. Its own environment is empty [X-PROC-4].
 *
 * Run as `node node-launcher.js`; it exits (killing what it started) when its stdin closes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { cgroupPopulated } from '../containment.ts';
import {
  decodeSpawn,
  encodeEvent,
  FrameReader,
  type LauncherEvent,
  REQ_DETACH,
  REQ_SIGNAL,
  REQ_SPAWN,
} from './launcher-frames.ts';

const children = new Map<number, ChildProcess>();

/**
 * Synchronous: an event is in the pipe before anything else happens, so the engine learns a
 * started pid even if this launcher is killed a moment later (and can then kill the run).
 */
function send(ev: LauncherEvent): void {
  try {
    writeSync(1, encodeEvent(ev));
  } catch {
    // The engine is gone.
    killAll();
    process.exit(0);
  }
}

function errnoOf(err: unknown): number {
  const code = typeof err === 'object' && err !== null && 'errno' in err ? err.errno : undefined;
  return typeof code === 'number' ? Math.abs(code) : constants.errno.EINVAL;
}

function start(frame: Buffer): void {
  let req: ReturnType<typeof decodeSpawn>;
  try {
    req = decodeSpawn(frame);
  } catch {
    // A string with a NUL in it (it breaks the count), as the C launcher says: that run fails.
    send({ type: 'failed', id: frame.readUInt32LE(0), errno: constants.errno.EINVAL, stage: 'request' });
    return;
  }
  const env: Record<string, string> = {};
  for (const pair of req.env) {
    const eq = pair.indexOf('=');
    if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const [command, ...args] = req.argv;
  if (command === undefined) {
    send({ type: 'failed', id: req.id, errno: constants.errno.EINVAL, stage: 'request' });
    return;
  }
  const payload = req.payloadFile;
  if (payload !== undefined) {
    try {
      writeFileSync(payload.path, payload.bytes, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      send({ type: 'failed', id: req.id, errno: errnoOf(err), stage: 'payload_file' });
      return;
    }
  }
  const removePayload = () => {
    if (payload === undefined) return;
    try {
      unlinkSync(payload.path);
    } catch {
      // gone already
    }
  };
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      cwd: req.cwd,
      env,
      detached: true,
      stdio: [req.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
  } catch (err) {
    removePayload();
    send({ type: 'failed', id: req.id, errno: errnoOf(err), stage: 'exec' });
    return;
  }
  if (child.pid === undefined) {
    child.once('error', (err) => {
      removePayload();
      // Node blames the command for a missing cwd too: tell them apart.
      send({
        type: 'failed',
        id: req.id,
        errno: errnoOf(err),
        stage: isDirectory(req.cwd) ? 'exec' : 'chdir',
      });
    });
    return;
  }
  const pid = child.pid;
  if (req.cgroupProcs !== '') {
    try {
      writeFileSync(req.cgroupProcs, String(pid));
    } catch {
      // The process group still contains it.
    }
  }
  children.set(req.id, child);
  send({ type: 'started', id: req.id, pid });
  child.stdout?.on('data', (data: Buffer) => send({ type: 'stdout', id: req.id, data }));
  child.stderr?.on('data', (data: Buffer) => send({ type: 'stderr', id: req.id, data }));
  child.stdout?.on('end', () => send({ type: 'eof', id: req.id, stream: 'stdout' }));
  child.stderr?.on('end', () => send({ type: 'eof', id: req.id, stream: 'stderr' }));
  child.on('error', () => {});
  child.on('exit', (code, signal) => {
    removePayload();
    send({
      type: 'exit',
      id: req.id,
      code,
      signal: signal === null ? null : constants.signals[signal],
      leftAlive: groupAlive(pid) || cgroupPopulated(req.cgroupProcs),
    });
  });
  child.on('close', () => children.delete(req.id));
  if (req.stdin !== undefined && child.stdin) {
    child.stdin.on('error', () => {});
    child.stdin.end(req.stdin);
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function killAll(): void {
  for (const child of children.values()) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

const reader = new FrameReader();
process.stdin.on('data', (chunk: Buffer) => {
  for (const [type, payload] of reader.push(chunk)) {
    if (type === REQ_SPAWN) start(payload);
    else if (type === REQ_SIGNAL) {
      const child = children.get(payload.readUInt32LE(0));
      if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, payload.readInt32LE(4));
        } catch {
          // gone
        }
      }
    } else if (type === REQ_DETACH) {
      const id = payload.readUInt32LE(0);
      const child = children.get(id);
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      children.delete(id);
    }
  }
});
process.stdin.on('end', () => {
  killAll();
  process.exit(0);
});
process.on('SIGTERM', () => {
  killAll();
  process.exit(0);
});
