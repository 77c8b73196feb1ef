// Issue 30 [T-SELF-1]: what `self-protect`, on by default for every agent, costs a call, against a
// baseline of the same run: the guard layer (`guardsLayer`, what the policy gate runs on
// PreToolUse) with every shipped guard turned on, vs the same layer and policy without
// self-protect (only a managed policy can turn it off; here the table is given without it).
// The call's action view is made once per row and handed to every timed decide (the gate makes
// it once per call and shares it, G-ACT-1; bench/guard.js times the view itself), so the rows time
// the guards alone: the difference is self-protect's own check.
//
//   Bash    the 120-character line of bench/guard.js (a cd, a pipeline, a redirect, a commit)
//   Write   a Write of a file in the project (a file tool: no command line to read)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { actionView } from '../dist/action/action-view.js';
import { guardsLayer } from '../dist/dialects/policy/guards.js';
import { GUARD_TABLE } from '../dist/guards/guard-table.js';
import { LINE } from './guard.js';
import { fmtRatio, fmtUs, median, progress, timeBatches, verdict } from './lib.js';

/** Self-protect may add at most this much to a call (issue 30's bench row). */
const TARGET_ADDED_US = 10;

function world() {
  const root = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-self-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  mkdirSync(path.join(home, '.hookwerk', 'installs'), { recursive: true });
  return { root, home, project, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** One call through `layer`: its input and its view, made once. */
function decideOnce(layer, call) {
  return layer.decide('PreToolUse', call.input, () => call.view);
}

export async function run() {
  const w = world();
  try {
    const ctx = { projectDir: w.project, home: w.home };
    const bases = { ...ctx, tmpDir: tmpdir() };
    const policy = {
      file: path.join(w.home, '.hookwerk', 'policy.json'),
      scope: 'user',
      value: { guards: Object.fromEntries(GUARD_TABLE.map((g) => [g.name, true])) },
    };
    const withSelf = guardsLayer([policy], bases, GUARD_TABLE);
    const without = guardsLayer(
      [
        {
          ...policy,
          value: {
            guards: Object.fromEntries(
              GUARD_TABLE.filter((g) => g.name !== 'self-protect').map((g) => [g.name, true]),
            ),
          },
        },
      ],
      bases,
      GUARD_TABLE.filter((g) => g.name !== 'self-protect'),
    );
    const calls = [
      {
        label: `a Bash call (the 120-character line of the guard rows)`,
        make: () => ({
          session_id: 's',
          cwd: w.project,
          tool_name: 'Bash',
          tool_input: { command: LINE },
        }),
      },
      {
        label: 'a Write of a project file',
        make: () => ({
          session_id: 's',
          cwd: w.project,
          tool_name: 'Write',
          tool_input: { file_path: path.join(w.project, 'src', 'index.ts'), content: 'x' },
        }),
      },
    ];
    const rows = [];
    for (const { label, make } of calls) {
      const input = make();
      const call = { input, view: actionView(input, ctx) };
      for (const layer of [withSelf, without])
        if (decideOnce(layer, call) !== undefined)
          throw new Error(`the bench call was objected to: ${label}`);
      const a = [];
      const b = [];
      // Interleaved rounds, so that a slower moment of the machine falls on both sides.
      for (let round = 0; round < 5; round++) {
        const warmup = round === 0 ? 20_000 : 2000;
        a.push(...timeBatches(() => decideOnce(withSelf, call), { batchSize: 500, batches: 11, warmup }));
        b.push(...timeBatches(() => decideOnce(without, call), { batchSize: 500, batches: 11, warmup }));
      }
      const p50 = median(a);
      const base = median(b);
      progress(`self-protect/${label}: ${fmtUs(p50)} with, ${fmtUs(base)} without`);
      rows.push({
        benchmark: `self-protect's cost on ${label}: the guard layer with every shipped guard, on the call's view (median per call)`,
        hookwerk: fmtUs(p50),
        baseline: `${fmtUs(base)} (the same layer and policy without self-protect)`,
        ratio: fmtRatio(p50 / base),
        target: `≤ ${TARGET_ADDED_US} µs added (issue 30)`,
        verdict: verdict(p50 - base <= TARGET_ADDED_US),
      });
    }
    return rows;
  } finally {
    w.cleanup();
  }
}
