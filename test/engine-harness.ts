// Imported first on purpose: its afterEach (temp folders) is registered before ours, so with
// vitest's default `stack` order it runs after the engines below are closed.
import './helpers.ts';
import { afterEach } from 'vitest';
import type { BusMessage } from '../src/bus/memory-bus.ts';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { silentLogger } from '../src/records/logger.ts';

const engines: HookEngine[] = [];

/** Closes every engine opened by `openEngine` so far (oldest first). Also runs after each test. */
export async function closeEngines(): Promise<void> {
  for (const engine of engines.splice(0)) await engine.close();
}

afterEach(closeEngines);

/** A real engine, closed after the test. */
export async function openEngine(options: HookEngineOptions): Promise<HookEngine> {
  const engine = await createHookEngine(options);
  engines.push(engine);
  return engine;
}

/** An engine on `workspace` (none when undefined), not watching, with a silent logger; closed after the test. */
export function makeEngine(
  workspace: string | undefined,
  extra: HookEngineOptions = {},
): Promise<HookEngine> {
  return openEngine({
    ...(workspace !== undefined ? { workspace } : {}),
    watch: false,
    logger: silentLogger,
    ...extra,
  });
}

/** The ZERO_HOOK_* variables every PRX shell hook receives, sorted. */
export const ZERO_HOOK_VARS = [
  'ZERO_HOOK_DEPTH',
  'ZERO_HOOK_EVENT',
  'ZERO_HOOK_PAYLOAD',
  'ZERO_HOOK_PAYLOAD_FILE',
  'ZERO_HOOK_SESSION',
  'ZERO_HOOK_TIMESTAMP',
];

/** Value of one labelled series of a counter, 0 when absent. */
export async function counterValue(
  engine: HookEngine,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = engine.metrics.registry.getSingleMetric(name);
  if (metric === undefined) return 0;
  const data = await metric.get();
  const hit = data.values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val));
  return hit?.value ?? 0;
}

/** Every bus message matching `pattern` from now on, in arrival order (the array fills as they come). */
export function collectBus(engine: HookEngine, pattern: string): BusMessage[] {
  const got: BusMessage[] = [];
  engine.bus.subscribe(pattern, (m) => {
    got.push(m);
  });
  return got;
}
