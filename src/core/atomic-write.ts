/**
 * The one atomic file writer: a reader sees either the old content or the new one, never a mix.
 * Temp file in the same folder, fsync, rename over, fsync the folder. Synchronous on purpose:
 * every caller writes a small file (≤ a few MiB) and wants it durable before going on.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { isErrno } from './errno.ts';

interface AtomicWriteOptions {
  /** Mode of a new file (an existing file keeps its own permission bits). Default 0o644. */
  mode?: number;
  /** Create the folder with mode 0700 when missing (stores of secrets and approvals). */
  privateDir?: boolean;
  /** Runs after the temp file is durable, right before the rename; false abandons the write. */
  beforeRename?: () => boolean;
  /** Write through a symlinked file (default), or replace the link itself (`false`). */
  followSymlink?: boolean;
}

/**
 * Writes `text` (or bytes) to `file` atomically; resolves symlinks so that a linked file (a
 * hooks.json kept in a dotfiles repo) stays linked and its target is replaced. Returns false when
 * `beforeRename` abandoned the write. Throws on I/O errors, leaving no temp file behind.
 */
export function writeFileAtomic(
  file: string,
  text: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): boolean {
  const target = opts.followSymlink === false ? file : resolveLink(file);
  const dir = path.dirname(target);
  if (opts.privateDir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  let mode = opts.mode ?? 0o644;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
  }
  const tmp = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  let renamed = false;
  try {
    const fd = openSync(tmp, 'wx', mode);
    try {
      writeSync(fd, typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
      // open() applies the umask: set the bits the old file had, exactly.
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (opts.beforeRename !== undefined && !opts.beforeRename()) return false;
    renameSync(tmp, target);
    renamed = true;
  } finally {
    if (!renamed) removeQuietly(tmp);
  }
  syncDir(dir);
  return true;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // never created, or already gone
  }
}

function resolveLink(file: string): string {
  try {
    if (lstatSync(file).isSymbolicLink()) return realpathSync(file);
  } catch (err) {
    // A dangling link: writing where it points would need the target folder; write the link path itself.
    if (!isErrno(err, 'ENOENT')) throw err;
  }
  return file;
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported everywhere; the rename is already done.
  }
}
