/**
 * The Node launcher [X-PROC-1]: where no C compiler was present at install, this small Node
 * program is the launcher. It speaks the C launcher's protocol (see launcher-frames.ts) over its
 * stdin and stdout and starts each hook with `child_process.spawn` — the fork then costs this
 * small process, not the agent. Its own environment is empty [X-PROC-4].
 *
 * Run as `node node-launcher.js [ENGINE_PID]`; it exits (killing what it started) when its stdin
 * closes.
 *
 * What it cannot do that the C launcher does [X-PROC-5]: Node has no prctl, so it is not a child
 * subreaper (an orphan that leaves its run's group or cgroup is out of reach) and gets no signal
 * when the engine dies (it relies on its stdin reaching EOF, which an engine's death brings unless
 * another process holds the pipe's write end).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { cgroupPopulated, killCgroupTree, makeRunCgroup, removeRunCgroup } from './containment.ts';
import {
  decodeSpawn,
  encodeEvent,
  FrameReader,
  type LauncherEvent,
  REQ_DETACH,
  REQ_SIGNAL,
  REQ_SPAWN,
} from './launcher-frames.ts';

/** O_CLOEXEC as `/proc/<pid>/fdinfo` shows it (the generic Linux value). */
const O_CLOEXEC = 0o2000000;

/**
 * [X-PROC-5] What the engine left open without close-on-exec (Node marks its own descriptors
 * close-on-exec): not ours to hold, nor to pass on to every hook that child_process.spawn starts.
 * Runs first, before this process opens anything.
 */
function closeInherited(): void {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return; // no /proc: nothing to go by
  }
  for (const name of names) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    try {
      const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0) closeSync(fd);
    } catch {
      // gone meanwhile (the directory's own descriptor)
    }
  }
}
closeInherited();

const engine = Number(process.argv[2]);
// The engine died before we could watch its pipe: nothing to start, nothing to stop.
if (engine > 0 && process.ppid !== engine) process.exit(0);

const children = new Map<number, ChildProcess>();

/** What killAll needs of a run: it outlives its ChildProcess entry (which goes at DETACH or close). */
interface Run {
  pid: number;
  /** Its cgroup folder, '' for none. */
  cgroup: string;
  keep: boolean;
  exited: boolean;
}
/** Runs whose main process still runs. */
const live = new Map<number, Run>();
/** cgroup folders of runs that do not keep their children: all killed when the engine goes away. */
const usedCgroups = new Set<string>();
/** Past this many, folders that are gone are forgotten (one the launcher removed is forgotten at once). */
const USED_CGROUPS_PRUNE = 64;

function noteCgroup(dir: string): void {
  if (usedCgroups.has(dir)) return;
  if (usedCgroups.size >= USED_CGROUPS_PRUNE) {
    for (const d of usedCgroups) if (!existsSync(d)) usedCgroups.delete(d);
  }
  usedCgroups.add(dir);
}

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
  // [X-PROC-2] The run's cgroup, made now for this run alone (none when it could not be).
  const cgroup =
    req.cgroupProcs !== '' && makeRunCgroup(req.cgroupProcs) ? path.dirname(req.cgroupProcs) : '';
  const procs = cgroup === '' ? '' : req.cgroupProcs;
  /** Whether the run's cgroup is gone (or it had none). */
  const removeCgroup = () => procs === '' || removeRunCgroup(procs);
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
    removeCgroup();
    send({ type: 'failed', id: req.id, errno: errnoOf(err), stage: 'exec' });
    return;
  }
  if (child.pid === undefined) {
    child.once('error', (err) => {
      removePayload();
      removeCgroup();
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
  if (cgroup !== '') {
    try {
      writeFileSync(procs, String(pid));
    } catch {
      // The process group still contains it.
    }
    if (!req.keepChildren) noteCgroup(cgroup);
  }
  const run: Run = { pid, cgroup, keep: req.keepChildren, exited: false };
  live.set(req.id, run);
  children.set(req.id, child);
  send({ type: 'started', id: req.id, pid });
  child.stdout?.on('data', (data: Buffer) => send({ type: 'stdout', id: req.id, data }));
  child.stderr?.on('data', (data: Buffer) => send({ type: 'stderr', id: req.id, data }));
  child.stdout?.on('end', () => send({ type: 'eof', id: req.id, stream: 'stdout' }));
  child.stderr?.on('end', () => send({ type: 'eof', id: req.id, stream: 'stderr' }));
  child.on('error', () => {});
  child.on('exit', (code, signal) => {
    run.exited = true;
    live.delete(req.id);
    removePayload();
    const leftAlive = groupAlive(pid) || cgroupPopulated(procs);
    send({
      type: 'exit',
      id: req.id,
      code,
      signal: signal === null ? null : constants.signals[signal],
      leftAlive,
    });
    // Empty: removed here, off the engine's event loop, once the EXIT is out (the rmdir does not
    // delay it); never used again [X-PROC-2].
    if (!leftAlive && !req.keepChildren && removeCgroup()) usedCgroups.delete(cgroup);
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

/**
 * The engine is gone (or closes us) [X-PROC-5]: every running run's group, every cgroup a run
 * that does not keep its children used, and those of running runs that do. What an exited
 * keep_children run left stays.
 */
function killAll(): void {
  for (const run of live.values()) {
    try {
      process.kill(-run.pid, 'SIGKILL');
    } catch {
      // gone
    }
    if (run.keep && run.cgroup !== '') killCgroupTree(run.cgroup);
  }
  for (const dir of usedCgroups) killCgroupTree(dir);
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
