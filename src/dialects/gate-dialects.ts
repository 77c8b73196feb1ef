/**
 * The table of gate dialects: the one place that knows which exist. Adding one is its folder and
 * a line here (issue 19); `gateDialect` names a key of this table.
 */
import type { AgentConfig } from '../sources/agent-config.ts';
import type { GateDialectPlugin } from './agent/gate-dialect.ts';
import { claudeGate } from './claude/gate.ts';
import { codexGate } from './codex/gate.ts';
import { copilotGate } from './copilot/gate.ts';
import { cursorGate } from './cursor/gate.ts';
import { geminiGate } from './gemini/gate.ts';
import { lurusGate } from './lurus/gate.ts';
import type { LurusConfig } from './lurus/source.ts';
import { policyGate } from './policy/gate.ts';

export const GATE_DIALECTS = {
  lurus: lurusGate,
  claude: claudeGate,
  gemini: geminiGate,
  copilot: copilotGate,
  cursor: cursorGate,
  codex: codexGate,
  policy: policyGate,
} as const satisfies Record<string, GateDialectPlugin<GateConfig>>;

/** The gate sources as loaded, of whichever dialect the engine speaks. */
export type GateConfig = LurusConfig | AgentConfig;

/** The gate dialects hookwerk speaks. */
export type GateDialect = keyof typeof GATE_DIALECTS;
/** The Claude-style ones: every gate dialect but Lurus, the default with its own CLI flags. */
export type AgentGateDialect = Exclude<GateDialect, 'lurus'>;

/** What people call a dialect (`Claude Code`), by the name a hook record carries. */
export function dialectLabel(name: string): string {
  return Object.hasOwn(GATE_DIALECTS, name) ? Reflect.get(GATE_DIALECTS, name).label : name;
}
