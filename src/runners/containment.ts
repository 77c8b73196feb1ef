/**
 * What a run's processes are contained in, so that none outlives the run [X-PROC-2]: a cgroup per
 * run where the host lets us create one, else the process group.
 *
 * Detected once per engine, in this order:
 * - cgroup v2 with `cgroup.kill` (also at `/sys/fs/cgroup/unified` on hybrid hosts): the whole
 *   cgroup is killed in one write;
 * - cgroup v2 without it: frozen, every process killed, thawed;
 * - cgroup v1 `freezer`: the same, through `freezer.state`;
 * - otherwise the process group: a process that calls `setsid` (or double-forks into a new
 *   group) escapes it — docs/hook-processes.md says so.
 * The child joins its cgroup before exec (the C launcher) or right after it starts (the Node
 * launcher, the direct fallback: a process it forks in that first instant can escape).
 *
 * Every run gets a cgroup of its own that no run had before, made right before its start by the
 * backend and removed after it: never a pool (see CgroupContainment.create) [X-PROC-2].
 *
 * A `keepChildren` run gets a cgroup too (`keep-N`): its processes stay in it after the run, so
 * that the C launcher (a child subreaper, which kills orphans that belong to no run) can tell them
 * from escapees; they are moved out into the engine's own cgroup when the engine closes, or by the
 * next engine's start-up sweep when this one died [X-PROC-2, X-PROC-5].
 */
import { randomBytes } from 'node:crypto';
import {
  type Dirent,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { errorCode } from '../core/errno.ts';

export type ContainmentKind = 'cgroup2' | 'cgroup2-freeze' | 'freezer' | 'pgroup';

/** The container of one run. */
export interface RunContainer {
  /** `cgroup.procs` (or v1 `cgroup.procs`) the child joins; undefined for the process group. */
  readonly procs: string | undefined;
  /** Sends `signal` to every process of the run: its group (when its pid is known), and all of its cgroup. */
  signal(pgid: number | undefined, signal: 'SIGTERM' | 'SIGKILL'): void;
  /** No live process of the run remains (in its group, nor in its cgroup). */
  empty(pgid: number): boolean;
  /**
   * Lets go of the cgroup once empty; `empty`: already known to be empty; `removed`: the backend
   * removes it (a launcher that found nothing of the run left at its exit: right after, when idle).
   */
  release(empty?: boolean, removed?: boolean): void;
}

export interface Containment {
  readonly kind: ContainmentKind;
  /** A container for a new run; a `keepChildren` run's cgroup outlives the run while it holds processes. */
  create(keepChildren: boolean): RunContainer;
  /** Moves kept processes out and removes the engine's cgroup folder (its runs must be over). */
  close(): void;
}

const CGROUP_ROOT = '/sys/fs/cgroup';

/** Finds what the host offers; `pgroup` when no cgroup can be created here. */
export function detectContainment(mode: 'auto' | 'pgroup' = 'auto'): Containment {
  if (mode === 'pgroup' || process.platform !== 'linux') return new GroupContainment();
  return tryCgroup2() ?? tryFreezer() ?? new GroupContainment();
}

/** This process's cgroup path in a hierarchy, from /proc/self/cgroup (`0::/x` for v2, `N:freezer:/x` for v1). */
function ownCgroup(hierarchy: string): string | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const m = /^(\d+):([^:]*):(.*)$/.exec(line);
    const controllers = m?.[2];
    const rel = m?.[3];
    if (controllers === undefined || rel === undefined) continue;
    if (hierarchy === '' ? controllers === '' : controllers.split(',').includes(hierarchy)) return rel;
  }
  return undefined;
}

/**
 * Where this engine's run cgroups go, once a probe showed we may create cgroups there. The folder
 * itself is made at the first run (an engine that runs no process leaves nothing behind), and
 * folders left by processes that died without closing their engine are swept away first.
 */
