/**
 * A hook's `continue: false` on a tool call [C-ANS-3] cannot end the AI SDK's loop from inside
 * `execute`; the call is refused with a `ToolDeniedError` whose `stop` is set, and this stop
 * condition (`stopWhen: [stepCountIs(n), hookStopped()]`) ends the loop after that step.
 */
import type { StopCondition, ToolSet } from 'ai';
import { ToolDeniedError } from '../tool-denied-error.ts';

export function hookStopped<TOOLS extends ToolSet>(): StopCondition<TOOLS> {
  return ({ steps }) =>
    steps
      .at(-1)
      ?.content.some(
        (part) => part.type === 'tool-error' && part.error instanceof ToolDeniedError && part.error.stop,
      ) ?? false;
}
