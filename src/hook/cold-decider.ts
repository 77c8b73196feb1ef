/**
 * [R-HOOK-4] The decider of a lone `hookwerk hook` process: an engine made for the one call (the
 * engine's modules are imported only now), closed after it. The daemon keeps engines warm instead.
 */
import { projectSession } from '../core/project-session.ts';
import type { GateConfig } from '../dialects/gate-dialects.ts';
import type { AgentDecision } from '../dispatch/agent-answer.ts';
import { silentLogger } from '../records/logger.ts';
import type { PolicyDecider, PolicyQuestion } from './policy-decider.ts';
import { indexKey } from './policy-index.ts';

/**
 * An engine for the policy of one project, as the agent asking sees it; with `files`, those files
 * are the policy instead of the user's and the project's (`hookwerk test --policy` [G-TEST-1]).
 */
export async function policyEngine(
  q: Pick<PolicyQuestion, 'projectDir' | 'home' | 'agent' | 'env'>,
  sessionId: string,
  files?: readonly string[],
  managedLayer = false,
) {
  const { createHookEngine } = await import('../engine.ts');
  return createHookEngine({
    projectDir: q.projectDir,
    home: q.home,
    env: q.env,
    gateDialect: 'policy',
    policy: {
      agent: q.agent,
      ...(files !== undefined ? { files } : {}),
      ...(managedLayer ? { managedLayer: true } : {}),
    },
    sessionId,
    watch: false,
    plugins: false,
    logger: silentLogger,
  });
}

/**
 * The cold decider; with `files`, of those policy files instead of the user's and the project's
 * [G-TEST-1]. Such a decider never writes the fast path's index: it would describe other files
 * than the ones `hookwerk hook` reads.
 */
export function coldDeciderOf(files?: readonly string[]): PolicyDecider {
  return {
    async decide(q): Promise<AgentDecision> {
      const started = Date.now();
      const engine = await policyEngine(q, q.call.sessionId ?? projectSession(q.projectDir), files);
      // [R-HOOK-4] What this load found is what the next calls' fast path may trust.
      if (q.indexStale === true && files === undefined) await writeIndex(q, engine.gate.config, started);
      try {
        // The agent asking, for the records and a rule's `agent` [G-CEL-1].
        const options = {
          ...q.deadline?.decideOptions(engine.gate.config.entries, q.call.event),
          agent: q.agent,
        };
        const decision = await engine.decide(q.call.event, q.call.input, options);
        if (!('continue' in decision)) throw new Error('the policy answered in another dialect');
        return decision;
      } finally {
        await engine.close();
      }
    },
  };
}

export const coldDecider: PolicyDecider = coldDeciderOf();

async function writeIndex(q: PolicyQuestion, config: GateConfig, started: number): Promise<void> {
  const { policyIndexOf, writePolicyIndex } = await import('./policy-index-write.ts');
  const index = policyIndexOf(indexKey(q), q.projectDir, config, started);
  if (index !== undefined) writePolicyIndex(q.home, index);
}
