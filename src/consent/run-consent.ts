/**
 * The consent of one project hook's run, before and after it [L-TRUST-6, L-TRUST-8, L-TRUST-9]:
 * why it may not run as approved, and why its answer cannot be trusted once it has run. Both
 * gates (sequential and parallel) ask the same questions here and only decide what a refusal
 * means for their answer (a closed guard denies, others are skipped).
 */
import { tildePath } from '../core/tilde-path.ts';
import type { ConsentCheck, HookConsent } from './project-consent.ts';

type RefusalCause = 'changed_since_approval' | 'unpinned_file' | 'changed_during_run';

export interface ConsentRefusal {
  cause: RefusalCause;
  /** One line: which file, and what to run. */
  reason: string;
}

/** Causes of a project hook that did not run (or whose answer was dropped) under its approval. */
export const CONSENT_CAUSES: ReadonlySet<string> = new Set<RefusalCause | 'untrusted'>([
  'untrusted',
  'changed_since_approval',
  'unpinned_file',
  'changed_during_run',
]);

/** The command that reviews the project again [L-TRUST-11]. */
export function trustHint(projectDir: string): string {
  return `run \`hookwerk trust --project ${projectDir}\``;
}

/**
 * Why the hook may not run as approved, found right before it [L-TRUST-6, L-TRUST-9]. Paths
 * under `home` are shown as `~` [G-FAIL-5].
 */
export function refusalBefore(
  consent: HookConsent,
  check: ConsentCheck,
  home?: string,
): ConsentRefusal | undefined {
  const changed = check.changed[0];
  const hint = () => trustHint(tildePath(consent.key, home));
  if (changed !== undefined)
    return {
      cause: 'changed_since_approval',
      reason: `${tildePath(changed, home)} changed since approval: ${hint()}`,
    };
  if (check.unpinned !== undefined)
    return {
      cause: 'unpinned_file',
      reason: `${tildePath(check.unpinned, home)} is named by the command from the folder it runs in, and the approval does not pin it: ${hint()}`,
    };
  return undefined;
}

/** [L-TRUST-8] Why the answer of a run that has ended cannot be trusted: a watched file moved during it. */
export function refusalAfter(
  consent: HookConsent,
  check: ConsentCheck,
  home?: string,
): ConsentRefusal | undefined {
  const moved = check.watch?.changed();
  if (moved === undefined) return undefined;
  return {
    cause: 'changed_during_run',
    reason: `${tildePath(moved, home)} changed while the hook ran, so its answer may not come from the approved code: discarded (${trustHint(tildePath(consent.key, home))} if the change is yours)`,
  };
}
