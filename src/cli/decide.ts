import { checkTrust } from '../consent/trust-store.ts';
import { LurusGate } from '../dialects/lurus-gate.ts';
import { isLurusEvent, LURUS_EVENT_NAMES } from '../events/lurus-events.ts';
import { closeHttpPool } from '../runners/http-runner.ts';
import { formatIssue } from '../sources/issues.ts';
import { CliError, parseJsonOption, resolveWorkspace } from './cli-error.ts';

/**
 * `hookwerk decide`: prints the decision JSON [L-ANS-4]; exit 2 when it blocks, 0 otherwise.
 * A broken source is reported on stderr and skipped; the decision still happens (fail-open).
 */
export async function decideCommand(
  event: string,
  opts: { project?: string; context?: string },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  if (!isLurusEvent(event)) {
    throw new CliError(`unknown event "${event}"; expected one of ${LURUS_EVENT_NAMES.join(', ')}`);
  }
  const context = opts.context === undefined ? {} : parseJsonOption('--context', opts.context);
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    throw new CliError('--context must be a JSON object');
  }
  const gate = new LurusGate({
    projectDir: resolveWorkspace(opts.project),
    trust: checkTrust,
    onRecord() {},
  });
  for (const issue of gate.config.issues) err(`hookwerk: skipped source: ${formatIssue(issue)}`);
  try {
    const decision = await gate.decide(event, context);
    out(JSON.stringify(decision));
    return decision.blocked ? 2 : 0;
  } finally {
    await closeHttpPool();
  }
}
