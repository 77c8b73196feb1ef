/**
 * Which text of each project source runs, and under what consent [L-TRUST-1, L-TRUST-3, L-TRUST-6],
 * for every gate dialect alike.
 *
 * - Not approved: every project source is `unapproved` — listed, never evaluated.
 * - Approved: the approved text kept in the trust store runs, whatever the file holds now; a file
 *   that differs only makes a newer version wait. A source the approval does not cover (a plugin
 *   folder not approved for this project, a dialect's file created after an approval that did not
 *   know it) is `unapproved`. Approvals written before the store kept text fall back to the
 *   current file while it still has the approved pin.
 */
import type { ConfigIssue } from '../core/issues.ts';
import type { SourceRead } from '../core/read-source.ts';
import { pinOfText } from './pins.ts';
import {
  approvedSurface,
  type HookConsent,
  ProjectConsent,
  type ProjectSurface,
  withKeptSources,
} from './project-consent.ts';
import { readTrustStore, type TrustEntry } from './trust-store.ts';

/** How project sources are admitted. Without one (review mode) every source's current text is used. */
export type ConsentPolicy =
  | { kind: 'store' }
  /** A fixed answer (embedders, tests): trusted → the current text runs, with no pins. */
  | { kind: 'fixed'; check: (project: { projectDir: string }) => { trusted: boolean; reason: string } };

/** Where the project's consent stands at load. */
export interface ConsentSummary {
  /** No project source holds a hook. */
  none: boolean;
  /** Project hooks are admitted (approved, or a fixed policy said so). */
  trusted: boolean;
  /** One line: `approved <ISO>`, `not approved`, … */
  reason: string;
  /** Project sources whose file differs from the approved text. */
  pending: string[];
  /** The approval, when there is one. */
  consent?: HookConsent;
  /** The trust store could not be used. */
  problem?: string;
}

/** What is admitted of one project source file. */
export type AdmittedFile =
  | { kind: 'absent' }
  | { kind: 'text'; text: string }
  | { kind: 'error'; issue: ConfigIssue }
  /** Listed from `text` (the current file), never evaluated. */
  | { kind: 'unapproved'; text: string; reason: string };

export interface Admission {
  consent: ConsentSummary;
  /**
   * The surface as admitted: the one read, plus every approved source its listing lost (renamed
   * away, deleted), which still runs its approved text [L-TRUST-6].
   */
  surface: ProjectSurface;
  file(file: string): AdmittedFile;
}

/** Admits the project's sources under `policy` (review mode when undefined). */
export function admitProject(
  policy: ConsentPolicy | undefined,
  home: string,
  surface: ProjectSurface,
  reads: ReadonlyMap<string, SourceRead>,
): Admission {
  const current = (file: string): AdmittedFile => {
    const read = reads.get(file);
    if (read === undefined || read.kind === 'missing') return { kind: 'absent' };
    if (read.kind === 'refused')
      return { kind: 'error', issue: { file, path: '$', message: `file ${read.message}` } };
    return { kind: 'text', text: read.text };
  };
  const unapproved = (file: string, why: string): AdmittedFile => {
    const now = current(file);
    return now.kind === 'text' ? { kind: 'unapproved', text: now.text, reason: why } : now;
  };
  if (policy === undefined)
    return { consent: { none: false, trusted: true, reason: 'review', pending: [] }, surface, file: current };
  if (policy.kind === 'fixed') {
    const answer = policy.check({ projectDir: surface.projectDir });
    const consent: ConsentSummary = {
      none: false,
      trusted: answer.trusted,
      reason: answer.reason,
      pending: [],
    };
    return { consent, surface, file: answer.trusted ? current : (file) => unapproved(file, answer.reason) };
  }
  const store = readTrustStore(home);
  const key = surface.projectDir;
  const entry = Object.hasOwn(store.projects, key) ? store.projects[key] : undefined;
  if (entry === undefined) {
    const reason =
      store.problem !== undefined ? 'not approved (the trust store is unusable)' : 'not approved';
    const consent: ConsentSummary = { none: false, trusted: false, reason, pending: [] };
    if (store.problem !== undefined) consent.problem = store.problem;
    return { consent, surface, file: (file) => unapproved(file, reason) };
  }
  const kept = withKeptSources(surface, entry);
  const admitted = new Map<string, AdmittedFile>();
  const pending: string[] = [];
  for (const file of kept.sourceFiles) {
    const now = reads.get(file);
    const text = now?.kind === 'text' ? now.text : undefined;
    const result = approvedVersion(entry, file, text, now?.kind === 'missing' || now === undefined);
    if (result.pending) pending.push(file);
    admitted.set(
      file,
      result.kind === 'unapproved' ? unapproved(file, 'not covered by the approval') : result.file,
    );
  }
  const consent: ConsentSummary = {
    none: false,
    trusted: true,
    reason: `approved ${entry.approvedAt}`,
    pending,
    consent: new ProjectConsent(key, entry, approvedSurface(kept, entry)),
  };
  return { consent, surface: kept, file: (file) => admitted.get(file) ?? current(file) };
}

type Version =
  | { kind: 'approved'; file: AdmittedFile; pending: boolean }
  | { kind: 'unapproved'; pending: false };

function approvedVersion(
  entry: TrustEntry,
  file: string,
  current: string | undefined,
  missing: boolean,
): Version {
  if (!Object.hasOwn(entry.files, file)) return { kind: 'unapproved', pending: false };
  const pin = entry.files[file];
  const kept =
    entry.sources !== undefined && Object.hasOwn(entry.sources, file) ? entry.sources[file] : undefined;
  if (pin === null || pin === undefined) {
    // Absent when approved: the approved version is "no such source".
    return { kind: 'approved', file: { kind: 'absent' }, pending: !missing };
  }
  if (kept !== undefined)
    return { kind: 'approved', file: { kind: 'text', text: kept }, pending: current !== kept };
  if (current !== undefined && pinOfText(current) === pin)
    return { kind: 'approved', file: { kind: 'text', text: current }, pending: false };
  return {
    kind: 'approved',
    file: {
      kind: 'error',
      issue: {
        file,
        path: '$',
        message:
          'changed since approval, and the approved text is not in the trust store (approved by an older hookwerk): run `hookwerk trust`',
      },
    },
    pending: true,
  };
}
