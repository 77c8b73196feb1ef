import { homeFolder } from '../core/home.ts';
import { HOOK_AGENT_NAMES } from '../dialects/hook-agents.ts';
import { SYSTEM_RECORDS_DIR } from '../hook/system-paths.ts';
import type { JournalEntry } from '../records/journal-entry.ts';
import { journalDir } from '../records/journal-segments.ts';
import { type JournalQuery, RunJournal } from '../records/run-journal.ts';
import { parseSince, SINCE_FORMAT } from '../records/since-time.ts';
import { CliError } from './cli-error.ts';
import { wholeNumberOption } from './int-option.ts';

interface RunsCliOptions {
  agent?: string;
  since?: string;
  json?: boolean;
  limit?: string;
  verify?: boolean;
  /** [T-MGD-3] The managed journal (/var/lib/hookwerk/records: root and the daemon's account may read it). */
  system?: boolean;
}

/** The journal `runs` reads: the home's, or the managed one with `--system`. */
function runsDir(opts: RunsCliOptions, env: NodeJS.ProcessEnv): string {
  return opts.system === true ? SYSTEM_RECORDS_DIR : journalDir(homeFolder(undefined, env));
}

/** The agents that write the journal [R-HOOK-1, AD-MCP-1]; another name is no error, only never seen. */
const AGENTS: readonly string[] = [...HOOK_AGENT_NAMES, 'mcp'];
const DEFAULT_LIMIT = 100;

/** Widest a column gets in the table; longer values end in `…` (`--json` has them whole). */
const WIDTH = { agent: 10, event: 20, tool: 32, hook: 40, reason: 120 } as const;

/**
 * `hookwerk runs [--agent A] [--since T] [--json] [--limit N]` [R-HOOK-3]: the agents' runs from
 * the journal of the home folder, newest first, as a table or as JSON lines. Notes (more rows,
 * unreadable lines, dropped segments) go to stderr, so `--json` output is only records.
 */
export function runsCommand(
  opts: RunsCliOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  now: Date = new Date(),
): number {
  if (opts.verify === true) return verifyCommand(opts, out, err, env);
  const limit = wholeNumberOption('--limit', opts.limit) ?? DEFAULT_LIMIT;
  const query: JournalQuery = {};
  if (opts.agent !== undefined) {
    if (opts.agent.trim() === '') throw new CliError('--agent must not be empty');
    query.agent = opts.agent;
  }
  if (opts.since !== undefined) {
    const since = parseSince(opts.since, now);
    if (since === undefined)
      throw new CliError(`--since must be ${SINCE_FORMAT}, got ${JSON.stringify(opts.since)}`);
    query.since = since;
  }
  const dir = runsDir(opts, env);
  const journal = new RunJournal(dir);
  // One more than shown: whether there are more to tell about.
  const read = journal.read({ ...query, limit: limit + 1 });
  const shown = read.entries.slice(0, limit);
  const say = opts.json === true ? err : out;

  if (shown.length === 0) {
    say(`hookwerk runs: ${emptyReason(journal, query, opts, dir)}`);
  } else if (opts.json === true) {
    for (const entry of shown) out(JSON.stringify(entry));
  } else {
    for (const line of table(shown)) out(line);
  }

  if (read.entries.length > limit)
    err(`hookwerk runs: the newest ${limit} shown; --limit N shows more, --since T fewer`);
  else if (read.droppedSegments > 0 && shown.length > 0 && query.since === undefined)
    err('hookwerk runs: older runs were dropped at the journal bound (64 MiB)');
  // [T-SELF-3] A journal file that was not read (a FIFO, a link, a folder): one line each.
  for (const line of read.refused) err(`hookwerk runs: ${line}`);
  if (read.skipped > 0)
    err(`hookwerk runs: ${read.skipped} unreadable line${read.skipped === 1 ? '' : 's'} skipped`);
  return 0;
}

/**
 * `hookwerk runs --verify` [T-SELF-3]: one stdout line per break of the journal's hash chain
 * (`broken at <segment>:<line>: edited|removed|inserted|reordered`), exit 1; exit 0 when whole.
 * Notes (where the chain starts, rotations, files not read) and the summary go to stderr.
 */
function verifyCommand(
  opts: RunsCliOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  env: NodeJS.ProcessEnv,
): number {
  const other = [opts.agent, opts.since, opts.limit, opts.json].some((o) => o !== undefined);
  if (other)
    throw new CliError('--verify checks the whole journal: it takes no --agent, --since, --limit or --json');
  const dir = runsDir(opts, env);
  const verdict = new RunJournal(dir).verify();
  for (const b of verdict.breaks) out(`broken at ${b.segment}:${b.line}: ${b.kind}`);
  for (const note of verdict.notes) err(`hookwerk runs: ${note}`);
  const n = verdict.breaks.length;
  const checked = `${verdict.records} chained record${verdict.records === 1 ? '' : 's'} in ${dir}`;
  if (n > 0) err(`hookwerk runs: the chain is broken in ${n} place${n === 1 ? '' : 's'} (${checked})`);
  else
    err(
      `hookwerk runs: the chain is whole: ${checked}${verdict.last !== undefined ? `, last hash ${verdict.last}` : ''}`,
    );
  return n > 0 ? 1 : 0;
}

/** Why nothing is listed: nothing recorded yet (and where runs come from), or nothing matches. */
function emptyReason(journal: RunJournal, query: JournalQuery, opts: RunsCliOptions, dir: string): string {
  const filtered = query.agent !== undefined || query.since !== undefined;
  if (!filtered || journal.read({ limit: 1 }).entries.length === 0)
    return (
      `no runs recorded yet in ${dir}: agents record them when their hook files call ` +
      '`hookwerk hook --agent A` (`hookwerk install --agent A` adds that call)'
    );
  const given = [
    query.agent !== undefined ? `--agent ${query.agent}` : undefined,
    opts.since !== undefined ? `--since ${opts.since}` : undefined,
  ].filter((s) => s !== undefined);
  const unknown =
    query.agent !== undefined && !AGENTS.includes(query.agent)
      ? ` (agents that record runs: ${AGENTS.join(', ')})`
      : '';
  return `no runs match ${given.join(' ')} in ${dir}${unknown}`;
}

const HEADER = ['time', 'agent', 'event', 'tool', 'hook', 'outcome', 'decision', 'duration', 'reason'];

/** The rows as aligned columns, a header first; the last column (reason) is not padded. */
function table(entries: readonly JournalEntry[]): string[] {
  const rows = entries.map((e) => [
    e.at,
    cell(e.agent, WIDTH.agent),
    cell(e.event, WIDTH.event),
    cell(e.toolName ?? '-', WIDTH.tool),
    cell(e.hook, WIDTH.hook),
    e.outcome,
    e.permission ?? e.decision ?? '-',
    `${e.durationMs.toFixed(1)}ms`,
    cell(firstLine(e.reason ?? (e.outcome === 'ok' ? '' : (e.cause ?? ''))), WIDTH.reason),
  ]);
  const all = [HEADER, ...rows];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

function firstLine(text: string): string {
  const trimmed = text.trim();
  const nl = trimmed.indexOf('\n');
  return nl < 0 ? trimmed : `${trimmed.slice(0, nl)} …`;
}

/**
 * A value as the terminal shows it: control characters (a hook's reason could carry escape
 * sequences) and bidirectional overrides become `?`, and it is cut to `width`.
 */
function cell(value: string, width: number): string {
  const safe = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?');
  const chars = [...safe];
  return chars.length <= width ? safe : `${chars.slice(0, width - 1).join('')}…`;
}
