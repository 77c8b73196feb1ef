/**
 * Shared by the audit stream tests [F-AUD-1, F-SEC-1]: the records a home's journal holds (read
 * raw, with their chain hashes), what the stream `hookwerk-audit` holds, and a hook call that
 * leaves records. Not a test file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { policyFile } from '../src/dialects/surfaces/policy-files.ts';
import { AUDIT_STREAM } from '../src/fleet/audit-stream.ts';
import { readChainLine } from '../src/records/journal-chain.ts';
import { journalDir, listSegments, segmentFile } from '../src/records/journal-segments.ts';
import { denying, verdictFor } from './fleet-harness.ts';
import { waitFor } from './helpers.ts';

export interface JournalRecord {
  hash: string;
  agent: string;
  line: string;
}

const withAgent = z.object({ agent: z.string() });

/** The chained records of agents' runs in `home`'s journal, oldest first (markers left out). */
export function journalRecords(home: string): JournalRecord[] {
  const dir = journalDir(home);
  const out: JournalRecord[] = [];
  for (const seq of listSegments(dir)) {
    for (const line of readFileSync(segmentFile(dir, seq), 'utf8').split('\n')) {
      const seen = readChainLine(line);
      if (seen.kind !== 'record') continue;
      const parsed = withAgent.safeParse(JSON.parse(line));
      if (parsed.success) out.push({ hash: seen.hash, agent: parsed.data.agent, line });
    }
  }
  return out;
}

export interface StoredRecord {
  seq: number;
  subject: string;
  msgId: string | undefined;
  body: Record<string, unknown>;
}

const bodySchema = z.record(z.string(), z.unknown());

/**
 * Every message the stream holds now, in order; none when it does not exist yet, or the server
 * does not answer (restarting): the caller polls again.
 */
export async function streamRecords(nc: NatsConnection): Promise<StoredRecord[]> {
  let jsm: Awaited<ReturnType<typeof jetstreamManager>>;
  let state: { first_seq: number; last_seq: number; messages: number };
  try {
    jsm = await jetstreamManager(nc, { timeout: 1000 });
    state = (await jsm.streams.info(AUDIT_STREAM)).state;
  } catch {
    return [];
  }
  const out: StoredRecord[] = [];
  if (state.messages === 0) return out;
  for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(AUDIT_STREAM, { seq });
    if (m === null) continue;
    out.push({
      seq,
      subject: m.subject,
      msgId: m.header.get('Nats-Msg-Id') || undefined,
      body: bodySchema.parse(m.json()),
    });
  }
  return out;
}

/** How often each of `ids` is in `stored`. */
export function timesHeld(stored: readonly StoredRecord[], ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const s of stored) {
    const id = s.msgId;
    if (id !== undefined && counts.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** A user policy in `home` that denies `rm …`: each Bash call of Claude Code there leaves a record. */
export function recordingHome(home: string): void {
  mkdirSync(path.dirname(policyFile(home)), { recursive: true });
  writeFileSync(policyFile(home), denying('rm'));
}

/** `n` calls of `hookwerk hook` in `home` (cold, no daemon): each leaves its records in the journal. */
export async function hookCalls(home: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await verdictFor(home, i % 2 === 0 ? `rm -rf build${i}` : `ls dir${i}`);
}

/** `waitFor` for a check that answers undefined until the thing is there: the thing. */
export async function until<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const found = await waitFor(check, what, timeoutMs);
  if (found === undefined) throw new Error(`no ${what}`);
  return found;
}
