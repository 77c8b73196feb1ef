/**
 * The trust store [L-TRUST-1, L-TRUST-6, L-TRUST-7]: `~/.lurus/trust.json` maps the real path of
 * each approved project to what was approved:
 * `{ "<real project path>": { "approvedAt": ISO, "files": { "<abs path>": PIN }, "sources": { "<abs path>": TEXT } } }`.
 * `files` pins every file the approval covers (see pins.ts); `sources` keeps the approved text of
 * each project source, which is what runs until a new approval (a later edit waits for consent).
 */
import { renameSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { parseJsonText } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { realPathOr } from '../core/real-path.ts';
import { type Fingerprint, PIN_DIRECTORY, PIN_SPECIAL, PIN_UNREADABLE } from './pins.ts';

/** The store holds up to 1 MiB of text per approved source: bounded, but not small. */
const MAX_STORE_BYTES = 64 * 1024 * 1024;

const pinSchema = z
  .union([
    z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha-256 hex digest'),
    z.literal(PIN_DIRECTORY),
    z.literal(PIN_SPECIAL),
    z.literal(PIN_UNREADABLE),
  ])
  .nullable();

const entrySchema = z.looseObject({
  approvedAt: z.iso.datetime(),
  files: z.record(z.string(), pinSchema),
  /** Absent in approvals written before hookwerk kept the approved text. */
  sources: z.record(z.string(), z.string()).optional(),
});

const storeSchema = z.record(z.string(), entrySchema);

export type TrustEntry = z.infer<typeof entrySchema>;

interface TrustStore {
  file: string;
  /** Approved projects by real path; empty when the store is missing or unusable. */
  projects: Record<string, TrustEntry>;
  /** One line, set when the store exists but cannot be read or is not valid: nothing is approved. */
  problem?: string;
}

import { trustStorePath } from './trust-store-path.ts';

export { lurusDir, trustStorePath } from './trust-store-path.ts';

/** The key of a project in the store: its real path (the resolved path when it does not exist). */
export function projectKey(projectDir: string): string {
  return realPathOr(projectDir);
}

/** Reads and validates the store. Never throws: an unusable store approves nothing and says why. */
export function readTrustStore(home: string): TrustStore {
  const file = trustStorePath(home);
  const read = readSourceFile(file, MAX_STORE_BYTES);
  if (read.kind === 'missing') return { file, projects: {} };
  if (read.kind === 'refused') return { file, projects: {}, problem: `${file}: trust store ${read.message}` };
  const parsed = parseJsonText(file, read.text);
  if (!parsed.ok) return { file, projects: {}, problem: `${file}: trust store: ${parsed.issue.message}` };
  const result = storeSchema.safeParse(parsed.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? issue.path.map(String).join('.') : '';
    const message = (issue?.message ?? 'invalid').replace(/\s*\n\s*/g, ' ');
    return {
      file,
      projects: {},
      problem: `${file}: invalid trust store${where ? ` at ${where}` : ''}: ${message}`,
    };
  }
  return { file, projects: result.data };
}

interface Approval {
  /** Every pinned path and its pin, taken when the review was shown. */
  files: Fingerprint;
  /** The text of each existing project source, as shown in the review. */
  sources: Record<string, string>;
}

interface ApproveResult {
  file: string;
  entry: TrustEntry;
  /** Where an unusable store was moved before writing a fresh one. */
  backup?: string;
}

/**
 * Records consent for the project under its real path. Other projects' approvals are kept; an
 * unusable store is moved aside (`trust.json.corrupt-<ms>`). Throws on I/O errors.
 */
export function recordApproval(home: string, key: string, approval: Approval): ApproveResult {
  const store = readTrustStore(home);
  const backup = store.problem !== undefined ? moveAside(store.file) : undefined;
  const entry: TrustEntry = {
    approvedAt: new Date().toISOString(),
    files: approval.files,
    sources: approval.sources,
  };
  writeTrustStore(home, { ...store.projects, [key]: entry });
  return { file: store.file, entry, ...(backup !== undefined ? { backup } : {}) };
}

/** Removes the approval stored under `key`; `false` when there was none. Throws on I/O errors. */
export function removeApproval(home: string, key: string): boolean {
  const store = readTrustStore(home);
  if (!Object.hasOwn(store.projects, key)) return false;
  const { [key]: _removed, ...rest } = store.projects;
  writeTrustStore(home, rest);
  return true;
}

/** Atomic write (0600 file, 0700 folder), keys sorted. */
function writeTrustStore(home: string, projects: Record<string, TrustEntry>): void {
  const sorted: Record<string, TrustEntry> = {};
  for (const key of Object.keys(projects).sort()) {
    const entry = projects[key];
    if (entry !== undefined) sorted[key] = entry;
  }
  writeFileAtomic(trustStorePath(home), `${JSON.stringify(sorted, null, 2)}\n`, {
    mode: 0o600,
    privateDir: true,
  });
}

function moveAside(file: string): string | undefined {
  const backup = `${file}.corrupt-${Date.now()}`;
  try {
    // A rename, not a copy: the broken store must not be read again.
    renameSync(file, backup);
    return backup;
  } catch {
    return undefined;
  }
}
