/** Which plugins an event goes to [P-WASM-2]: exact names, `*`, and topic patterns on `prx.lifecycle.<event>`. */
import { topicMatches } from '../bus/topic-trie.ts';
import { PRX_EVENT_NAMES } from '../events/prx-events.ts';
import type { WasmPluginHook } from '../registry/hook-definition.ts';
import { compileMatcher } from '../registry/matcher.ts';
import type { PluginRunner } from '../runners/wasm/plugin-runner.ts';

/** True when one of `patterns` (the union of a plugin's capabilities) selects `event`. */
export function patternsMatch(patterns: readonly string[], event: string): boolean {
  const topic = `prx.lifecycle.${event}`;
  for (const p of patterns) {
    if (p === '*' || p === event) return true;
    // Exact names never contain a dot; anything with one is a topic pattern (validated at load).
    if (p.includes('.') && topicMatches(p, topic)) return true;
  }
  return false;
}

const ALWAYS = compileMatcher(undefined);

/**
 * The registry's definitions for a set of loaded plugins: one per plugin and PRX event its
 * patterns select, so dispatch stays one map lookup. Events outside the PRX table get no plugins
 * (emit() rejects them anyway).
 */
export function pluginHooks(plugins: readonly PluginRunner[]): WasmPluginHook[] {
  const out: WasmPluginHook[] = [];
  for (const event of PRX_EVENT_NAMES) {
    for (const plugin of plugins) {
      if (!patternsMatch(plugin.patterns, event)) continue;
      out.push({
        kind: 'wasm',
        dialect: 'prx',
        name: plugin.name,
        event,
        origin: { source: plugin.spec.manifestFile, scope: 'plugin', file: plugin.spec.manifestFile },
        matcher: ALWAYS,
        timeoutMs: plugin.spec.timeoutMs,
        failMode: 'open',
        enabled: true,
        plugin,
      });
    }
  }
  return out;
}
