/**
 * [R-HOOK-4] Writes the fast path's policy index (`policy-index.ts`) from a config the real loader
 * just loaded, stamped right after the load: an index is written only when no path it read moved
 * during the load (else the next call simply loads again). Loaded lazily, by the cold decider.
 */
import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import type { GateConfig } from '../dialects/gate-dialects.ts';
import { stampSources } from './path-stamps.ts';
import {
  INDEX_VERSION,
  type IndexedHook,
  indexFile,
  indexText,
  type PolicyIndex,
  realPath,
} from './policy-index.ts';
import { watchedPaths } from './source-stamps.ts';

/** Indexes kept per home (one per project and agent family); the oldest go first. */
const MAX_INDEXES = 256;

/** The index of `config` as loaded from `loadStartMs` on, or undefined when the load was not sure. */
export function policyIndexOf(
  key: string,
  projectDir: string,
  config: GateConfig,
  loadStartMs: number,
): PolicyIndex | undefined {
  const seen = stampSources(watchedPaths(config), loadStartMs);
  if (seen.unsure) return undefined;
  const events = new Map<string, IndexedHook[]>();
  for (const entry of config.entries) {
    if (entry.kind !== 'unapproved' && !entry.enabled) continue;
    const hook: IndexedHook =
      entry.kind === 'unapproved'
        ? { closed: false }
        : entry.matcher.source === undefined
          ? { closed: entry.failMode === 'closed' }
          : { matcher: entry.matcher.source, closed: entry.failMode === 'closed' };
    const list = events.get(entry.event);
    if (list === undefined) events.set(entry.event, [hook]);
    else list.push(hook);
  }
  // [G-PERM-1] A layer before the hooks (the permission rules) is an entry that may match the tools
  // it names (any tool when it names none), so the fast path hands such calls to the engine.
  for (const layer of ('layers' in config ? config.layers : undefined) ?? [])
    for (const event of layer.events) {
      const tools = layer.tools(event);
      if (tools === null) continue;
      const closed = layer.closes(event);
      const hook: IndexedHook = tools === undefined ? { closed } : { matcher: tools.join('|'), closed };
      events.set(event, [...(events.get(event) ?? []), hook]);
    }
  return {
    version: INDEX_VERSION,
    key,
    realProject: realPath(projectDir),
    stamps: [...seen.stamps],
    unusable: 'unusable' in config && config.unusable !== undefined,
    events,
  };
}

/** Writes the index (a failure to write costs the next call a load, nothing more). */
export function writePolicyIndex(home: string, index: PolicyIndex): void {
  const file = indexFile(home, index.key);
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomic(file, indexText(index), { mode: 0o600, followSymlink: false });
    pruneIndexes(path.dirname(file));
  } catch {
    // Only a cache.
  }
}

function pruneIndexes(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_INDEXES) return;
  const aged = names
    .map((n) => ({ file: path.join(dir, n), at: statSync(path.join(dir, n)).mtimeMs }))
    .sort((a, b) => a.at - b.at);
  for (const old of aged.slice(0, names.length - MAX_INDEXES)) unlinkSync(old.file);
}
