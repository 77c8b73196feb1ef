/**
 * [L-TRUST-8] (amended) What a project hook's run could read, taken right before its pins were
 * checked, and compared once the run has ended: the check is of what the approval pins — each
 * pinned file's identity (and with it its content), each pinned folder's identity and the folder
 * itself staying in place — never of the entries a hook makes beside the pinned code. A swap
 * between the check and the exec, put back after, still moved a change time, so the run's answer
 * cannot be trusted even though the pins match again.
 */
import { type FolderMark, folderMarkOf, identityOf, sameFolder } from './pins.ts';

export class RunWatch {
  readonly #files: string[] = [];
  readonly #identities: string[] = [];
  readonly #folders: string[] = [];
  readonly #marks: FolderMark[] = [];
  readonly #root: string;
  readonly #rootMark: FolderMark;
  /** Looked at last: a file that appeared during the run and could run as code. */
  #appeared: ((entriesMoved: boolean) => string | undefined) | undefined;

  constructor(root: string) {
    this.#root = root;
    this.#rootMark = folderMarkOf(root);
  }

  /** Remembers what `file` is now (`absent` too: something there later is not what was checked). */
  add(file: string, identity = identityOf(file)): void {
    this.#files.push(file);
    this.#identities.push(identity);
  }

  /** Remembers which folder is at `dir` now (pinned, or on the way to what is). */
  addFolder(dir: string, mark = folderMarkOf(dir)): void {
    this.#folders.push(dir);
    this.#marks.push(mark);
  }

  /**
   * After the run, `find` names a new file that could run as code in a folder pinned whole.
   * `entriesMoved`: an entry was made, removed or renamed in a watched folder (or one appeared) —
   * only then can a new file be there at all.
   */
  afterRun(find: (entriesMoved: boolean) => string | undefined): void {
    this.#appeared = find;
  }

  /** The first watched path that is not what it was, or undefined. */
  changed(): string | undefined {
    for (let i = 0; i < this.#files.length; i++) {
      const file = this.#files[i]!;
      if (identityOf(file) !== this.#identities[i]) return file;
    }
    let entriesMoved = false;
    for (let i = 0; i < this.#folders.length; i++) {
      const dir = this.#folders[i]!;
      const before = this.#marks[i]!;
      const now = folderMarkOf(dir);
      if (!sameFolder(before, now)) return dir;
      if (now.id !== before.id || now.mtimeNs !== before.mtimeNs) entriesMoved = true;
    }
    // The project folder by inode only: see docs/consent.md (what no pin can cover).
    const root = folderMarkOf(this.#root);
    if (root.inode !== this.#rootMark.inode) return this.#root;
    if (root.mtimeNs !== this.#rootMark.mtimeNs) entriesMoved = true;
    return this.#appeared?.(entriesMoved);
  }
}
