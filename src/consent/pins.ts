/**
 * Pins: what an approval remembers of each file it covers [L-TRUST-1, L-TRUST-5].
 *
 * A pin is the sha-256 (hex) of a file's bytes, `null` for a path pinned as absent, or one of
 * the markers below for paths whose content cannot be hashed. Nothing here ever blocks or reads
 * without bound: FIFOs are opened non-blocking and never read, huge files are not hashed.
 */
import { createHash } from 'node:crypto';
import {
  type BigIntStats,
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { errorCode } from '../core/errno.ts';
import { isInside } from '../core/real-path.ts';

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
const MAX_PINNED_FILE_BYTES = 64 * 1024 * 1024;
/** At most this many files are pinned under one hook folder; more make the folder unapprovable. */
const MAX_FOLDER_FILES = 2000;
const CHUNK = 1024 * 1024;

/** The pin of one path (symlinks followed): sha-256 of its bytes, `null` when absent, or a marker. */
export function pinOf(file: string): FilePin {
  return observe(file).pin;
}

/**
 * The pin of one path, and the stat key of the very file that was hashed (from the open
 * descriptor, so a swap between a `stat` and the read cannot pair one file's key with another's
 * content). `key` is undefined when nothing could be opened.
 */
function observe(file: string): { pin: FilePin; key?: string } {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP')
      return { pin: null };
    return { pin: PIN_UNREADABLE };
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    const key = statKey(stat);
    if (stat.isDirectory()) return { pin: PIN_DIRECTORY, key };
    if (!stat.isFile()) return { pin: PIN_SPECIAL, key };
    if (stat.size > MAX_PINNED_FILE_BYTES) return { pin: PIN_UNREADABLE, key };
    return { pin: hashFd(fd), key };
  } catch {
    return { pin: PIN_UNREADABLE };
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

  /**
   * `identity`, when given, is `identityOf(file)` taken just now: for a file that is not a link it
   * is the stat key, so the file is not stat'ed a second time.
   */
  pin(file: string, identity?: string): FilePin {
    if (identity === 'absent') {
      this.#pins.delete(file);
      return null;
    }
    let key: string;
    if (identity !== undefined && identity !== 'unknown' && !identity.includes('>')) key = identity;
    else
      try {
        key = statKey(statSync(file, { bigint: true }));
      } catch (err) {
        this.#pins.delete(file);
        const code = errorCode(err);
        return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG'
          ? null
          : PIN_UNREADABLE;
      }
    const cached = this.#pins.get(file);
    if (cached !== undefined && cached.key === key) return cached.pin;
    const seen = observe(file);
    if (this.#pins.size >= 10_000) this.#pins.clear();
    // Cached under the key of what was hashed: if the path changed since the stat above, the next
    // check sees a key that differs and hashes again.
    if (seen.key !== undefined) this.#pins.set(file, { key: seen.key, pin: seen.pin });
    else this.#pins.delete(file);
    return seen.pin;
  }
}

/**
 * Python writes `__pycache__/` on first run: pinning it would void every approval of a Python
 * hook. It is never read either: hook processes get `PYTHONDONTWRITEBYTECODE` and a private
 * `PYTHONPYCACHEPREFIX` [L-TRUST-10], so a forged `.pyc` there cannot replace a script. A `.pyc`
 * anywhere else is a file like any other: Python imports `mod.pyc` beside a script that has no
 * `mod.py` [L-TRUST-8].
 */
function ignoredEntry(entry: Dirent): boolean {
  return entry.isDirectory() && entry.name === '__pycache__';
}

/** What `folderFiles` read of each folder, by path, so an unchanged folder is not read again. */
export type FolderListings = Map<string, { identity: string; entries: Dirent[] }>;

interface FolderListing {
  /** Every file under the folder, links to folders followed, by the path the hook would use. Sorted. */
  files: string[];
  /** The folders walked (the folder itself first, then those below it, linked ones too). */
  folders: string[];
  /** What each of `folders` was, taken before it was read [L-TRUST-8]. */
  folderMarks: FolderMark[];
  /** Symlinks met on the way whose target lies outside `within` (for the review) [L-TRUST-10]. */
  outsideLinks: Array<{ link: string; target: string }>;
  /** More than MAX_FOLDER_FILES files: the folder cannot be approved. */
  overflow: boolean;
}

/**
 * [L-TRUST-5, L-TRUST-10] Every file under a hook folder, recursively, sorted. A symlink to a
 * folder is followed and what it reaches is listed file by file under the link's path (the path a
 * hook uses), each real folder once, so a loop ends; a link to a file is listed and its pin
 * follows it. Links whose target lies outside `within` are reported. Beyond MAX_FOLDER_FILES the
 * listing stops with `overflow`: the folder cannot be approved. With `listings`, a folder whose
 * identity did not change since it was read is not read again.
 */
export function folderFiles(folder: string, within?: string, listings?: FolderListings): FolderListing {
  const listing: FolderListing = {
    files: [],
    folders: [],
    folderMarks: [],
    outsideLinks: [],
    overflow: false,
  };
  // Folders met, by device and inode: where a link was followed, a loop ends there (a plain
  // folder tree has none, so only those under a link are looked up).
  const seen = new Set<string>();
  const pending: Array<{ dir: string; linked: boolean }> = [{ dir: folder, linked: true }];
  while (pending.length > 0) {
    const { dir, linked } = pending.pop() ?? { dir: folder, linked: true };
    // Before reading it: an entry made after the read moves the folder's times past this.
    const seenNow = statPath(dir);
    const identity = identityOfStat(seenNow);
    if (identity === 'absent' || identity === 'unknown') continue;
    if (linked) {
      const inode = inodeOfIdentity(identity);
      if (seen.has(inode)) continue;
      seen.add(inode);
    }
    // A folder whose identity is the same has the same entries: any entry made, removed or
    // renamed in it moves its times.
    const known = listings?.get(dir);
    let entries: Dirent[];
    if (known !== undefined && known.identity === identity) entries = known.entries;
    else {
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue; // not a folder: nothing under it to pin
      }
      if (listings !== undefined) {
        if (listings.size >= MAX_FOLDER_FILES) listings.clear();
        listings.set(dir, { identity, entries });
      }
    }
    listing.folders.push(dir);
    listing.folderMarks.push(folderMarkOfStat(seenNow));
    for (const entry of entries) {
      if (ignoredEntry(entry)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = linkTarget(full);
        if (within !== undefined && target !== undefined && !isInside(within, target))
          listing.outsideLinks.push({ link: full, target });
        if (target !== undefined && isFolder(full)) {
          pending.push({ dir: full, linked: true });
          continue;
        }
      }
      if (entry.isDirectory()) pending.push({ dir: full, linked });
      else listing.files.push(full);
      if (listing.files.length > MAX_FOLDER_FILES) {
        listing.overflow = true;
        pending.length = 0;
        break;
      }
    }
  }
  listing.files.sort();
  return listing;
}

function linkTarget(link: string): string | undefined {
  try {
    return realpathSync(link);
  } catch {
    return undefined; // dangling: listed as a file, pinned as absent
  }
}

/** What `lstat` says of a path, and `stat` of what it names when it is a symlink. */
interface PathStat {
  own: BigIntStats | 'absent' | 'unknown';
  target?: BigIntStats | 'absent' | 'unknown';
}

function statPath(file: string): PathStat {
  const own = statOrMissing(file, lstatSync);
  if (typeof own === 'string' || !own.isSymbolicLink()) return { own };
  return { own, target: statOrMissing(file, statSync) };
}

/**
 * What a path is right now, in one string: device, inode, size, times and mode of what it names
 * (of the link itself and of its target, for a symlink), `absent`, or `unknown`. Any write,
 * rename, link or `chmod` moves the change time, which user space cannot set back, so two equal
 * identities of a file taken before and after a run mean nothing was swapped in between
 * [L-TRUST-8]. (A folder is compared by its `FolderMark` instead.)
 */
export function identityOf(file: string): string {
  return identityOfStat(statPath(file));
}

function identityOfStat(seen: PathStat): string {
  if (typeof seen.own === 'string') return seen.own;
  const key = statKey(seen.own);
  if (seen.target === undefined) return key;
  return `${key}>${typeof seen.target === 'string' ? seen.target : statKey(seen.target)}`;
}

/**
 * [L-TRUST-8] A folder as a run's watch remembers it: which folder is at the path (device, inode
 * and mode; for a symlink, the link itself too), and its change time — never its modification
 * time: entries made, removed or renamed in it (a hook's log or state file) move that, and must
 * not void a run.
 */
export interface FolderMark {
  /** `absent`, `unknown`, or `[<link's stat key>>]dev:ino:mode` of the folder. */
  id: string;
  /** `dev:ino` of the folder (the link's target), `absent` or `unknown`. */
  inode: string;
  ctimeNs: bigint;
  mtimeNs: bigint;
}

export function folderMarkOf(dir: string): FolderMark {
  return folderMarkOfStat(statPath(dir));
}

function folderMarkOfStat(seen: PathStat): FolderMark {
  const named = seen.target ?? seen.own;
  const link = seen.target !== undefined && typeof seen.own !== 'string' ? `${statKey(seen.own)}>` : '';
  if (typeof named === 'string') return { id: `${link}${named}`, inode: named, ctimeNs: 0n, mtimeNs: 0n };
  return {
    id: `${link}${named.dev}:${named.ino}:${named.mode}`,
    inode: `${named.dev}:${named.ino}`,
    ctimeNs: named.ctimeNs,
    mtimeNs: named.mtimeNs,
  };
}

/**
 * [L-TRUST-8] The folder at a path (`now`) is still the one `before` saw, and only entries made,
 * removed or renamed in it changed it since. Such a change sets the modification and change times to one same
 * instant; a rename or `chmod` of the folder itself moves the change time alone. So a change time
 * that moved to where the modification time is not means the folder itself was renamed (away and
 * back) or changed. A folder absent before is no pinned entry: what the approval pins under it is
 * watched on its own.
 */
export function sameFolder(before: FolderMark, now: FolderMark): boolean {
  if (before.id === 'absent') return true;
  if (now.id !== before.id) return false;
  return now.ctimeNs === before.ctimeNs || now.ctimeNs === now.mtimeNs;
}

/** The stat of a path, `absent` when nothing is there (or a parent is no folder), else `unknown`. */
function statOrMissing(file: string, stat: typeof statSync): BigIntStats | 'absent' | 'unknown' {
  try {
    return stat(file, { bigint: true, throwIfNoEntry: false }) ?? 'absent';
  } catch (err) {
    const code = errorCode(err);
    return code === 'ENOTDIR' || code === 'ENOENT' || code === 'ENAMETOOLONG' ? 'absent' : 'unknown';
  }
}

/** `dev:ino` of what an identity names (the link's target, for a link). */
function inodeOfIdentity(identity: string): string {
  const named = identity.slice(identity.lastIndexOf('>') + 1);
  const [dev, ino] = named.split(':');
  return `${dev}:${ino}`;
}

function statKey(s: BigIntStats): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`;
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
