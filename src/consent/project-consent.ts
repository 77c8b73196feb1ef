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
import { projectPathsOf, type RunPath, runPathsOf } from '../core/command-words.ts';
import { HookwerkError } from '../core/errors.ts';
import { isInside } from '../core/real-path.ts';
import {
  type FilePin,
  type Fingerprint,
  type FolderListings,
  fingerprintChanges,
  folderFiles,
  identityOf,
  isFolder,
  PIN_UNREADABLE,
  PinCache,
  pinOf,
} from './pins.ts';
import { RunWatch } from './run-watch.ts';
import { couldRunAsCode } from './runnable-file.ts';
import {
  projectKey,
  readTrustStore,
  recordApproval,
  removeApproval,
  type TrustEntry,
} from './trust-store.ts';

/** Every `*<suffix>` file directly in `folder` is a source. */
export interface ListedSources {
  folder: string;
  suffix: string;
}

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
  /**
   * Folders whose sources are found by listing them (Copilot's `.github/hooks/*.json`): an
   * approved one renamed away or deleted is still a source, its approved text in force [L-TRUST-6].
   */
  listedSources?: readonly ListedSources[];
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

/** How long the sources' state is taken as known (as the trust store's, L-TRUST-7). */
const PENDING_TTL_MS = 250;

/** What a project command hook is about to run: the command line as pinned, and where it starts. */
export interface RunTarget {
  /** The command line as the approval read it (exec form: the program with its arguments quoted). */
  command: string;
  /** The folder the command starts in (the input's `cwd` in the agent dialects). */
  cwd: string;
  /** `${CLAUDE_PLUGIN_ROOT}` of a plugin hook. */
  pluginRoot?: string;
}

/** What the check before a run found. */
export interface ConsentCheck {
  /** Pinned files other than sources that differ from the approval (edited, created, deleted). */
  changed: string[];
  /** Sources whose current text is not the approved one: a newer version waits for consent. */
  pending: string[];
  /**
   * [L-TRUST-9] A file (or, where the command runs it, a folder) that the command names when it
   * starts in the run's folder, which the approval does not pin: not the code that was approved.
   */
  unpinned?: string;
  /** [L-TRUST-8] Compares what the run could read with this moment, once it has ended. */
  watch?: RunWatch;
}

/** What a project hook holds of its approval: checked right before each run [L-TRUST-6]. */
export interface HookConsent {
  /** The project's real path: the trust store's key. */
  readonly key: string;
  readonly approvedAt: string;
  check(target?: RunTarget, earlier?: ConsentCheck): ConsentCheck;
}

/**
 * The approval a project's hooks run under. Immutable; `check()` compares the files on disk with
 * the approval (hashing only files whose stat changed).
 */
export class ProjectConsent implements HookConsent {
  readonly key: string;
  readonly approvedAt: string;
  readonly #pins: Readonly<Fingerprint>;
  readonly #sources: ReadonlySet<string>;
  readonly #folders: readonly string[];
  readonly #excluded: ReadonlySet<string>;
  readonly #cache: PinCache;
  /** Folders above the pinned code that no hook-folder listing covers: watched during each run. */
  readonly #ancestors: readonly string[];
  readonly #listings: FolderListings = new Map();
  /** Pinned files other than sources: the code a run could read. */
  readonly #code: ReadonlyArray<[string, FilePin]>;
  /** Pinned sources: an edit there only makes a newer version wait [L-TRUST-6]. */
  readonly #sourcePins: ReadonlyArray<[string, FilePin]>;
  #pending: { at: number; files: string[] } | undefined;
  /** Per command line and folder: the paths it names there that the approval did not see. */
  readonly #extra = new Map<string, RunPath[]>();

  constructor(key: string, entry: TrustEntry, surface: ProjectSurface, cache = new PinCache()) {
    this.key = key;
    this.approvedAt = entry.approvedAt;
    this.#pins = entry.files;
    this.#sources = new Set(surface.sourceFiles);
    this.#folders = surface.hookFolders;
    this.#excluded = new Set(surface.excluded);
    this.#cache = cache;
    const pins = Object.entries(entry.files);
    this.#code = pins.filter(([file]) => !this.#sources.has(file));
    this.#sourcePins = pins.filter(([file]) => this.#sources.has(file));
    this.#ancestors = ancestorFolders(
      key,
      Object.keys(entry.files).filter((f) => !this.#sources.has(f)),
      surface.hookFolders,
    );
  }

