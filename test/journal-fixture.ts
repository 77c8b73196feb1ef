/**
 * A run journal on disk for the [T-SELF-3] tests: one run record, a home whose journal already
 * holds n chained runs, and a real `hookwerk serve` over that home with its token. One copy, so
 * the journal tests build their records and their serve the same way.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type JournalEntry, journalDir, RunJournal } from '../src/index.ts';
import { cleanEnv } from './cli-runner.ts';
import { tempDir, writeHooks } from './helpers.ts';
import { startServe } from './serve-process.ts';

/** One run of hook `hook` (ok, PreToolUse, claude), stamped now. */
export function journalRun(hook: string): JournalEntry {
  return {
    hook,
    source: 's',
    event: 'PreToolUse',
    outcome: 'ok',
    durationMs: 1,
    at: new Date().toISOString(),
    agent: 'claude',
  };
}

/** The journal of `home` (a new temp home when none is given) with runs h1…hn appended, one append each. */
export function journalOf(
  n: number,
  home: string = tempDir('hw-journal-'),
): { home: string; dir: string; journal: RunJournal } {
  const dir = journalDir(home);
  const journal = new RunJournal(dir);
  for (let i = 1; i <= n; i++) journal.append([journalRun(`h${i}`)]);
  return { home, dir, journal };
}

/** Runs `use` against a real `hookwerk serve` whose HOME is `home`, with its token; stops it after. */
export async function withServe<T>(
  home: string,
  use: (port: number, token: string) => Promise<T>,
): Promise<T> {
  const workspace = tempDir('hw-journal-ws-');
  writeHooks(workspace, {});
  const served = await startServe(
    ['--workspace', workspace, '--project', workspace, '--port', '0'],
    cleanEnv({ HOME: home }),
  );
  try {
    const token = readFileSync(path.join(workspace, '.hookwerk', 'token'), 'utf8').trim();
    return await use(served.port, token);
  } finally {
    await served.stop();
  }
}
