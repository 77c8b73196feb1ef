/**
 * [G-LIB-1, G-LIB-2] The shipped guards, in the order they run (SPEC §14.3): destructive-delete,
 * secrets, force-push, outside-project, publish, pipe-to-shell, self-protect. A guard is one file
 * of this folder exporting a `GuardDefinition`; adding one is one import and one line here (its
 * corpus, `test/corpus/<name>.json`, is then run by `test/guard-corpus.test.ts` on its own).
 */
import { destructiveDeleteGuard } from './destructive-delete.ts';
import { forcePushGuard } from './force-push.ts';
import type { GuardDefinition } from './guard-types.ts';
import { outsideProjectGuard } from './outside-project.ts';
import { pipeToShellGuard } from './pipe-to-shell.ts';
import { publishGuard } from './publish.ts';
import { secretsGuard } from './secrets.ts';
import { selfProtectGuard } from './self-protect.ts';

/** A guard of the table, its options read by its own schema. */
export type ShippedGuard = GuardDefinition<unknown>;

export const GUARD_TABLE: readonly ShippedGuard[] = [
  destructiveDeleteGuard,
  secretsGuard,
  forcePushGuard,
  outsideProjectGuard,
  publishGuard,
  pipeToShellGuard,
  // On by default; off only by a managed policy (T-SELF-1, T-MGD-1: `onByDefault`).
  selfProtectGuard,
];
