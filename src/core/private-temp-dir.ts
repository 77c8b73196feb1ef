/**
 * The engine's private folder for payload files [P-PAY-2]: one file is written and removed per
 * hook run, so it lives in memory (tmpfs) when the host offers one we may use, else in the OS
 * temp folder.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where to look, in order. `env` is the engine's environment (tests pass their own). */
interface PrivateTempDirOptions {
  env?: NodeJS.ProcessEnv;
  /** The shared memory folder; default `/dev/shm`. */
  shm?: string;
  /** The last resort; default `os.tmpdir()`. */
  fallback?: string;
}

/**
 * Creates a fresh folder (mode 0700, random name starting with `prefix`) under the first of
 * `$XDG_RUNTIME_DIR`, `/dev/shm` that can take one, else under the OS temp folder (whose errors
 * are thrown). Returns its path; the caller removes it.
 */
export function makePrivateTempDir(prefix: string, opts: PrivateTempDirOptions = {}): string {
  const env = opts.env ?? process.env;
  for (const parent of [env.XDG_RUNTIME_DIR, opts.shm ?? '/dev/shm']) {
    if (parent === undefined || !isSafeParent(parent)) continue;
    try {
      return mkdtempSync(path.join(parent, prefix));
    } catch {
      // Full, read-only or not ours after all: the next candidate will do.
    }
  }
  return mkdtempSync(path.join(opts.fallback ?? tmpdir(), prefix));
}

/**
 * A parent nobody else can tamper with: an absolute folder owned by us or by root, that others
 * cannot write to, or only with the sticky bit (`/dev/shm`, like `/tmp`: nobody else can rename
 * or delete our folder there). A runtime folder inherited from another user (sudo keeps
 * `XDG_RUNTIME_DIR`) is refused: its owner could swap our folder for a symlink to theirs.
 */
function isSafeParent(dir: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined || !path.isAbsolute(dir)) return false;
  try {
    const st = statSync(dir);
    const owned = st.uid === uid || st.uid === 0;
    const othersCannotSwap = (st.mode & 0o022) === 0 || (st.mode & STICKY) !== 0;
    return st.isDirectory() && owned && othersCannotSwap;
  } catch {
    return false;
  }
}

const STICKY = 0o1000;

/**
 * A private temp folder made at first use: an engine that never writes a payload file leaves
 * nothing behind, even when its process dies without closing it.
 */
export class LazyPrivateTempDir {
  readonly #prefix: string;
  #dir: string | undefined;

  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** The folder, made now if this is the first call (errors of the last resort are thrown). */
  path(): string {
    if (this.#dir === undefined) this.#dir = makePrivateTempDir(this.#prefix);
    return this.#dir;
  }

  /** Removes the folder and what is in it; a later `path()` makes a fresh one. */
  remove(): void {
    if (this.#dir === undefined) return;
    rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }
}
