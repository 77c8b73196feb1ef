/**
 * [F-AUD-1] A fleet daemon's audit forwarder: sends each record of this home's journal to the
 * stream `hookwerk-audit`, the journal being the outbox. A record is already on disk when it is
 * read here; it goes with `Nats-Msg-Id` = its chain hash (the server stores it once), in batches
 * of at most BATCH_RECORDS with at most IN_FLIGHT publishes waiting for their acknowledgement;
 * the cursor (`audit-cursor.ts`) moves past a record only once it and every record before it
 * were acknowledged, and is saved after each batch. While NATS is away nothing is sent and
 * nothing lost: the journal keeps the records, and the forwarder sends on from its cursor once
 * the server answers again (or the daemon started again). Segments that rotation deleted before
 * they were sent are reported once as a gap record. Loaded only by a daemon with `--fleet`.
 */
import { existsSync, type FSWatcher, watch } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { errorMessage } from '../core/errno.ts';
import { defaultNatsName } from '../nats/engine-nats.ts';
import { NatsLink } from '../nats/nats-link.ts';
import type { NatsSecurity } from '../nats/nats-options.ts';
import { redactUrls } from '../nats/redact-url.ts';
import { journalDir } from '../records/journal-segments.ts';
import { type AuditCursor, auditCursorFile, readAuditCursor, writeAuditCursor } from './audit-cursor.ts';
import { type OutboxGap, type OutboxRecord, readOutbox } from './audit-outbox.ts';
import { auditSubject, ensureAuditStream, GAP_AGENT } from './audit-stream.ts';

/** Records read from the journal and sent per batch (the cursor is saved after each). */
export const BATCH_RECORDS = 256;
/** Publishes waiting for their acknowledgement at once. */
export const IN_FLIGHT = 32;
/** Each connection attempt's wait; the client itself retries within it. */
const CONNECT_TRY_MS = 2000;
/**
 * The longest a record waits when no change of the journal folder was seen (a watch that
 * missed it, a folder made after the start); a change or a reconnect wakes the forwarder at once.
 */
const POLL_MS = 2000;

export interface AuditCounts {
  /** Records the stream acknowledged as new. */
  sent: number;
  /** Records it acknowledged as already held (sent again after a lost acknowledgement). */
  duplicates: number;
  /** Gap records sent. */
  gaps: number;
  /** Publishes that failed (no answer, refused): their records are sent again. */
  failed: number;
  /** Journal lines passed over: the chain's markers, torn or edited lines. */
  skipped: number;
}

export interface AuditStatus extends AuditCounts {
  /** Where the next record is read: segment and byte offset. */
  cursor: { seq: number; offset: number } | null;
  lastError: string | null;
}

export interface AuditForwarderOptions {
  home: string;
  url: string;
  security: NatsSecurity;
  say: (line: string) => void;
}

export interface AuditForwarder {
  status(): AuditStatus;
  stop(): Promise<void>;
}

