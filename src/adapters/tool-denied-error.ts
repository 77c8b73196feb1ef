/** What a gated tool throws instead of running [AD-AI-1]: the message is the hook's reason. */
import { HookwerkError } from '../core/errors.ts';
import type { GateDecision } from '../engine-api.ts';

export class ToolDeniedError extends HookwerkError {
  /** The tool's name, as the model called it. */
  readonly tool: string;
  /** A hook said `continue: false`: the agent should stop, not only skip this call. */
  readonly stop: boolean;
  /** The gate's whole decision (its runs, reason, permission), for the host to inspect. */
  readonly decision: GateDecision;

  constructor(tool: string, reason: string, stop: boolean, decision: GateDecision) {
    super('TOOL_DENIED', reason);
    this.tool = tool;
    this.stop = stop;
    this.decision = decision;
  }
}
