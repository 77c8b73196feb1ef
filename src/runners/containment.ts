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
 *   group) escapes it — the README says so.
 * The child joins its cgroup before exec (the C launcher) or right after it starts (the Node
 * launcher, the direct fallback: a process it forks in that first instant can escape).
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
import { errorCode } from '../files/errno.ts';

export type ContainmentKind = 'cgroup2' | 'cgroup2-freeze' | 'freezer' | 'pgroup';

/** The container of one run. */
export interface RunContainer {
  /** `cgroup.procs` (or v1 `cgroup.procs`) the child joins; undefined for the process group. */
  readonly procs: string | undefined;
  /** Sends `signal` to every process of the run: its group (when its pid is known), and all of its cgroup. */
  signal(pgid: number | undefined, signal: 'SIGTERM' | 'SIGKILL'): void;
  /** No live process of the run remains (in its group, nor in its cgroup). */
  empty(pgid: number): boolean;
  /** Lets go of the cgroup once empty; `empty`: already known to be empty. */
  release(empty?: boolean): void;
}

export interface Containment {
  readonly kind: ContainmentKind;
  /** A container for a new run; `keepChildren` runs get only their process group. */
  create(keepChildren: boolean): RunContainer;
  /** Removes the engine's cgroup folder (its runs' folders must be gone). */
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
function parentFor(mount: string, own: string): { parent: string; kill: boolean } | undefined {
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
  return { parent: path.join(base, `hookwerk-${process.pid}-${randomBytes(4).toString('hex')}`), kill };
}

/** Removes `hookwerk-<pid>-*` folders of processes that are gone (their empty run cgroups first). */
function sweepStale(base: string): void {
  let entries: string[];
  try {
    entries = readdirSync(base);
  } catch {
    return;
  }
  for (const name of entries) {
    const m = /^hookwerk-(\d+)-[0-9a-f]+$/.exec(name);
    if (m === null || processAlive(Number(m[1]))) continue;
    removeCgroupTree(path.join(base, name));
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
  return new CgroupContainment(found.kill ? 'cgroup2' : 'cgroup2-freeze', found.parent);
}

function tryFreezer(): Containment | undefined {
  const mount = path.join(CGROUP_ROOT, 'freezer');
  const own = ownCgroup('freezer');
  if (!existsSync(path.join(mount, 'tasks')) || own === undefined) return undefined;
  const found = parentFor(mount, own);
  return found === undefined ? undefined : new CgroupContainment('freezer', found.parent);
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

/** Empty run cgroups kept for the next runs: a mkdir and an rmdir on cgroupfs cost ~60 µs a run. */
const POOL_SIZE = 16;

class CgroupContainment implements Containment {
  readonly kind: ContainmentKind;
  readonly #parent: string;
  #next = 0;
  readonly #pool: string[] = [];
  #made = false;

  constructor(kind: ContainmentKind, parent: string) {
    this.kind = kind;
    this.#parent = parent;
  }

  create(keepChildren: boolean): RunContainer {
    // A process that must outlive its run cannot live in the run's cgroup (it is removed).
    if (keepChildren) return new GroupContainment().create();
    let dir = this.#pool.pop();
    if (dir === undefined) {
      dir = `${this.#parent}/run-${++this.#next}`;
      try {
        if (!this.#made) mkdirSync(this.#parent, { recursive: true });
        this.#made = true;
        mkdirSync(dir);
      } catch {
        return new GroupContainment().create();
      }
    }
    return new CgroupRun(this.kind, dir, (empty) => this.#recycle(empty));
  }

  /** An emptied run cgroup goes back to the pool (or away, when the pool is full). */
  #recycle(dir: string): boolean {
    if (this.#pool.length < POOL_SIZE) {
      this.#pool.push(dir);
      return true;
    }
    return removeCgroup(dir);
  }

  close(): void {
    this.#pool.length = 0;
    if (!this.#made) return;
    // Runs whose folder could not be removed yet (a process in uninterruptible sleep): last try.
    removeCgroupTree(this.#parent);
  }
}

class CgroupRun implements RunContainer {
  readonly procs: string;
  readonly #kind: ContainmentKind;
  readonly #dir: string;
  readonly #recycle: (dir: string) => boolean;
  #released = false;

  constructor(kind: ContainmentKind, dir: string, recycle: (dir: string) => boolean) {
    this.#kind = kind;
    this.#dir = dir;
    this.#recycle = recycle;
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
      for (const pid of this.#pids()) signalPid(pid, 'SIGKILL');
      this.#freeze(false);
      return;
    }
    for (const pid of this.#pids()) signalPid(pid, signal);
  }

  /** Empty cgroup and empty group: a process that forked before it joined the cgroup is still in the group. */
  empty(pgid: number): boolean {
    return this.#cgroupEmpty() && !groupHasLiveMember(pgid);
  }

  #cgroupEmpty(): boolean {
    return !cgroupPopulated(this.procs);
  }

  /** Back to the pool once empty; a cgroup still holding a process (stuck in D state) is removed at close. */
  release(known?: boolean): void {
    if (this.#released) return;
    this.#released = (known ?? this.#cgroupEmpty()) ? this.#recycle(this.#dir) : removeCgroup(this.#dir);
  }

  #pids(): number[] {
    try {
      return readFileSync(this.procs, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map(Number);
    } catch {
      return [];
    }
  }

  #freeze(on: boolean): void {
    if (this.#kind === 'freezer') write(path.join(this.#dir, 'freezer.state'), on ? 'FROZEN' : 'THAWED');
    else write(path.join(this.#dir, 'cgroup.freeze'), on ? '1' : '0');
  }
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
  try {
    writeFileSync(file, text);
  } catch {
    // The cgroup is gone (its processes too).
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
export function groupHasLiveMember(pgid: number): boolean {
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
