/**
 * [T-SELF-4] A daemon socket a client did not use (not ours, or whoever listens is not our
 * daemon), or a peer it could not check: said once a day per socket and reason on the call's
 * stderr (a planted socket would otherwise put a line under every tool call), and recorded in the
 * journal the same once, so `hookwerk runs` shows it. Loaded only on that path.
 */
import { appendJournal } from '../records/journal-append.ts';
import { journalDir } from '../records/journal-segments.ts';
import { firstTimeToday } from './daily-warnings.ts';

export interface SocketNote {
  socket: string;
  /**
   * `refused`: the call was decided here; `unchecked`: the daemon was asked, unverified;
   * `system-refused`: the system daemon's socket was not used, the call went on to the user's path [T-MGD-3].
   */
  kind: 'refused' | 'unchecked' | 'system-refused';
  why: string;
}

/** The line for `note`, as the call's stderr gives it. */
export function noteLine(note: SocketNote): string {
  if (note.kind === 'system-refused')
    return `hookwerk: the system daemon socket ${note.socket} was not used (${note.why}); this call goes on to the user's path [T-MGD-3]`;
  return note.kind === 'refused'
    ? `hookwerk: the daemon socket ${note.socket} was not used (${note.why}); this call was decided here [T-SELF-4]`
    : `hookwerk: the daemon on ${note.socket} was asked without checking its process (${note.why}) [T-SELF-4]`;
}

/** The stderr lines for `notes` not yet given today (each then recorded); never throws. */
export function notesToSay(
  home: string,
  agent: string,
  event: string,
  notes: readonly SocketNote[],
  now = new Date(),
): string[] {
  const lines: string[] = [];
  for (const note of notes) {
    const line = noteLine(note);
    if (!firstTimeToday(home, `daemon-socket:${line}`, now)) continue;
    lines.push(line);
    try {
      for (const skipped of appendJournal(journalDir(home), [
        {
          hook: 'hookwerk daemon socket',
          source: note.socket,
          event,
          outcome: 'error',
          cause: note.kind === 'unchecked' ? 'daemon_unchecked' : 'daemon_refused',
          reason: note.why,
          durationMs: 0,
          at: now.toISOString(),
          agent,
        },
      ]))
        lines.push(`hookwerk: ${skipped}`);
    } catch (e) {
      lines.push(
        `hookwerk: could not record it in the journal: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  return lines;
}
