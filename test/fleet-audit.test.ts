/**
 * [F-AUD-1] The audit stream: a fleet daemon (a real process in a home of its own, on a real
 * nats-server with JetStream and a file store) sends every record `hookwerk hook` leaves in that
 * home's journal to the stream `hookwerk-audit`, once, on `hookwerk.audit.<host>.<agent>`; it
 * loses none when the server is down for a while or restarts, resumes from its cursor when the
 * daemon itself restarts (nothing sent twice), and reports a gap when rotation dropped records
 * before they were sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditSubject, GAP_AGENT } from '../src/fleet/audit-stream.ts';
import { journalDir, listSegments } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import {
  hookCalls,
  journalRecords,
  recordingHome,
  streamRecords,
  timesHeld,
  until,
} from './audit-harness.ts';
import { runCli } from './cli-runner.ts';
import { fleetDaemon, keyFiles } from './fleet-harness.ts';
import { tempDir, waitFor } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

/** The machine is shared: generous bounds, met at once when things work. */
const WAIT_MS = 30_000;

const dir = mkdtempSync(path.join(tmpdir(), 'hw-fleet-audit-'));
const team = keyFiles(dir, 'team');
let server: NatsServer;
let nc: NatsConnection;

beforeAll(async () => {
  server = await startNatsServer();
  nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
});
afterAll(async () => {
  await nc?.close();
  await server?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A fleet daemon in a new home whose Bash calls leave records. */
async function recordingDaemon(home = tempDir('hw-audit-home-')) {
  recordingHome(home);
  return fleetDaemon(server.url, [team.pub], { home });
}

/** Waits until the stream holds every record of `home`'s journal; returns what it holds. */
async function allDelivered(home: string) {
  const ids = journalRecords(home).map((r) => r.hash);
  expect(ids.length).toBeGreaterThan(0);
  return until(
    async () => {
      const stored = await streamRecords(nc);
      const held = timesHeld(stored, ids);
      return [...held.values()].every((n) => n > 0) ? { stored, held, ids } : undefined;
    },
    `the ${ids.length} records of ${home} in the stream`,
    WAIT_MS,
  );
}

const auditStatus = z.object({
  fleet: z.object({
    audit: z.object({ sent: z.number(), duplicates: z.number(), gaps: z.number(), failed: z.number() }),
  }),
});

async function auditOf(home: string) {
  const r = await runCli(['daemon', 'status', '--json'], { home });
  expect(r.code, r.stderr).toBe(0);
  return auditStatus.parse(JSON.parse(r.stdout)).fleet.audit;
}

describe('the audit stream hookwerk-audit [F-AUD-1]', () => {
  it('[F-AUD-1] every record of a hook call arrives once, with its hash as Nats-Msg-Id, on hookwerk.audit.<host>.<agent>', async () => {
    const { home } = await recordingDaemon();
    await hookCalls(home, 2);
    const { stored, held } = await allDelivered(home);
    const records = journalRecords(home);
    expect([...held.values()]).toEqual(records.map(() => 1));
    for (const record of records) {
      const s = stored.find((m) => m.msgId === record.hash);
      expect(s?.subject).toBe(auditSubject(hostname(), 'claude'));
      expect(s?.subject).toMatch(/^hookwerk\.audit\.[A-Za-z0-9_-]+\.claude$/);
      expect(s?.body).toMatchObject({
        host: hostname(),
        id: record.hash,
        hash: record.hash,
        agent: 'claude',
      });
      expect(typeof s?.body['user']).toBe('string');
    }
  });

  it('[F-AUD-1] a server stopped and restarted on the same store loses no record; those made while it was down arrive once after', async () => {
    const { home } = await recordingDaemon();
    await hookCalls(home, 1);
    const before = await allDelivered(home);

    await server.stop();
    // The machine works on while the server is away: these records wait in the journal.
    await hookCalls(home, 2);
    expect(journalRecords(home).length).toBeGreaterThan(before.ids.length);
    await server.restart();

    const after = await allDelivered(home);
    expect([...after.held.values()]).toEqual(after.ids.map(() => 1));
    // What was stored before the stop is still there, under the same stream sequence.
    for (const id of before.ids)
      expect(after.stored.find((m) => m.msgId === id)?.seq).toBe(
        before.stored.find((m) => m.msgId === id)?.seq,
      );
  });

  it('[F-AUD-1] a daemon started again sends on from its cursor: nothing twice, nothing skipped', async () => {
    const first = await recordingDaemon();
    await hookCalls(first.home, 1);
    const sent = await allDelivered(first.home);
    await waitFor(
      async () => (await auditOf(first.home)).sent === sent.ids.length,
      'the first daemon counted them',
    );
    expect(await first.daemon.stop('SIGTERM')).toBe(0);

    // No daemon: the hook calls still write the journal.
    await hookCalls(first.home, 1);
    await fleetDaemon(server.url, [team.pub], { home: first.home });
    const all = await allDelivered(first.home);
    expect(all.ids.length).toBeGreaterThan(sent.ids.length);
    expect([...all.held.values()]).toEqual(all.ids.map(() => 1));
    const audit = await until(
      async () => {
        const a = await auditOf(first.home);
        return a.sent + a.duplicates >= all.ids.length - sent.ids.length ? a : undefined;
      },
      'the second daemon counted its records',
      WAIT_MS,
    );
    // Only the records the first daemon had not sent: none was sent again.
    expect(audit).toMatchObject({ sent: all.ids.length - sent.ids.length, duplicates: 0 });
  });

  it('[F-AUD-1] records rotated out of the journal before they were sent are reported as a gap record', async () => {
    const { home } = await recordingDaemon();
    await hookCalls(home, 1);
    const sent = await allDelivered(home);

    await server.stop();
    await hookCalls(home, 2);
    const unsent = journalRecords(home)
      .map((r) => r.hash)
      .filter((h) => !sent.ids.includes(h));
    expect(unsent.length).toBeGreaterThan(0);
    // A journal with a tiny bound (its own options): each append starts a segment and the
    // oldest go, the unsent records with them.
    const small = new RunJournal(journalDir(home), { maxBytes: 4096, segmentBytes: 1024 });
    for (let i = 0; i < 6; i++)
      small.append([
        {
          hook: 'filler',
          source: 'test',
          event: 'PreToolUse',
          outcome: 'ok',
          durationMs: 1,
          at: new Date().toISOString(),
          agent: 'claude',
          reason: `${i} ${'x'.repeat(1500)}`,
        },
      ]);
    const oldest = listSegments(journalDir(home))[0] ?? 0;
    expect(oldest).toBeGreaterThan(1);
    await server.restart();

    const gap = await until(
      async () => (await streamRecords(nc)).find((m) => m.subject === auditSubject(hostname(), GAP_AGENT)),
      'the gap record',
      WAIT_MS,
    );
    expect(gap.body).toMatchObject({ host: hostname(), gap: { fromSegment: 1, toSegment: oldest - 1 } });
    expect(z.object({ gap: z.object({ afterHash: z.string() }) }).parse(gap.body).gap.afterHash).toBe(
      sent.ids.at(-1),
    );
    // What the journal still holds arrives; what rotation took cannot, and the gap says so.
    const kept = await allDelivered(home);
    expect([...kept.held.values()]).toEqual(kept.ids.map(() => 1));
    expect([...timesHeld(kept.stored, unsent).values()]).toEqual(unsent.map(() => 0));
  });
});