  /**
   * Right before a project hook runs [L-TRUST-6]. With the run's `target` (command hooks) it also
   * finds files the command names from its folder that are not pinned [L-TRUST-9], and returns
   * the watch to compare with once the run has ended [L-TRUST-8]. `earlier`: a check made for
   * another hook that starts at the same moment (the parallel gate's hooks of one decide), whose
   * pins and watch this run shares. A hook that starts after another ended gets a check of its own.
   */
  check(target?: RunTarget, earlier?: ConsentCheck): ConsentCheck {
    const base =
      earlier?.watch !== undefined && target !== undefined ? earlier : this.#checkNow(target !== undefined);
    const check: ConsentCheck = { changed: base.changed, pending: base.pending };
    const watch = base.watch;
    if (watch === undefined || target === undefined) return check;
    check.watch = watch;
    for (const extra of this.#extraPaths(target)) {
      const identity = identityOf(extra.path);
      if (identity === 'absent') {
        // Nothing there now; if the run's command finds something there later, it is not approved code.
        watch.add(extra.path, identity);
        continue;
      }
      if (extra.runs || !isFolder(extra.path)) {
        check.unpinned = extra.path;
        break;
      }
    }
    return check;
  }

  #checkNow(watched: boolean): ConsentCheck {
    const watch = watched ? new RunWatch(this.key) : undefined;
    const changed: string[] = [];
    // Files under the hook folders the approval does not know that cannot run as code (logs).
    const others: string[] = [];
    // A file added to a hook folder after the approval that could run as code was never reviewed;
    // a log or state file a hook keeps there is not code [L-TRUST-8]. Each folder is marked
    // before it is read.
    for (const folder of this.#folders) {
      const listed = folderFiles(folder, undefined, this.#listings);
      if (watch !== undefined)
        for (let i = 0; i < listed.folders.length; i++)
          watch.addFolder(listed.folders[i]!, listed.folderMarks[i]);
      for (const file of listed.files) {
        if (!this.#unknown(file)) continue;
        if (couldRunAsCode(file)) changed.push(file);
        else others.push(file);
      }
      if (listed.overflow) changed.push(path.join(folder, '…'));
    }
    for (const [file, pinned] of this.#code) {
      // What the run is compared with afterwards, taken before the pin is: a swap after this
      // point shows in the pin, or in the watch once the run has ended [L-TRUST-8].
      const identity = watch !== undefined ? identityOf(file) : undefined;
      if (identity !== undefined) watch?.add(file, identity);
      // An unreadable file's content is unknown: it can never count as unchanged.
      if (pinned !== PIN_UNREADABLE && this.#cache.pin(file, identity) === pinned) continue;
      changed.push(file);
    }
    const check: ConsentCheck = { changed, pending: this.#pendingSources() };
    if (watch === undefined) return check;
    for (const dir of this.#ancestors) watch.addFolder(dir);
    // No entry made anywhere watched: no new file can be there, but a log may have been made
    // executable.
    watch.afterRun((entriesMoved) => (entriesMoved ? this.#appearedCode() : others.find(couldRunAsCode)));
    check.watch = watch;
    return check;
  }

  /** A file under a hook folder that the approval does not know. */
  #unknown(file: string): boolean {
    return !Object.hasOwn(this.#pins, file) && !this.#sources.has(file) && !this.#excluded.has(file);
  }

  /**
   * [L-TRUST-8] After a run: the first file in a folder pinned whole that could run as code and
   * that the approval does not know (made during the run, or made runnable by a `chmod`).
   */
  #appearedCode(): string | undefined {
    for (const folder of this.#folders) {
      const listed = folderFiles(folder, undefined, this.#listings);
      if (listed.overflow) return path.join(folder, '…');
      const found = listed.files.find((file) => this.#unknown(file) && couldRunAsCode(file));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /**
   * Sources whose text is not the approved one now. They never change what runs (the approved
   * text does), only what records say, so they are looked at once per PENDING_TTL_MS at most.
   */
  #pendingSources(): string[] {
    const now = Date.now();
    if (this.#pending !== undefined && now - this.#pending.at < PENDING_TTL_MS) return this.#pending.files;
    const files: string[] = [];
    for (const [file, pinned] of this.#sourcePins)
      if (pinned === PIN_UNREADABLE || this.#cache.pin(file) !== pinned) files.push(file);
    this.#pending = { at: now, files };
    return files;
  }

  /**
   * [L-TRUST-9] The paths the command names from `target.cwd` that it did not name from the
   * project folder, where the approval read it, and that are not pinned anyway. Empty when it
   * runs in the project folder (then it names exactly what was pinned).
   */
  #extraPaths(target: RunTarget): RunPath[] {
    const cwd = path.resolve(this.key, target.cwd);
    if (cwd === this.key) return [];
    const cacheKey = `${cwd}\0${target.pluginRoot ?? ''}\0${target.command}`;
    const cached = this.#extra.get(cacheKey);
    if (cached !== undefined) return cached;
    const opts = target.pluginRoot !== undefined ? { pluginRoot: target.pluginRoot } : {};
    const approved = new Set(runPathsOf(target.command, this.key, this.key, opts).map((p) => p.path));
    const extra = runPathsOf(target.command, this.key, cwd, opts).filter(
      (p) => !approved.has(p.path) && !Object.hasOwn(this.#pins, p.path),
    );
    if (this.#extra.size >= 512) this.#extra.clear();
    this.#extra.set(cacheKey, extra);
    return extra;
  }
}

/**
 * Every folder between the project folder and each pinned file or hook folder (a folder renamed
 * away and back moves its change time alone; the files inside do not move), but those inside a
 * hook folder, which its listing watches. The project folder itself is compared by inode only
 * (`RunWatch`).
 */
function ancestorFolders(root: string, pinned: readonly string[], folders: readonly string[]): string[] {
  const out = new Set<string>();
  for (const start of [...pinned, ...folders]) {
    for (let dir = path.dirname(start); dir !== root && isInside(root, dir); dir = path.dirname(dir)) {
      if (folders.some((folder) => isInside(folder, dir))) continue;
      out.add(dir);
    }
  }
  return [...out];
}

/** Where a project stands, for `validate`, `explain` and the `trust` review. */
interface ConsentStatus {
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

/**
 * [L-TRUST-6] The surface with every source the approval found by a listing that the listing has
 * no more (renamed away, deleted): as for a source at a fixed path, its approved text keeps
 * running until a new approval, and a newer version (here: none) waits for consent.
 */
export function withKeptSources(surface: ProjectSurface, entry: TrustEntry): ProjectSurface {
  const listed = surface.listedSources ?? [];
  if (listed.length === 0) return surface;
  const known = new Set(surface.sourceFiles);
  const kept = Object.keys(entry.files).filter(
    (file) =>
      !known.has(file) &&
      entry.files[file] !== null &&
      listed.some((l) => path.dirname(file) === l.folder && file.endsWith(l.suffix)),
  );
  return kept.length === 0 ? surface : { ...surface, sourceFiles: [...surface.sourceFiles, ...kept.sort()] };
}

export function consentStatus(home: string, given: ProjectSurface): ConsentStatus {
  const key = projectKey(given.projectDir);
  const store = readTrustStore(home);
  const approved = Object.hasOwn(store.projects, key) ? store.projects[key] : undefined;
  const surface = approved !== undefined ? withKeptSources(given, approved) : given;
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
    // A path only the approval had (no longer referenced, and not in a hook folder) changes nothing
    // that runs; nor does a new file in a hook folder that cannot run as code (a hook's log) [L-TRUST-8].
    else if (Object.hasOwn(fingerprint, file)) {
      if (!Object.hasOwn(approved.files, file) && !couldRunAsCode(file)) continue;
      status.changed.push(file);
    } else if (covered.some((folder) => file.startsWith(`${folder}${path.sep}`))) status.changed.push(file);
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
    throw new HookwerkError(
      'CONSENT',
      `cannot approve: ${unreadable.join(', ')} cannot be read, so its content cannot be pinned`,
    );
  }
  return recordApproval(home, projectKey(surface.projectDir), {
    files: reviewed.fingerprint,
    sources: reviewed.sources,
  });
}

/** A loaded project, as far as approving it goes (a `LurusConfig` is one). */
interface LoadedProject {
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