function parentFor(mount: string, own: string): { base: string; parent: string; kill: boolean } | undefined {
  const base = path.join(mount, own);
  const probe = path.join(base, `hookwerk-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(probe);
  } catch {
    return undefined;
  }
  // A cgroup the kernel can kill in one write (v2, Linux ≥ 5.14) shows `cgroup.kill`.
  const kill = existsSync(path.join(probe, 'cgroup.kill'));
  removeCgroup(probe);
  sweepStale(base);
  return {
    base,
    parent: path.join(base, `hookwerk-${process.pid}-${randomBytes(4).toString('hex')}`),
    kill,
  };
}

/** How long the start-up sweep waits for a dead engine's killed processes to be gone. */
const SWEEP_WAIT_MS = 1000;
/** Kept processes are moved out in rounds (one may fork meanwhile); past these, they stay. */
const MOVE_ROUNDS = 8;

/**
 * [X-PROC-5] `hookwerk-<pid>-*` folders of engines whose process is gone: what their runs left is
 * killed (nested engine folders too) before the folders are removed, deepest first. What their
 * `keepChildren` runs left was meant to outlive them: it is moved into `base` first.
 */
function sweepStale(base: string): void {
  let entries: string[];
  try {
    entries = readdirSync(base);
  } catch {
    return;
  }
  let others: boolean | undefined;
  for (const name of entries) {
    const m = /^hookwerk-(\d+)-[0-9a-f]+$/.exec(name);
    if (m === null || processAlive(Number(m[1]))) continue;
    const dir = path.join(base, name);
    others ??= otherNamespaces(base);
    if (others) {
      // Its engine may be alive in another pid namespace: only what is empty goes.
      removeCgroupTree(dir);
      continue;
    }
    for (const kept of subfolders(dir).filter((d) => d.startsWith('keep-'))) {
      moveOut(path.join(dir, kept), base);
    }
    killCgroupTree(dir);
    waitUntilEmpty(dir, SWEEP_WAIT_MS);
    removeCgroupTree(dir);
  }
}

/**
 * Whether a process of our cgroup lives in another pid namespace: one we cannot see (listed as 0),
 * or one whose pid differs in a namespace below ours. Its engine's pid then says nothing to us,
 * and a folder named after a pid that is dead here may be a live engine's.
 */
function otherNamespaces(base: string): boolean {
  for (const pid of pidsOf(path.join(base, 'cgroup.procs'))) {
    if (pid === 0) return true;
    try {
      const nspid = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (nspid !== undefined && nspid.trim().split(/\s+/).length > 1) return true;
    } catch {
      // exited meanwhile
    }
  }
  return false;
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

/**
 * Kills every process of cgroup `dir` and of the cgroups below it: one write to `cgroup.kill`
 * (v2, Linux ≥ 5.14), else frozen (v2 `cgroup.freeze`, v1 `freezer.state`) so that nothing forks
 * meanwhile, each listed process killed, thawed. Also used by the Node launcher.
 */
export function killCgroupTree(dir: string): void {
  if (tryWrite(path.join(dir, 'cgroup.kill'), '1')) return;
  const v2 = tryWrite(path.join(dir, 'cgroup.freeze'), '1');
  const v1 = !v2 && tryWrite(path.join(dir, 'freezer.state'), 'FROZEN');
  killListed(dir);
  if (v2) write(path.join(dir, 'cgroup.freeze'), '0');
  if (v1) write(path.join(dir, 'freezer.state'), 'THAWED');
}

function killListed(dir: string): void {
  for (const pid of pidsOf(path.join(dir, 'cgroup.procs'))) signalPid(pid, 'SIGKILL');
  for (const sub of subfolders(dir)) killListed(path.join(dir, sub));
}

/** Whether cgroup `dir` or one below it holds a process (v2 counts the subtree in `cgroup.events`). */
function treePopulated(dir: string): boolean {
  if (existsSync(path.join(dir, 'cgroup.events'))) return cgroupPopulated(path.join(dir, 'cgroup.procs'));
  return (
    cgroupPopulated(path.join(dir, 'cgroup.procs')) ||
    subfolders(dir).some((sub) => treePopulated(path.join(dir, sub)))
  );
}

/** Synchronous (engine start-up and close are): SIGKILLed processes are gone within milliseconds. */
function waitUntilEmpty(dir: string, ms: number): void {
  const deadline = performance.now() + ms;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (treePopulated(dir) && performance.now() < deadline) Atomics.wait(pause, 0, 0, 2);
}

/** Moves the processes of cgroup `dir` into cgroup `to` (they survive its removal), then removes it. */
function moveOut(dir: string, to: string): void {
  const target = path.join(to, 'cgroup.procs');
  for (let round = 0; round < MOVE_ROUNDS; round++) {
    const pids = pidsOf(path.join(dir, 'cgroup.procs'));
    if (pids.length === 0) break;
    for (const pid of pids) write(target, String(pid));
  }
  removeCgroup(dir);
}

function pidsOf(procs: string): number[] {
  try {
    return readFileSync(procs, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** A cgroup can only go once its children have: deepest first (a hook that ran hookwerk nests one). */
function removeCgroupTree(dir: string): void {
  let children: Dirent[];
  try {
    children = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const child of children) {
    if (child.isDirectory()) removeCgroupTree(path.join(dir, child.name));
  }
  removeCgroup(dir);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === 'EPERM';
  }
}

function tryCgroup2(): Containment | undefined {
  const mount = existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'))
    ? CGROUP_ROOT
    : existsSync(path.join(CGROUP_ROOT, 'unified', 'cgroup.procs'))
      ? path.join(CGROUP_ROOT, 'unified')
      : undefined;
  const own = ownCgroup('');
  if (mount === undefined || own === undefined) return undefined;
  const found = parentFor(mount, own);
  if (found === undefined) return undefined;
  return new CgroupContainment(found.kill ? 'cgroup2' : 'cgroup2-freeze', found.base, found.parent);
}

function tryFreezer(): Containment | undefined {
  const mount = path.join(CGROUP_ROOT, 'freezer');
  const own = ownCgroup('freezer');
  if (!existsSync(path.join(mount, 'tasks')) || own === undefined) return undefined;
  const found = parentFor(mount, own);
  return found === undefined ? undefined : new CgroupContainment('freezer', found.base, found.parent);
}

class GroupContainment implements Containment {
  readonly kind = 'pgroup';

  create(): RunContainer {
    return {
      procs: undefined,
      signal: (pgid, signal) => {
        if (pgid !== undefined) signalGroup(pgid, signal);
      },
      empty: (pgid) => !groupHasLiveMember(pgid),
      release() {},
    };
  }

  close(): void {}
}

/** Exported for tests, which run it over a plain folder on any host (cgroups or not). */
export class CgroupContainment implements Containment {
  readonly kind: ContainmentKind;
  /** The engine's own cgroup: where kept processes go when the engine closes. */
  readonly #base: string;
  readonly #parent: string;
  #next = 0;
  /** cgroups of `keepChildren` runs that still held processes when their run ended. */
  readonly #kept = new Set<string>();
  #made = false;

  constructor(kind: ContainmentKind, base: string, parent: string) {
    this.kind = kind;
    this.#base = base;
    this.#parent = parent;
  }

  /**
   * [X-PROC-2] A new name for every run, never one used before: the backend makes the folder
   * right before the start (`makeRunCgroup`, off the agent's event loop where it is a launcher)
   * and it is removed after the run. No pool: a cgroup that was ever `cgroup.kill`-ed kills every
   * process later cloned into it (CLONE_INTO_CGROUP, Linux 6.18 here), and any hook may write that
   * file — its own cgroup's, or a sibling's — so a reused one could carry a kill into later runs.
   */
  create(keepChildren: boolean): RunContainer {
    if (!this.#made) {
      try {
        mkdirSync(this.#parent, { recursive: true });
        this.#made = true;
      } catch {
        return new GroupContainment().create();
      }
    }
    // A kept process must outlive the run's cgroup: it stays until close() when not empty.
    const dir = `${this.#parent}/${keepChildren ? 'keep' : 'run'}-${++this.#next}`;
    return new CgroupRun(this.kind, dir, (empty) =>
      keepChildren ? this.#keep(dir, empty) : removeRunFolder(dir),
    );
  }

  /** A kept run's cgroup goes once empty; else it stays, with its processes, until close(). */
  #keep(dir: string, empty: boolean): boolean {
    if (!empty || !removeCgroup(dir)) this.#kept.add(dir);
    return true;
  }

  close(): void {
    if (!this.#made) return;
    // [X-PROC-2] Kept processes survive the engine: out of its folder, into its own cgroup.
    for (const dir of this.#kept) moveOut(dir, this.#base);
    this.#kept.clear();
    // Runs whose folder could not be removed yet (a process in uninterruptible sleep): last try.
    removeCgroupTree(this.#parent);
  }
}

class CgroupRun implements RunContainer {
  readonly procs: string;
  readonly #kind: ContainmentKind;
  readonly #dir: string;
  /** Lets go of the folder (`empty`: it holds no process); whether it is done with it. */
  readonly #letGo: (empty: boolean) => boolean;
  #released = false;

  constructor(kind: ContainmentKind, dir: string, letGo: (empty: boolean) => boolean) {
    this.#kind = kind;
    this.#dir = dir;
    this.#letGo = letGo;
    this.procs = `${dir}/cgroup.procs`;
  }

  signal(pgid: number | undefined, signal: 'SIGTERM' | 'SIGKILL'): void {
    if (pgid !== undefined) signalGroup(pgid, signal);
    if (signal === 'SIGKILL' && this.#kind === 'cgroup2') {
      write(path.join(this.#dir, 'cgroup.kill'), '1');
      return;
    }
    if (signal === 'SIGKILL') {
      // Frozen first, so that nothing forks between reading the list and killing it.
      this.#freeze(true);
      for (const pid of pidsOf(this.procs)) signalPid(pid, 'SIGKILL');
      this.#freeze(false);
      return;
    }
    for (const pid of pidsOf(this.procs)) signalPid(pid, signal);
  }

  /** Empty cgroup and empty group: a process that forked before it joined the cgroup is still in the group. */
  empty(pgid: number): boolean {
    return this.#cgroupEmpty() && !groupHasLiveMember(pgid);
  }

  #cgroupEmpty(): boolean {
    return !cgroupPopulated(this.procs);
  }

  /**
   * Removed, unless the launcher does after the exit; a cgroup still holding a process (stuck in D
   * state) is removed at close. Never reused [X-PROC-2].
   */
  release(known?: boolean, removed?: boolean): void {
    if (this.#released) return;
    // Removed by the launcher: no rmdir here (a failed one costs the agent's event loop ~20 µs).
    this.#released = removed === true || this.#letGo(known ?? this.#cgroupEmpty());
  }

  #freeze(on: boolean): void {
    if (this.#kind === 'freezer') write(path.join(this.#dir, 'freezer.state'), on ? 'FROZEN' : 'THAWED');
    else write(path.join(this.#dir, 'cgroup.freeze'), on ? '1' : '0');
  }
}

/**
 * [X-PROC-2] Makes the folder of a run's cgroup (`procs` is its `cgroup.procs`) right before the
 * run starts. Only a folder made here and now is used: one that exists already was not made for
 * this run (a hook can plant one under the next name, and kill it), so the run goes without a
 * cgroup (its process group still holds it). What every backend calls; the C launcher does the same.
 */
export function makeRunCgroup(procs: string): boolean {
  try {
    mkdirSync(path.dirname(procs));
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the folder of a run's cgroup once the run is over and nothing is in it, with the empty
 * cgroups a hook made below it (the C launcher does the same); whether it is gone.
 */
export function removeRunCgroup(procs: string): boolean {
  return removeRunFolder(path.dirname(procs));
}

/** rmdir of a run's cgroup, else of the tree it holds; whether it is gone. */
function removeRunFolder(dir: string): boolean {
  if (removeCgroup(dir)) return true;
  removeCgroupTree(dir);
  return !existsSync(dir);
}

/**
 * Whether the cgroup whose `cgroup.procs` is `procs` still holds a process: v2 says so in
 * `cgroup.events`, v1 lists them in `cgroup.procs`. A cgroup that is gone holds nothing.
 */
export function cgroupPopulated(procs: string): boolean {
  if (procs === '') return false;
  try {
    return !/^populated 0$/m.test(readFileSync(path.join(path.dirname(procs), 'cgroup.events'), 'utf8'));
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') return true;
  }
  try {
    return readFileSync(procs, 'utf8') !== '';
  } catch (err) {
    return errorCode(err) !== 'ENOENT';
  }
}

function write(file: string, text: string): void {
  tryWrite(file, text);
}

/** false when the file is not there (or refuses the write): the cgroup is gone, or lacks that file. */
function tryWrite(file: string, text: string): boolean {
  try {
    writeFileSync(file, text);
    return true;
  } catch {
    return false;
  }
}

/** rmdir of a cgroup folder; false while it still holds processes. */
function removeCgroup(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    return errorCode(err) === 'ENOENT';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone. EPERM: nothing more we are allowed to do.
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone
  }
}

/**
 * True while some process of the group is alive. Zombies do not count: where PID 1 does not reap
 * orphans (containers), `kill(-pgid, 0)` keeps succeeding for them forever.
 */
function groupHasLiveMember(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    if (errorCode(err) === 'ESRCH') return false;
  }
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // no /proc to tell zombies apart: trust kill(0)
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue; // not a pid directory
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // exited while we scanned
    }
    // `pid (comm) state ppid pgrp …`; comm may contain spaces and parens, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    const state = fields[0];
    if (Number(fields[2]) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}
