/**
 * [G-WARM-1] The log of a daemon a hook call started: `<home>/.hookwerk/daemon.log`, bounded. The
 * starting client points the daemon's stdout and stderr at it (for what Node itself prints, such
 * as a crash), and the daemon writes its own lines there through `boundedLog`, each with its time.
 *
 * The bound: when a line would take the file past `DAEMON_LOG_MAX_BYTES`, the file is copied to
 * `daemon.log.1` (replacing the older one) and emptied, then the line is written. Copied and
 * emptied rather than renamed, so every descriptor on it (the daemon's stdout and stderr too)
 * keeps writing to the current file. So the two files hold at most about 2 MiB.
 */
import { closeSync, copyFileSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

export const DAEMON_LOG_MAX_BYTES = 1024 * 1024;

/** `<home>/.hookwerk/daemon.log` */
export function daemonLogPath(home: string): string {
  return path.join(home, '.hookwerk', 'daemon.log');
}

export interface BoundedLog {
  /** Writes one line (a newline is added), with the time in front. */
  line(text: string): void;
  close(): void;
}

/** Opens `file` for appending (0600) and bounds it at `max` bytes; the clock is injectable for tests. */
export function boundedLog(
  file: string,
  max = DAEMON_LOG_MAX_BYTES,
  now: () => Date = () => new Date(),
): BoundedLog {
  const fd = openSync(file, 'a', 0o600);
  const write = (bytes: Buffer) => {
    try {
      if (fstatSync(fd).size + bytes.length > max) {
        copyFileSync(file, `${file}.1`);
        ftruncateSync(fd, 0);
      }
      writeSync(fd, bytes);
    } catch {
      // A log that cannot be written (a full disk) never stops the daemon.
    }
  };
  // A file left over the bound by an earlier daemon (or by Node's own output) is rotated now.
  write(Buffer.alloc(0));
  return {
    line(text) {
      // One line never exceeds the bound by itself.
      const bytes = Buffer.from(`${now().toISOString()} ${text}\n`, 'utf8').subarray(0, max);
      write(bytes);
    },
    close() {
      try {
        closeSync(fd);
      } catch {
        // Closed already.
      }
    },
  };
}
