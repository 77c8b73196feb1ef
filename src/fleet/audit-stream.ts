/**
 * [F-AUD-1] The JetStream stream `hookwerk-audit` every fleet daemon sends its journal's records
 * to, on `hookwerk.audit.<host>.<agent>`, and its limits (docs/team.md, "Reading the audit
 * stream"). A daemon creates it when missing; an existing stream keeps what its operator set.
 * Loaded only by a daemon with `--fleet` (NATS never on the `hookwerk hook` path).
 */
import { DiscardPolicy, jetstreamManager, StorageType, type StreamConfig } from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';
import { permissionViolation, refusalText } from '../nats/nats-link.ts';

export const AUDIT_STREAM = 'hookwerk-audit';
export const AUDIT_SUBJECTS = 'hookwerk.audit.>';
/** The subject a gap record goes to, in place of an agent's name. */
export const GAP_AGENT = '_gap';

/** Records older than this are dropped by the server (30 days). */
export const AUDIT_MAX_AGE_MS = 30 * 24 * 3_600_000;
/** The stream's bytes at most (1 GiB): past it the oldest records go first. */
export const AUDIT_MAX_BYTES = 1024 * 1024 * 1024;
/** One record at most (a journal line is ~50 KiB at most). */
export const AUDIT_MAX_MSG_BYTES = 1024 * 1024;
/**
 * The same `Nats-Msg-Id` again within this window is stored once. A record is sent again only
 * when its acknowledgement was lost (an outage, a daemon killed mid-batch): it is resent as soon
 * as the server answers again, normally well within 10 minutes. The server keeps each id for
 * the window (memory), so it is not days.
 */
export const AUDIT_DUPLICATE_WINDOW_MS = 10 * 60_000;

/** A subject token from a host or agent name: letters, digits, `-` and `_` kept, the rest `_`. */
export function subjectToken(name: string): string {
  const token = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return token === '' ? '_' : token;
}

export function auditSubject(host: string, agent: string): string {
  return `hookwerk.audit.${subjectToken(host)}.${subjectToken(agent)}`;
}

export function auditStreamConfig(): Partial<StreamConfig> & { name: string } {
  return {
    name: AUDIT_STREAM,
    subjects: [AUDIT_SUBJECTS],
    storage: StorageType.File,
    max_age: nanos(AUDIT_MAX_AGE_MS),
    max_bytes: AUDIT_MAX_BYTES,
    max_msg_size: AUDIT_MAX_MSG_BYTES,
    duplicate_window: nanos(AUDIT_DUPLICATE_WINDOW_MS),
    discard: DiscardPolicy.Old,
  };
}

/**
 * The stream, created when missing. Returns a line to log when it could not be (the server
 * refused these credentials, or is not answering): the forwarder tries again later; the records
 * wait in the journal.
 */
export async function ensureAuditStream(nc: NatsConnection): Promise<string | undefined> {
  try {
    const jsm = await jetstreamManager(nc);
    try {
      await jsm.streams.info(AUDIT_STREAM);
      return undefined;
    } catch {
      // Missing: made below.
    }
    await jsm.streams.add(auditStreamConfig());
    return undefined;
  } catch (err) {
    const refused = permissionViolation(err);
    if (refused !== undefined)
      return `stream ${AUDIT_STREAM} is missing and these credentials cannot create it (the server refused ${refusalText(refused)})`;
    return `stream ${AUDIT_STREAM}: ${err instanceof Error ? err.message : String(err)}`;
  }
}
