import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { projectPathsOf } from '../sources/command-words.ts';
import { parseJsonText } from '../sources/issues.ts';
import { type LurusConfig, lurusDir } from '../sources/lurus-source.ts';

/**
 * [L-TRUST-1] Consent for project hooks.
 *
 * `~/.lurus/trust.json` maps the real path of each approved project to what was approved:
 * `{ "<real project path>": { "approvedAt": ISO, "files": { "<abs path>": PIN } } }`.
 * A PIN is the sha-256 (hex) of the file's bytes, `null` for a path pinned as absent, or one
 * of the markers below for paths whose content cannot be hashed.
 */

/** Pin of a path that is a folder: its presence is pinned, not what it holds. */
export const PIN_DIRECTORY = 'directory';
/** Pin of a FIFO, socket or device: present, never read (reading could block). */
export const PIN_SPECIAL = 'special';
/** Pin of a path that exists but cannot be read: such a project cannot be trusted. */
export const PIN_UNREADABLE = 'unreadable';

export type FilePin = string | null;
/** Absolute path (under the project's real path) → pin, keys sorted. */
export type Fingerprint = Record<string, FilePin>;

const pinSchema = z
  .union([
    z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha-256 hex digest'),
    z.literal(PIN_DIRECTORY),
    z.literal(PIN_SPECIAL),
    z.literal(PIN_UNREADABLE),
  ])
  .nullable();

const entrySchema = z.looseObject({
  approvedAt: z.iso.datetime(),
  files: z.record(z.string(), pinSchema),
});

const storeSchema = z.record(z.string(), entrySchema);

export type TrustEntry = z.infer<typeof entrySchema>;

export interface TrustStore {
  file: string;
  /** Approved projects by real path; empty when the store is missing or unusable. */
  projects: Record<string, TrustEntry>;
  /** One line, set when the store exists but cannot be read or is not valid: nothing is approved. */
  problem?: string;
}

export interface TrustCheck {
  trusted: boolean;
  /** One line: `no project hooks`, `approved <ISO>`, `not approved`, `<path> changed since approval`… */
  reason: string;
  /** Pinned paths that differ from the approval (added, removed or modified), sorted; empty without one. */
  changed: string[];
  /** The approval on record for this project, if any (even a stale one). */
  approved?: TrustEntry;
  /** Set when the store could not be used (then nothing is approved). */
  problem?: string;
}

export function trustStorePath(home: string): string {
  return path.join(lurusDir(home), 'trust.json');
}

/** The key of a project in the store: its real path (the resolved path when it does not exist). */
export function projectKey(projectDir: string): string {
  const resolved = path.resolve(projectDir);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}

/** Reads and validates the store. Never throws: an unusable store approves nothing and says why. */
export function readTrustStore(home: string): TrustStore {
  const file = trustStorePath(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return { file, projects: {} };
    return { file, projects: {}, problem: `${file}: cannot read the trust store: ${errorMessage(err)}` };
  }
  const parsed = parseJsonText(file, text);
  if (!parsed.ok) return { file, projects: {}, problem: `${file}: trust store: ${parsed.issue.message}` };
  const result = storeSchema.safeParse(parsed.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? issue.path.map(String).join('.') : '';
    const message = (issue?.message ?? 'invalid').replace(/\s*\n\s*/g, ' ');
    return {
      file,
      projects: {},
      problem: `${file}: invalid trust store${where ? ` at ${where}` : ''}: ${message}`,
    };
  }
  return { file, projects: result.data };
}

/**
 * What an approval pins [L-TRUST-1]: the project sources (`.lurus/hooks.json`,
 * `.lurus/settings.json`, absent ones as `null`) and every project path a project command hook
 * refers to. Keys are absolute paths under the project's real path, so a project reached through
 * a symlink has the same fingerprint as through its real path.
 */
export function projectFingerprint(config: LurusConfig): Fingerprint {
  const given = path.resolve(config.projectDir);
  const real = projectKey(given);
  const bases = given === real ? [given] : [given, real];
  const keys = new Set<string>();
  const underReal = (abs: string, base: string) => path.join(real, path.relative(base, abs));

  for (const source of config.sources) {
    if (source.scope === 'project') keys.add(underReal(source.file, given));
  }
  for (const hook of config.all) {
    if (hook.scope !== 'project' || hook.kind !== 'command') continue;
    // Both bases: an absolute word naming the project by either path is inside it.
    for (const base of bases) {
      for (const p of projectPathsOf(hook.command, base)) keys.add(underReal(p, base));
    }
  }
  const out: Fingerprint = {};
  for (const key of [...keys].sort()) out[key] = pinOf(key);
  return out;
}

