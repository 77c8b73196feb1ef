import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `text` to `file` so that a reader sees either the old content or the new one, never a
 * mix: a temp file in the same folder, fsync, rename over, fsync the folder. The file keeps its
 * permission bits (new files get `mode`). A symlinked file is written through: the link stays
 * and its target is replaced (so a hooks.json kept in a dotfiles repo stays linked).
 *
 * `beforeRename` runs after the temp file is durable and right before the rename; returning
 * false abandons the write (the temp file is removed) and makes this resolve to false.
 */
export async function writeFileAtomic(
  file: string,
  text: string,
  opts: { mode?: number; beforeRename?: () => Promise<boolean> } = {},
): Promise<boolean> {
  const target = await resolveLink(file);
  const dir = path.dirname(target);
  let mode = opts.mode ?? 0o644;
  try {
    mode = (await stat(target)).mode & 0o7777;
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
  }
  const tmp = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  let renamed = false;
  try {
    const fh = await open(tmp, 'wx', mode);
    try {
      await fh.writeFile(text, 'utf8');
      // open() applies the umask: set the bits the old file had, exactly.
      await fh.chmod(mode);
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (opts.beforeRename !== undefined && !(await opts.beforeRename())) return false;
    await rename(tmp, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(tmp).catch(() => {});
  }
  await syncDir(dir);
  return true;
}

/** A private folder (0700), created when missing. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** The file's text, or undefined when it does not exist. */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return undefined;
    throw err;
  }
}

async function resolveLink(file: string): Promise<string> {
  try {
    if ((await lstat(file)).isSymbolicLink()) return await realpath(file);
  } catch (err) {
    // A dangling link: write where it points would need the target folder; write the link path itself.
    if (!isErrno(err, 'ENOENT')) throw err;
  }
  return file;
}

async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Not supported everywhere; the rename is already done.
  }
}

export function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === code;
}
