/**
 * Consent for the hooks of one project [§2.6]: what an approval covers (the project's surface),
 * and the check each project hook passes right before it runs.
 *
 * An approval pins [L-TRUST-5] every project source of every gate dialect, every file under the
 * project's hook folders, and every project file a project command names. Once approved, the
 * approved text of each source is what runs [L-TRUST-6]; an edited source only makes a newer
 * version wait for consent, while any other pinned file that changed stops every project hook
 * from running as approved.
 */
import path from 'node:path';
import { projectPathsOf } from '../sources/command-words.ts';
import {
  type Fingerprint,
  fingerprintChanges,
  folderFiles,
  PIN_UNREADABLE,
  PinCache,
  pinOf,
} from './pins.ts';
import {
  projectKey,
  readTrustStore,
  recordApproval,
  removeApproval,
  type TrustEntry,
} from './trust-store.ts';

/** A project command, with what its `${CLAUDE_PLUGIN_ROOT}` means when it has one. */
export interface SurfaceCommand {
  command: string;
  pluginRoot?: string;
}

/** Everything of a project that consent covers, gathered from the sources of every gate dialect. */
export interface ProjectSurface {
  /** The project's real path: the store's key. */
  projectDir: string;
  /** Project source files (absent ones too): pinned, and their approved text kept. */
  sourceFiles: readonly string[];
  /** Folders whose every file is pinned (`.lurus/`, …). */
  hookFolders: readonly string[];
  /** The project's commands, as the current text of its sources has them. */
  commands: readonly SurfaceCommand[];
  /**
   * Files under a hook folder that are not the project's code: the trust store itself, when the
   * project is the home folder (approving must not change what the approval pins).
   */
  excluded?: readonly string[];
}

/** [L-TRUST-1, L-TRUST-5] The pins an approval of `surface` records now. */
export function projectFingerprint(
  surface: ProjectSurface,
  pin: (file: string) => string | null = pinOf,
): Fingerprint {
  const keys = new Set<string>(surface.sourceFiles);
  const excluded = new Set(surface.excluded);
  for (const folder of surface.hookFolders) {
    const listed = folderFiles(folder);
    for (const f of listed.files) if (!excluded.has(f)) keys.add(f);
    // Too many files to pin: the folder itself becomes an unreadable pin, so it cannot be approved.
    if (listed.overflow) keys.add(path.join(folder, '…'));
  }
  for (const c of surface.commands) {
    const opts = c.pluginRoot !== undefined ? { pluginRoot: c.pluginRoot } : undefined;
    for (const p of projectPathsOf(c.command, surface.projectDir, opts)) keys.add(p);
  }
  const out: Fingerprint = {};
  for (const key of [...keys].sort()) out[key] = key.endsWith(`${path.sep}…`) ? PIN_UNREADABLE : pin(key);
  return out;
}

/** What the check before a run found. */
export interface ConsentCheck {
  /** Pinned files other than sources that differ from the approval (edited, created, deleted). */
  changed: string[];
  /** Sources whose current text is not the approved one: a newer version waits for consent. */
  pending: string[];
}

/**
 * The approval a project's hooks run under. Immutable; `check()` compares the files on disk with
 * the approval (hashing only files whose stat changed).
 */
export class ProjectConsent {
  readonly key: string;
  readonly approvedAt: string;
  readonly #pins: Readonly<Fingerprint>;
  readonly #sources: ReadonlySet<string>;
  readonly #folders: readonly string[];
  readonly #excluded: ReadonlySet<string>;
  readonly #cache: PinCache;

  constructor(key: string, entry: TrustEntry, surface: ProjectSurface, cache = new PinCache()) {
    this.key = key;
    this.approvedAt = entry.approvedAt;
    this.#pins = entry.files;
    this.#sources = new Set(surface.sourceFiles);
    this.#folders = surface.hookFolders;
    this.#excluded = new Set(surface.excluded);
    this.#cache = cache;
  }

