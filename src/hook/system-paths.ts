/**
 * [T-MGD-3] Where the system daemon lives. Fixed on purpose, like the managed policy's folder
 * (`dialects/surfaces/policy-files.ts`): no variable or flag moves them, or an agent could point its hook
 * at a daemon of its own. Tests move the file system instead (mount namespaces).
 */
import path from 'node:path';

/** The socket's folder: root's, 0755 (`hookwerk setup-system`). */
export const SYSTEM_RUN_DIR = '/run/hookwerk';
export const SYSTEM_SOCKET = path.join(SYSTEM_RUN_DIR, 'daemon.sock');
/** The daemon's state: root's, 0755; its records folder the daemon account's, 0700. */
export const SYSTEM_STATE_DIR = '/var/lib/hookwerk';
/** The managed journal. */
export const SYSTEM_RECORDS_DIR = path.join(SYSTEM_STATE_DIR, 'records');
/** The account `setup-system` creates and `daemon --system` runs as, unless `--user` names another. */
export const DEFAULT_SYSTEM_ACCOUNT = 'hookwerk';
/**
 * Set by the C client for its fallback when it asked the system daemon (no FINAL answer): the
 * Node client does not ask a second time. Skipping it loses a managed record, never a deny (the
 * user's path applies the managed policy in-process); a project file cannot set it (HOOKWERK_*, T-SELF-4).
 */
export const SYSTEM_ASKED_ENV = 'HOOKWERK_HOOK_SYSTEM_ASKED';
