/**
 * What `hookwerk hook` asks the policy's engine, and who answers: a decider made for the call
 * (cold) or kept warm (the daemon). Its own file so the call (`hook-call.ts`) and its parts
 * (`call-parts.ts`) do not import each other (issue 31: no file-level cycles).
 */
import type { ClaudeCall } from '../dialects/agent/hook-agent.ts';
import type { HookAgentName } from '../dialects/hook-agents.ts';
import type { AgentDecision } from '../dispatch/agent-answer.ts';
import type { CallDeadline } from './call-deadline.ts';

/** What the policy's engine is asked: the project, the agent, the call. */
export interface PolicyQuestion {
  projectDir: string;
  home: string;
  agent: HookAgentName;
  env: NodeJS.ProcessEnv;
  call: ClaudeCall;
  /** The fast path found no fresh policy index: a decider that loads the policy writes one. */
  indexStale?: boolean;
  /** [G-FAIL-4] The call's budget: the decide must end within it. */
  deadline?: CallDeadline;
}

/** How a call reaches an engine: made for it (cold) or kept warm (the daemon). */
export interface PolicyDecider {
  decide(question: PolicyQuestion): Promise<AgentDecision>;
}