export function startAuditForwarder(opts: AuditForwarderOptions): AuditForwarder {
  const dir = journalDir(opts.home);
  const cursorFile = auditCursorFile(opts.home);
  const host = hostname();
  const user = userName();
  const say = (line: string) => opts.say(`audit: ${redactUrls(line)}`);
  const counts: AuditCounts = { sent: 0, duplicates: 0, gaps: 0, failed: 0, skipped: 0 };
  let cursor = readAuditCursor(cursorFile, say);
  let lastError: string | null = null;
  let stopped = false;
  let link: NatsLink | undefined;
  let watcher: FSWatcher | undefined;

  // Woken by a change in the journal folder, a reconnect, or stop; `dirty` keeps a wake that
  // came while a batch was being sent.
  let dirty = false;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    const w = wakeUp;
    wakeUp = undefined;
    if (w === undefined) dirty = true;
    else w();
  };
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (dirty || stopped) {
        dirty = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        wakeUp = undefined;
        resolve();
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const fail = (why: string) => {
    // One line per new reason, not one per try.
    if (why !== lastError) say(`${why}; the records wait in the journal`);
    lastError = why;
  };

  const watchJournal = () => {
    if (watcher !== undefined || !existsSync(dir)) return;
    try {
      watcher = watch(dir, { persistent: false }, wake);
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      // The poll covers it.
    }
  };

  const moveTo = (next: AuditCursor) => {
    cursor = next;
    writeAuditCursor(cursorFile, next);
  };

  const send = async (l: NatsLink, subject: string, body: string, msgID: string) => {
    const ack = await l.js.publish(subject, body, { msgID });
    if (ack.duplicate) counts.duplicates++;
    else counts.sent++;
  };

  /** The batch's records, IN_FLIGHT at a time; the cursor moves past each acknowledged run of them. */
  const sendRecords = async (l: NatsLink, records: readonly OutboxRecord[]): Promise<boolean> => {
    for (let i = 0; i < records.length; i += IN_FLIGHT) {
      const window = records.slice(i, i + IN_FLIGHT);
      const results = await Promise.allSettled(
        window.map((r) => send(l, auditSubject(host, r.agent), recordBody(host, user, r), r.hash)),
      );
      let acked: AuditCursor | undefined;
      for (const [j, result] of results.entries()) {
        if (result.status === 'rejected') {
          counts.failed++;
          if (acked !== undefined) moveTo(acked);
          fail(`sending to the stream failed (${errorMessage(result.reason)})`);
          return false;
        }
        acked = window[j]?.after;
      }
      if (acked !== undefined) moveTo(acked);
    }
    return true;
  };

  const sendGap = async (l: NatsLink, gap: OutboxGap): Promise<boolean> => {
    const id = `gap-${gap.fromSegment}-${gap.fromOffset}-${gap.afterHash ?? 'start'}`;
    const body = JSON.stringify({ host, user, id, at: new Date().toISOString(), gap });
    try {
      await send(l, auditSubject(host, GAP_AGENT), body, id);
    } catch (e) {
      counts.failed++;
      fail(`sending the gap record failed (${errorMessage(e)})`);
      return false;
    }
    counts.gaps++;
    say(
      `journal segments ${gap.fromSegment} to ${gap.toSegment} were rotated out before they were sent: gap record sent`,
    );
    moveTo({ seq: gap.toSegment + 1, offset: 0, hash: gap.afterHash });
    return true;
  };

  /** One pass: what the journal holds past the cursor, sent. True when there may be more. */
  const pump = async (l: NatsLink): Promise<boolean> => {
    const batch = readOutbox(dir, cursor, BATCH_RECORDS);
    counts.skipped += batch.skipped;
    if (batch.gap !== undefined && !(await sendGap(l, batch.gap))) return false;
    if (!(await sendRecords(l, batch.records))) return false;
    const end = batch.end;
    if (end !== undefined && (end.seq !== cursor?.seq || end.offset !== cursor.offset)) moveTo(end);
    lastError = null;
    return batch.records.length >= BATCH_RECORDS || batch.gap !== undefined;
  };

  const run = async () => {
    let told = false;
    while (!stopped && link === undefined) {
      try {
        link = await NatsLink.open({
          servers: [opts.url],
          connectTimeoutMs: CONNECT_TRY_MS,
          name: defaultNatsName(),
          logger: { info: () => {}, warn: () => {}, error: () => {} },
          security: opts.security,
        });
      } catch (e) {
        if (!told) say(`${errorMessage(e)}; the records wait in the journal, retrying`);
        told = true;
      }
    }
    if (stopped || link === undefined) return;
    link.onReconnect(wake);
    let streamReady = false;
    while (!stopped) {
      watchJournal();
      dirty = false;
      let more = false;
      if (link.connected) {
        try {
          if (!streamReady) {
            const why = await ensureAuditStream(link.nc);
            if (why !== undefined) fail(why);
            streamReady = why === undefined;
          }
          if (streamReady) more = await pump(link);
        } catch (e) {
          // A journal that cannot be read now (I/O), a cursor that cannot be saved: tried again.
          fail(errorMessage(e));
        }
        // A failed publish may be a stream deleted since: looked at again before the next try.
        if (lastError !== null) streamReady = false;
      }
      if (!more) await wait(POLL_MS);
    }
  };
  const running = run();

  return {
    status: () => ({
      ...counts,
      cursor: cursor === undefined ? null : { seq: cursor.seq, offset: cursor.offset },
      lastError,
    }),
    async stop() {
      stopped = true;
      wake();
      await running;
      watcher?.close();
      await link?.close();
    },
  };
}

/**
 * What the stream holds for a record: `host`, `user` and `id` (its hash), then the journal line
 * byte for byte (so its `hash` can be checked against the text, docs/team.md).
 */
function recordBody(host: string, user: string, r: OutboxRecord): string {
  const head = JSON.stringify({ host, user, id: r.hash });
  return `${head.slice(0, -1)},${r.line.slice(1)}`;
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env['USER'] ?? 'unknown';
  }
}
