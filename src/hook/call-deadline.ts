/**
 * [G-FAIL-4] `hookwerk hook` answers before the agent kills it: S − 2 s after the call started (S:
 * `--timeout`, which `install` writes, else the agent's default for the event; below 4 s, half of
 * S). The engine's decide gets what is left, minus room to answer, as its budget: each hook is cut
 * to it and ends as a timeout, so a `failMode: "closed"` guard still running denies ("timed
 * out") and an open one gives no opinion — and if the decide is still not done when the answer is
 * due (an engine that would not start, a process stuck past SIGKILL), the call answers without
 * it, as for any failure of the policy (a closed guard of the event denies). Also: a policy whose
 * handlers now need a longer timeout than the entry gives is named once a day on stderr.
 */
import { answerBudgetMs, entryTimeoutS, handlersOf } from '../dialects/agent/hook-timeout.ts';
import type { HookAgentName } from '../dialects/hook-agents.ts';
import { HOOK_AGENTS } from '../dialects/hook-agents.ts';
import type { AgentDecision } from '../dispatch/agent-answer.ts';
import type { DecideOptions } from '../dispatch/decide-call.ts';
import type { GateEntry } from '../registry/hook-definition.ts';

/** What the reply still needs once the engine has decided: recording, closing, writing stdout. */
const REPLY_MARGIN_MS = 500;
/** The answer without the decide goes out this long before it is due. */
const LAST_CALL_MS = 100;

/** Set by the C client before it falls back to `node … hook`: when its call started (epoch ms). */
export const STARTED_ENV = 'HOOKWERK_HOOK_STARTED_MS';

/** The decide did not finish before the answer was due. */
export class CallTimedOut extends Error {
  constructor(budgetMs: number, timeoutS: number) {
    super(
      `timed out: the policy did not decide within ${budgetMs / 1000} s (the agent waits ${timeoutS} s for this hook)`,
    );
  }
}

export class CallDeadline {
  /** The agent's timeout for this call, in seconds: `--timeout`, else its default for the event. */
  readonly timeoutS: number;
  /** When the answer is due (epoch ms). */
  readonly answerBy: number;
  readonly #agent: HookAgentName;
  readonly #agentEvent: string;
  readonly #given: boolean;
  /** What the policy's handlers of the event need the entry's timeout to be (seen at decide). */
  #neededS: number | undefined;

  constructor(agent: HookAgentName, agentEvent: string, given: number | undefined, startedAt: number) {
    this.#agent = agent;
    this.#agentEvent = agentEvent;
    this.#given = given !== undefined;
    this.timeoutS = given ?? HOOK_AGENTS[agent].install.timeouts.defaultS(agentEvent);
    this.answerBy = startedAt + answerBudgetMs(this.timeoutS);
  }

  /** The engine's decide options: the budget left. Notes what the event's handlers need. */
  decideOptions(entries: readonly GateEntry[], event: string, now: number = Date.now()): DecideOptions {
    const timeouts = HOOK_AGENTS[this.#agent].install.timeouts;
    this.#neededS = entryTimeoutS(timeouts, this.#agentEvent, handlersOf(entries, event));
    return { timeoutMs: Math.max(0, this.answerBy - now - REPLY_MARGIN_MS) };
  }

  /**
   * `decided`, or a CallTimedOut rejection when it is not done by the time the answer is due;
   * a decision that comes later still goes to `late` (its runs are recorded).
   */
  within(decided: Promise<AgentDecision>, late: (d: AgentDecision) => void): Promise<AgentDecision> {
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const due = new Promise<never>((_resolve, reject) => {
      const wait = Math.max(0, this.answerBy - LAST_CALL_MS - Date.now());
      timer = setTimeout(() => {
        timedOut = true;
        reject(new CallTimedOut(answerBudgetMs(this.timeoutS), this.timeoutS));
      }, wait);
    });
    void decided.then(
      (d) => {
        if (timedOut) late(d);
      },
      () => {},
    );
    return Promise.race([decided, due]).finally(() => clearTimeout(timer));
  }

  /**
   * [G-FAIL-4] The policy changed after install: its handlers of this event need a longer
   * timeout than the entry gives. One stderr line, once a day for each entry and need.
   */
  async staleInstallLines(home: string): Promise<string[]> {
    const needed = this.#neededS;
    // Only an entry install wrote says what the agent waits; one without --timeout is validate's to name.
    if (!this.#given || needed === undefined || needed <= this.timeoutS) return [];
    const { firstTimeToday } = await import('./daily-warnings.ts');
    const key = `timeout ${this.#agent} ${this.#agentEvent} ${this.timeoutS} ${needed}`;
    if (!firstTimeToday(home, key)) return [];
    return [
      `hookwerk: warning: the policy's ${this.#agentEvent} handlers need a ${needed} s timeout, but this entry gives hookwerk hook ${this.timeoutS} s (--timeout): a failMode "closed" guard still running ${answerBudgetMs(this.timeoutS) / 1000} s in is stopped and denies; run \`hookwerk install --agent ${this.#agent}\` again (said once a day)`,
    ];
  }
}

/**
 * When this call started (epoch ms): the C client's start when it fell back to this process
 * (`STARTED_ENV`, trusted only within the last hour), else this process's start.
 */
export function callStart(env: NodeJS.ProcessEnv, now: number = Date.now()): number {
  const given = Number(env[STARTED_ENV]);
  if (Number.isSafeInteger(given) && given <= now && now - given < 3_600_000) return given;
  return performance.timeOrigin;
}
