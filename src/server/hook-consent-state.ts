/**
 * (issue 23) Where one gate hook stands with consent, for `/api/gate`, from what the loader made
 * of it and the check the gate makes right before a run [L-TRUST-3, L-TRUST-6, L-TRUST-11]:
 * nothing here decides consent anew, it reads the loader's admission and the approval's check.
 */
import type { ConsentCheck, HookConsent } from '../consent/project-consent.ts';
import { trustHint } from '../consent/run-consent.ts';
import { tildePath } from '../core/tilde-path.ts';
import type { GateEntry, HookScope } from '../registry/hook-definition.ts';

/**
 * `approved`: runs under the project's approval; `pending`: not approved yet (never evaluated);
 * `changed`: changed since approval (the approved version runs, or a pinned file changed and the
 * hook is skipped or denies); `not needed`: a user, managed or system hook.
 */
export type ConsentState = 'approved' | 'pending' | 'changed' | 'not needed';

/** Scopes whose hooks run only under the project's approval [L-TRUST-1, C-SRC-4]. */
const PROJECT_SCOPES: ReadonlySet<HookScope> = new Set(['project', 'local', 'plugin']);

export interface HookConsentView {
  consent: ConsentState;
  /** One line: why, and what to run when something waits. */
  consentDetail: string;
}

/** Checks each approval once per listing: every project hook of a project shares one. */
export class ConsentChecks {
  readonly #checks = new Map<HookConsent, ConsentCheck>();

  of(consent: HookConsent): ConsentCheck {
    const known = this.#checks.get(consent);
    if (known !== undefined) return known;
    const check = consent.check();
    this.#checks.set(consent, check);
    return check;
  }
}

/** `home`: paths under it are shown as `~` in `consentDetail` [G-FAIL-5]. */
export function hookConsentState(
  entry: GateEntry,
  source: { newerVersionPending?: boolean | undefined } | undefined,
  projectReason: string,
  checks: ConsentChecks,
  home?: string,
): HookConsentView {
  const shown = (p: string) => tildePath(p, home);
  if (entry.kind === 'unapproved') return { consent: 'pending', consentDetail: entry.reason };
  const consent = entry.consent;
  if (consent !== undefined) {
    const changed = checks.of(consent).changed[0];
    if (changed !== undefined) {
      const effect = entry.failMode === 'closed' ? 'denies (failMode "closed")' : 'is skipped';
      return {
        consent: 'changed',
        consentDetail: `${shown(changed)} changed since approval, so this hook ${effect}: ${trustHint(shown(consent.key))}`,
      };
    }
    if (source?.newerVersionPending === true) {
      return {
        consent: 'changed',
        consentDetail: `${entry.origin.file === undefined ? 'its source' : shown(entry.origin.file)} changed since approval: the approved version runs until you ${trustHint(shown(consent.key))}`,
      };
    }
    return { consent: 'approved', consentDetail: `approved ${consent.approvedAt}` };
  }
  // A project hook without pins: a fixed consent policy admitted the project (an embedder's).
  if (PROJECT_SCOPES.has(entry.origin.scope)) return { consent: 'approved', consentDetail: projectReason };
  return { consent: 'not needed', consentDetail: `${entry.origin.scope} hook: needs no consent` };
}
