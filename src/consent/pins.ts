/**
 * Pins: what an approval remembers of each file it covers [L-TRUST-1, L-TRUST-5].
 *
 * A pin is the sha-256 (hex) of a file's bytes, `null` for a path pinned as absent, or one of
 * the markers below for paths whose content cannot be hashed. Nothing here ever blocks or reads
 * without bound: FIFOs are opened non-blocking and never read, huge files are not hashed.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { errorCode } from '../files/errno.ts';

/** Pin of a path that is a folder: its presence is pinned, not what it holds. */
export const PIN_DIRECTORY = 'directory';
/** Pin of a FIFO, socket or device: present, never read (reading could block). */
export const PIN_SPECIAL = 'special';
/** Pin of a path that exists but cannot be read (or is too large to hash): it cannot be approved. */
export const PIN_UNREADABLE = 'unreadable';

export type FilePin = string | null;
/** Absolute path → pin, keys sorted. */
export type Fingerprint = Record<string, FilePin>;

/** Larger files are not hashed: they pin as unreadable, so they cannot be approved. */
export const MAX_PINNED_FILE_BYTES = 64 * 1024 * 1024;
/** At most this many files are pinned under one hook folder; more make the folder unapprovable. */
export const MAX_FOLDER_FILES = 2000;
const CHUNK = 1024 * 1024;

/** The pin of one path (symlinks followed): sha-256 of its bytes, `null` when absent, or a marker. */
export function pinOf(file: string): FilePin {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP') return null;
    return PIN_UNREADABLE;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return PIN_DIRECTORY;
    if (!stat.isFile()) return PIN_SPECIAL;
    if (stat.size > MAX_PINNED_FILE_BYTES) return PIN_UNREADABLE;
    return hashFd(fd);
  } catch {
    return PIN_UNREADABLE;
  } finally {
    closeSync(fd);
  }
}

/** Hashes at most MAX_PINNED_FILE_BYTES; a file that grew past that while read is unreadable. */
function hashFd(fd: number): string {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  let total = 0;
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, null);
    if (n === 0) return hash.digest('hex');
    total += n;
    if (total > MAX_PINNED_FILE_BYTES) return PIN_UNREADABLE;
    hash.update(buf.subarray(0, n));
  }
}

/** sha-256 (hex) of a text's UTF-8 bytes: the pin of a file holding exactly that text. */
export function pinOfText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Pins computed again only when a file's identity or times change: a gate re-checks every pin
 * right before each project hook runs, and a stat is far cheaper than a hash. The change time
 * (`ctime`) moves on every write and cannot be set back from user space.
 */
export class PinCache {
  readonly #pins = new Map<string, { key: string; pin: FilePin }>();

  pin(file: string): FilePin {
    let key: string;
    try {
      const s = statSync(file, { bigint: true });
      key = `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`;
    } catch (err) {
      this.#pins.delete(file);
      const code = errorCode(err);
      return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG'
        ? null
        : PIN_UNREADABLE;
    }
    const cached = this.#pins.get(file);
    if (cached !== undefined && cached.key === key) return cached.pin;
    const pin = pinOf(file);
    if (this.#pins.size >= 10_000) this.#pins.clear();
    this.#pins.set(file, { key, pin });
    return pin;
  }
}

/** Interpreters write these on first run: pinning them would void every approval of a Python hook. */
function ignoredEntry(entry: Dirent): boolean {
  return (entry.isDirectory() && entry.name === '__pycache__') || entry.name.endsWith('.pyc');
}

/**
 * [L-TRUST-5] Every file under a hook folder, recursively, sorted. Symlinks are listed (their pin
 * follows them) but never descended into, so a link cannot pull a whole tree (or a loop) in.
 * Beyond MAX_FOLDER_FILES the folder itself is listed as `overflow`: it cannot be approved.
 */
export function folderFiles(folder: string): { files: string[]; overflow: boolean } {
  const files: string[] = [];
  const pending = [folder];
  while (pending.length > 0) {
    const dir = pending.pop() ?? folder;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // missing, or not a folder: nothing under it to pin
    }
    for (const entry of entries) {
      if (ignoredEntry(entry)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else files.push(full);
      if (files.length > MAX_FOLDER_FILES) return { files: files.sort(), overflow: true };
    }
  }
  return { files: files.sort(), overflow: false };
}

/** Pinned paths whose pins differ between two fingerprints (added, removed or modified), sorted. */
export function fingerprintChanges(before: Fingerprint, after: Fingerprint): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter((k) => !Object.hasOwn(before, k) || !Object.hasOwn(after, k) || before[k] !== after[k])
    .sort();
}

/** True when `p` exists and is a folder (symlinks followed). */
export function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
