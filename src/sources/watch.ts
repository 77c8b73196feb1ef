import { type FSWatcher, statSync, watch } from 'node:fs';
import path from 'node:path';
import { watchPlan } from './watch-plan.ts';

export interface FileWatch {
  close(): void;
}

interface FileWatchOptions {
  /** Default 50 ms. */
  debounceMs?: number;
  /** A folder that could not be watched, or whose watch failed: once per folder and reason. */
  onError?: (dir: string, err: Error) => void;
}

interface Armed {
  watcher: FSWatcher;
  /** Device and inode: a folder recreated under the same path is another folder. */
  identity: string;
  names: Set<string>;
}

/**
 * Calls `onChange` (debounced) when what reading `file` gives may have changed: the file written,
 * renamed over, created or deleted; the target of a symlinked file edited or the link re-pointed;
 * its folder deleted, moved away or recreated (issue 11). Watches folders, not files: editors and
 * atomic writes replace a file by rename, after which a watch on the file itself goes silent.
 * After each change the watches are re-armed before `onChange` runs, so that whatever changes
 * while `onChange` reads is seen by a watch that is already in place.
 */
export function watchConfigFile(file: string, onChange: () => void, opts: FileWatchOptions = {}): FileWatch {
  const debounceMs = opts.debounceMs ?? 50;
  const armed = new Map<string, Armed>();
  const reported = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const schedule = (): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
  };
  const fire = (): void => {
    timer = undefined;
    arm();
    onChange();
  };
  const report = (dir: string, err: unknown): void => {
    const error = err instanceof Error ? err : new Error(String(err));
    const key = `${dir}\0${error.message}`;
    if (reported.has(key)) return;
    reported.add(key);
    opts.onError?.(dir, error);
  };
  const disarm = (dir: string): void => {
    armed.get(dir)?.watcher.close();
    armed.delete(dir);
  };
  const armOne = (dir: string, names: Set<string>, identity: string): void => {
    const own = path.basename(dir);
    const watcher = watch(dir, { persistent: false }, (_type, name) => {
      // No name (some platforms): anything may have changed. Our own name: this folder itself
      // was deleted or moved (Linux), after which this watch hears nothing more.
      if (name === null || name === own || entry.names.has(name)) schedule();
    });
    const entry: Armed = { watcher, identity, names };
    watcher.on('error', (err) => {
      report(dir, err);
      if (armed.get(dir) === entry) disarm(dir);
    });
    armed.set(dir, entry);
  };
  const arm = (): void => {
    if (closed) return;
    const plan = watchPlan(file);
    for (const dir of [...armed.keys()]) if (!plan.has(dir)) disarm(dir);
    for (const [dir, names] of plan) {
      const identity = identityOf(dir);
      const current = armed.get(dir);
      if (current !== undefined && current.identity === identity) {
        current.names = names;
        continue;
      }
      disarm(dir); // its folder was replaced: the old watch follows the old, deleted one
      if (identity === undefined) {
        schedule(); // gone since the plan was made: plan again rather than miss its return
        continue;
      }
      try {
        armOne(dir, names, identity);
      } catch (err) {
        report(dir, err);
      }
    }
  };

  arm();
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      for (const dir of [...armed.keys()]) disarm(dir);
    },
  };
}

function identityOf(dir: string): string | undefined {
  try {
    const s = statSync(dir, { bigint: true });
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}