/** The pin of one path: sha-256 of its bytes, `null` when absent, or a marker. */
export function pinOf(file: string): FilePin {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP') return null;
    return PIN_UNREADABLE;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return PIN_DIRECTORY;
    if (!stat.isFile()) return PIN_SPECIAL;
    return createHash('sha256').update(readFileSync(fd)).digest('hex');
  } catch {
    return PIN_UNREADABLE;
  } finally {
    closeSync(fd);
  }
}

/** Pinned paths whose pins differ between two fingerprints (added, removed or modified), sorted. */
export function fingerprintChanges(before: Fingerprint, after: Fingerprint): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter((k) => !Object.hasOwn(before, k) || !Object.hasOwn(after, k) || before[k] !== after[k])
    .sort();
}

export function hasProjectHooks(config: LurusConfig): boolean {
  return config.all.some((h) => h.scope === 'project');
}

/**
 * [L-TRUST-1] Whether the project hooks of `config` may run: there are none, or the store holds an
 * approval for the project's real path whose pins equal the current fingerprint exactly.
 * Reads the store and the pinned files (a few small reads); never throws.
 */
export function checkTrust(config: LurusConfig, fingerprint?: Fingerprint): TrustCheck {
  if (!hasProjectHooks(config)) return { trusted: true, reason: 'no project hooks', changed: [] };
  const current = fingerprint ?? projectFingerprint(config);
  const store = readTrustStore(config.home);
  const key = projectKey(config.projectDir);
  const approved = Object.hasOwn(store.projects, key) ? store.projects[key] : undefined;
  const extra = {
    ...(approved ? { approved } : {}),
    ...(store.problem !== undefined ? { problem: store.problem } : {}),
  };
  const unreadable = Object.keys(current).filter((k) => current[k] === PIN_UNREADABLE);
  if (unreadable.length > 0) {
    const changed = approved ? fingerprintChanges(approved.files, current) : [];
    return {
      trusted: false,
      reason: `cannot read ${describePaths(key, unreadable)}, so it cannot be pinned`,
      changed,
      ...extra,
    };
  }
  if (!approved) {
    return {
      trusted: false,
      reason: store.problem !== undefined ? 'not approved (the trust store is unusable)' : 'not approved',
      changed: [],
      ...extra,
    };
  }
  const changed = fingerprintChanges(approved.files, current);
  if (changed.length > 0) {
    return {
      trusted: false,
      reason: `${describePaths(key, changed)} changed since approval`,
      changed,
      ...extra,
    };
  }
  return { trusted: true, reason: `approved ${approved.approvedAt}`, changed: [], ...extra };
}

export interface ApproveResult {
  file: string;
  entry: TrustEntry;
  /** Where an unusable store was moved before writing a fresh one. */
  backup?: string;
}

/**
 * Records consent for the project: `fingerprint` (default: the current one) under its real path.
 * Pass the fingerprint taken when the review was shown, so what is approved is what was seen.
 * Other projects' approvals are kept; an unusable store is moved aside (`trust.json.corrupt-<ms>`).
 * Throws on I/O errors.
 */
export function approveProject(config: LurusConfig, fingerprint?: Fingerprint): ApproveResult {
  const files = fingerprint ?? projectFingerprint(config);
  const store = readTrustStore(config.home);
  const backup = store.problem !== undefined ? moveAside(store.file) : undefined;
  const entry: TrustEntry = { approvedAt: new Date().toISOString(), files };
  writeTrustStore(config.home, { ...store.projects, [projectKey(config.projectDir)]: entry });
  return { file: store.file, entry, ...(backup !== undefined ? { backup } : {}) };
}

/** Removes the project's approval; `false` when there was none. Throws on I/O errors. */
export function revokeProject(config: LurusConfig): boolean {
  const store = readTrustStore(config.home);
  const key = projectKey(config.projectDir);
  if (!Object.hasOwn(store.projects, key)) return false;
  const { [key]: _removed, ...rest } = store.projects;
  writeTrustStore(config.home, rest);
  return true;
}

/** Atomic write: temp file in the same folder (0600) + fsync + rename; the folder is made 0700. */
export function writeTrustStore(home: string, projects: Record<string, TrustEntry>): void {
  const file = trustStorePath(home);
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const sorted: Record<string, TrustEntry> = {};
  for (const key of Object.keys(projects).sort()) sorted[key] = projects[key]!;
  const text = `${JSON.stringify(sorted, null, 2)}\n`;
  const tmp = path.join(dir, `.trust.json.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already renamed or never created
    }
    throw err;
  }
  syncDir(dir);
}

function moveAside(file: string): string | undefined {
  const backup = `${file}.corrupt-${Date.now()}`;
  try {
    renameSync(file, backup);
    return backup;
  } catch {
    return undefined;
  }
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

function describePaths(root: string, paths: string[]): string {
  const shown = paths.slice(0, 3).map((p) => path.relative(root, p) || '.');
  return paths.length > 3 ? `${shown.join(', ')} and ${paths.length - 3} more` : shown.join(', ');
}

function errorCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
