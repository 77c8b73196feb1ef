// The same hook set under hookwerk: in a fresh world at the real run's paths, `hookwerk trust
// --yes` (project hooks run only after consent), then one `hookwerk decide EVENT --dialect D` per
// firing the real tool made, in the order it made them, each with the exact input object the real
// tool gave its hooks. Each decide records into a folder of its own, so the hooks it ran are known.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecords } from './observe.js';
import { runProcess } from './processes.js';

/** This checkout's hookwerk, or another built checkout's (HOOKWERK_DIFF_ROOT), e.g. a branch under review. */
export const HOOKWERK_ROOT = process.env.HOOKWERK_DIFF_ROOT
  ? path.resolve(process.env.HOOKWERK_DIFF_ROOT)
  : fileURLToPath(new URL('..', import.meta.url));
const HOOKWERK = path.join(HOOKWERK_ROOT, 'bin', 'hookwerk.js');

/**
 * @param {'claude'|'gemini'} dialect
 * @param {object} world
 * @param {Array<{event: string, stdin: string}>} firings
 * @param {Record<string, string>} env the environment the real tool was given
 * @param {{decideMs: number, deadline: number}} limits per decide, and when the case must end
 * @param {{take: () => object[]}} [http] the case's HTTP hook server: what it got during a decide
 *   is that decide's (decides run one at a time)
 */
export async function replayUnderHookwerk(dialect, world, firings, env, limits, http) {
  const timeoutMs = () => Math.max(1, Math.min(limits.decideMs, limits.deadline - Date.now()));
  http?.take();
  const pluginArgs = world.plugin ? ['--plugin-dir', world.plugin] : [];
  const trust = await runProcess(
    process.execPath,
    [HOOKWERK, 'trust', '--yes', '--project', world.proj, ...pluginArgs],
    { cwd: world.proj, env, timeoutMs: timeoutMs() },
  );
  const decides = [];
  for (const [i, firing] of firings.entries()) {
    if (Date.now() >= limits.deadline) {
      decides.push({
        event: firing.event,
        code: null,
        timedOut: true,
        ms: 0,
        stderr: 'not run: the case ran out of time',
        records: [],
      });
      continue;
    }
    const rec = path.join(world.rec, `decide-${i}`);
    mkdirSync(rec, { recursive: true });
    const run = await runProcess(
      process.execPath,
      [
        HOOKWERK,
        'decide',
        firing.event,
        '--dialect',
        dialect,
        '--project',
        world.proj,
        ...(dialect !== 'gemini' ? pluginArgs : []),
      ],
      { cwd: world.proj, env: { ...env, HWDIFF_REC: rec }, input: firing.stdin, timeoutMs: timeoutMs() },
    );
    let decision;
    try {
      decision = JSON.parse(run.stdout);
    } catch {
      decision = undefined;
    }
    decides.push({
      event: firing.event,
      code: run.code,
      timedOut: run.timedOut,
      ms: run.ms,
      stderr: run.stderr,
      decision,
      records: [...readRecords(rec), ...(http?.take() ?? [])].sort((a, b) => a.t - b.t),
    });
  }
  return { trust: { code: trust.code, stdout: trust.stdout, stderr: trust.stderr }, decides };
}
