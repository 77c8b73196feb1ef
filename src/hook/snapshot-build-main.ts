/**
 * [G-PERF-1] The background process that builds the cold path's startup snapshot for a home
 * (`node dist/hook/snapshot-build-main.js HOME`), started by snapshot-blob.ts's
 * startSnapshotBuild once the call that started it has ended. Lowest CPU priority: it must not
 * slow the agent's next calls. Prints one line of what happened (the tests read it).
 */
import { setPriority } from 'node:os';
import { buildSnapshot } from './snapshot-blob.ts';

const home = process.argv[2];
if (home === undefined || home === '') {
  process.stderr.write('usage: snapshot-build-main.js HOME\n');
  process.exitCode = 2;
} else {
  try {
    setPriority(19);
  } catch {
    // Not allowed: build at the priority given.
  }
  const r = buildSnapshot(home);
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exitCode = r.kind === 'failed' ? 1 : 0;
}