  check(): ConsentCheck {
    const changed: string[] = [];
    const pending: string[] = [];
    for (const [file, pinned] of Object.entries(this.#pins)) {
      // An unreadable file's content is unknown: it can never count as unchanged.
      if (pinned !== PIN_UNREADABLE && this.#cache.pin(file) === pinned) continue;
      if (this.#sources.has(file)) pending.push(file);
      else changed.push(file);
    }
    // A file added to a hook folder after the approval is code that was never reviewed.
    for (const folder of this.#folders) {
      const listed = folderFiles(folder);
      for (const file of listed.files) {
        if (!Object.hasOwn(this.#pins, file) && !this.#sources.has(file) && !this.#excluded.has(file))
          changed.push(file);
      }
      if (listed.overflow) changed.push(path.join(folder, '…'));
    }
    return { changed, pending };
  }
}

/** Where a project stands, for `validate`, `explain` and the `trust` review. */
export interface ConsentStatus {
  key: string;
  /** The approval on record (even a stale one). */
  approved?: TrustEntry;
  /** The pins an approval would record now. */
  fingerprint: Fingerprint;
  /** Pinned non-source files that differ from the approval. */
  changed: string[];
  /** Sources whose text differs from the approved text. */
  pending: string[];
  /** Paths that cannot be pinned (unreadable, too large): such a project cannot be approved. */
  unreadable: string[];
  /** Set when the store could not be used (then nothing is approved). */
  problem?: string;
}

/**
 * The surface as far as an approval covers it: a plugin folder whose `hooks/hooks.json` the
 * approval does not know was never approved for this project — its hooks are listed as
 * unapproved, and its files are not changes to the approved code.
 */
export function approvedSurface(surface: ProjectSurface, entry: TrustEntry): ProjectSurface {
  const sources = new Set(surface.sourceFiles);
  const hookFolders = surface.hookFolders.filter((folder) => {
    const pluginHooks = path.join(folder, 'hooks', 'hooks.json');
    return !sources.has(pluginHooks) || Object.hasOwn(entry.files, pluginHooks);
  });
  return { ...surface, hookFolders };
}

export function consentStatus(home: string, surface: ProjectSurface): ConsentStatus {
  const key = projectKey(surface.projectDir);
  const store = readTrustStore(home);
  const approved = Object.hasOwn(store.projects, key) ? store.projects[key] : undefined;
  const fingerprint = projectFingerprint(surface);
  const unreadable = Object.keys(fingerprint).filter((k) => fingerprint[k] === PIN_UNREADABLE);
  const status: ConsentStatus = { key, fingerprint, changed: [], pending: [], unreadable };
  if (store.problem !== undefined) status.problem = store.problem;
  if (approved === undefined) return status;
  status.approved = approved;
  const sources = new Set(surface.sourceFiles);
  const covered = approvedSurface(surface, approved).hookFolders;
  const unapprovedFolders = surface.hookFolders.filter((f) => !covered.includes(f));
  for (const file of fingerprintChanges(approved.files, fingerprint)) {
    // Files of a plugin folder the approval does not cover are not changes: that plugin is unapproved.
    if (unapprovedFolders.some((f) => file.startsWith(`${f}${path.sep}`))) continue;
    if (sources.has(file)) status.pending.push(file);
    // A path only the approval had (no longer referenced, and not in a hook folder) changes nothing that runs.
    else if (Object.hasOwn(fingerprint, file)) status.changed.push(file);
  }
  return status;
}

/**
 * Records consent for exactly what was reviewed: the fingerprint and source texts taken when the
 * review was shown (pass them), so a change made during the review is not approved with it.
 */
export function approveSurface(
  home: string,
  surface: ProjectSurface,
  reviewed: { fingerprint: Fingerprint; sources: Record<string, string> },
): ReturnType<typeof recordApproval> {
  const unreadable = Object.keys(reviewed.fingerprint).filter(
    (k) => reviewed.fingerprint[k] === PIN_UNREADABLE,
  );
  if (unreadable.length > 0) {
    throw new Error(
      `cannot approve: ${unreadable.join(', ')} cannot be read, so its content cannot be pinned`,
    );
  }
  return recordApproval(home, projectKey(surface.projectDir), {
    files: reviewed.fingerprint,
    sources: reviewed.sources,
  });
}

/** A loaded project, as far as approving it goes (a `LurusConfig` is one). */
export interface LoadedProject {
  home: string;
  surface: ProjectSurface;
  /** The current text of each existing project source. */
  projectTexts: Record<string, string>;
}

/** Approves the project as it is now: its current pins and source texts. */
export function approveProject(project: LoadedProject): ReturnType<typeof recordApproval> {
  return approveSurface(project.home, project.surface, {
    fingerprint: projectFingerprint(project.surface),
    sources: { ...project.projectTexts },
  });
}

/** Removes the project's approval; `false` when there was none. */
export function revokeProject(project: Pick<LoadedProject, 'home' | 'surface'>): boolean {
  return removeApproval(project.home, projectKey(project.surface.projectDir));
}
