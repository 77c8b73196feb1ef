/**
 * The table of gate dialects: the one place that knows which exist (issue 19). Each entry is the
 * dialect folder's `plugin.ts`: cheap metadata read without loading the dialect, and `load`, which
 * imports it on first use (issue 31) — an engine loads the one it speaks. Adding a dialect is its
 * folder and a line here; `gateDialect` names a key of this table.
 */

import type { AgentConfig } from '../sources/agent-config.ts';
import type { GateDialectEntry, GateDialectPlugin } from './agent/gate-dialect.ts';
import { claudeEntry } from './claude/plugin.ts';
import { codexEntry } from './codex/plugin.ts';
import { copilotEntry } from './copilot/plugin.ts';
import { cursorEntry } from './cursor/plugin.ts';
import { geminiEntry } from './gemini/plugin.ts';
import { lurusEntry } from './lurus/plugin.ts';
import type { LurusConfig } from './lurus/source.ts';
import { policyEntry } from './policy/plugin.ts';

/** The gate sources as loaded, of whichever dialect the engine speaks. */
export type GateConfig = LurusConfig | AgentConfig;

export const GATE_DIALECTS = {
  lurus: lurusEntry,
  claude: claudeEntry,
  gemini: geminiEntry,
  copilot: copilotEntry,
  cursor: cursorEntry,
  codex: codexEntry,
  policy: policyEntry,
} as const satisfies Record<string, GateDialectEntry<LurusConfig> | GateDialectEntry<AgentConfig>>;

/** The gate dialects hookwerk speaks. */
export type GateDialect = keyof typeof GATE_DIALECTS;
/** The Claude-style ones: every gate dialect but Lurus, the default with its own CLI flags. */
export type AgentGateDialect = Exclude<GateDialect, 'lurus'>;

/** The dialects' names, in table order. */
export const GATE_DIALECT_NAMES = Object.keys(GATE_DIALECTS).filter((name): name is GateDialect =>
  Object.hasOwn(GATE_DIALECTS, name),
);

/** What people call a dialect (`Claude Code`), by the name a hook record carries. */
export function dialectLabel(name: string): string {
  return Object.hasOwn(GATE_DIALECTS, name) ? Reflect.get(GATE_DIALECTS, name).label : name;
}

/** The dialect itself, imported on first use (Node keeps the module: later loads are free). */
export function loadGateDialect(name: GateDialect): Promise<GateDialectPlugin<GateConfig>> {
  return GATE_DIALECTS[name].load();
}

/** A Claude-style dialect itself (its sources load into the shared agent shape). */
export function loadAgentGateDialect(name: AgentGateDialect): Promise<GateDialectPlugin<AgentConfig>> {
  return GATE_DIALECTS[name].load();
}
