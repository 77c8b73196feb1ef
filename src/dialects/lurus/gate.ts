/**
 * The Lurus dialect [§2] as one object: its sources, its eleven events, the context copied for
 * its hooks, and the sequential gate where the first deny stops the rest [L-RUN-1].
 */
import { HookInputError } from '../../core/errors.ts';
import { runSequentialGate } from '../../dispatch/gate-sequential.ts';
import {
  isLurusEvent,
  LURUS_EVENT_NAMES,
  LURUS_EVENTS,
  type LurusContext,
  type LurusEnvelope,
} from '../../events/lurus-events.ts';
import { PRX_EVENT_NAMES } from '../../events/prx-events.ts';
import type { GateEntry, LurusGateEntry } from '../../registry/hook-definition.ts';
import { matchTarget } from '../../registry/matcher.ts';
import type { GateDialectPlugin } from '../agent/gate-dialect.ts';
import { runGateHook } from './run.ts';
import { type LurusConfig, loadLurusConfig } from './source.ts';

function unknownEvent(event: string): HookInputError {
  return new HookInputError(
    'event',
    `unknown gate event "${event}"; expected one of ${LURUS_EVENT_NAMES.join(', ')}`,
  );
}

export const lurusGate: GateDialectPlugin<LurusConfig> = {
  name: 'lurus',
  label: 'Lurus',
  load: (base) => loadLurusConfig(base),
  // Lurus matchers test the context's `toolName`, else its `trigger` [L-MATCH-1].
  matchField: () => 'toolName',
  cliOptions: () => ({}),
  explainTarget(event, given) {
    if (!isLurusEvent(event)) {
      throw new HookInputError(
        'event',
        `unknown event "${event}" (gate events: ${LURUS_EVENT_NAMES.join(', ')}; observe events: ${PRX_EVENT_NAMES.join(', ')})`,
      );
    }
    return matchTarget(given);
  },
  decide(event, context, rt, call) {
    if (!isLurusEvent(event)) return Promise.reject(unknownEvent(event));
    // [N-GATE-1] A gate worker decides; local gate sources are not run.
    if (rt.remote !== undefined) return rt.remote(event, context, call);
    // A copy: hooks see the context as it was asked about, whatever the caller does meanwhile.
    const ctx: LurusContext = Object.assign<LurusContext, object>({}, context);
    const entries = lurusEntries(rt.select(event, matchTarget(ctx)));
    // A literal, not a spread: decide() with nothing to run is sub-µs.
    if (entries.length === 0) return Promise.resolve({ decision: 'allow', blocked: false, runs: [] });
    const envelope: LurusEnvelope = { event, context: ctx, cwd: rt.projectDir() };
    rt.begin();
    return runSequentialGate(envelope, LURUS_EVENTS[event].canBlock, entries, runGateHook, rt, rt.done, call);
  },
};

function isLurusEntry(entry: GateEntry): entry is LurusGateEntry {
  return entry.kind === 'unapproved' || entry.dialect === 'lurus';
}

/** The Lurus entries of a selection: the selection itself (no copy) when that is all of it, as usual. */
function lurusEntries(selected: readonly GateEntry[]): readonly LurusGateEntry[] {
  return allLurus(selected) ? selected : selected.filter(isLurusEntry);
}

function allLurus(entries: readonly GateEntry[]): entries is readonly LurusGateEntry[] {
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry !== undefined && entry.kind !== 'unapproved' && entry.dialect !== 'lurus') return false;
  }
  return true;
}
