/**
 * [T-SELF-3] The usual append does not list the journal folder: a listing cost as much as the
 * rest of an append (issue 30), and a benchmark cannot tell whether the fast way was taken. The
 * observable is `readdirSync` on `node:fs` counted around real appends to real files (the live
 * ESM bindings follow the counted function after `syncBuiltinESMExports`).
 */
import fs, { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendJournal } from '../src/records/journal-append.ts';
import type { JournalEntry } from '../src/records/journal-entry.ts';
import { segmentFile } from '../src/records/journal-segments.ts';
import { tempDir } from './helpers.ts';

function entry(i: number): JournalEntry {
  return {
    hook: 'no-rm-rf',
    source: '/p/.hookwerk/policy.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    dialect: 'claude',
    outcome: 'deny',
    durationMs: 1.5,
    at: new Date(1_796_000_000_000 + i).toISOString(),
    sessionId: 'sess-1',
    agent: 'claude',
    toolName: 'Bash',
  };
}

describe('journal append fast path [T-SELF-3]', () => {
  const original = fs.readdirSync;
  let listings: string[] = [];

  beforeEach(() => {
    listings = [];
    const counted: typeof fs.readdirSync = Object.assign((...args: Parameters<typeof original>) => {
      listings.push(String(args[0]));
      return original(...args);
    }, original);
    fs.readdirSync = counted;
    syncBuiltinESMExports();
  });

  afterEach(() => {
    fs.readdirSync = original;
    syncBuiltinESMExports();
  });

  it('[T-SELF-3] appends after the first never list the folder; a planted next segment does', () => {
    const dir = path.join(tempDir('hookwerk-fastpath-'), 'records');
    appendJournal(dir, [entry(0)]);
    // The counter sees listings at all: the first append (no head yet) lists the folder.
    expect(listings.length).toBeGreaterThan(0);
    listings = [];
    for (let i = 1; i <= 20; i++) appendJournal(dir, [entry(i)]);
    expect(listings).toEqual([]);
    // The head no longer tells the whole story: the full way, which lists.
    writeFileSync(segmentFile(dir, 2), '');
    appendJournal(dir, [entry(21)]);
    expect(listings.length).toBeGreaterThan(0);
  });
});
