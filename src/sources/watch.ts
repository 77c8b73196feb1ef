import { type FSWatcher, watch } from 'node:fs';

export interface FileWatch {
  close(): void;
}

/**
 * Calls `onChange` (debounced) when `basename` inside `dir` is written, renamed over,
 * created or deleted. Watches the directory, not the file: editors and our own atomic
 * writes replace the file by rename, after which a watch on the file itself goes silent.
 */
export function watchFileInDir(
  dir: string,
  basename: string,
  onChange: () => void,
  opts: { debounceMs?: number; onError?: (err: Error) => void } = {},
): FileWatch {
  const debounceMs = opts.debounceMs ?? 50;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const fire = () => {
    timer = undefined;
    onChange();
  };
  watcher = watch(dir, { persistent: false }, (_type, filename) => {
    // Some platforms omit the name; then any change in the folder counts.
    if (filename !== null && filename !== basename) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
  });
  watcher.on('error', (err) => {
    opts.onError?.(err);
  });
  return {
    close() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      watcher?.close();
      watcher = undefined;
    },
  };
}
