import { createHookEngine } from '../engine.ts';
import { isLurusEvent, LURUS_EVENT_NAMES } from '../events/lurus-events.ts';
import { silentLogger } from '../records/logger.ts';
import { formatIssue } from '../sources/issues.ts';
import { CliError, parseJsonOption, resolveWorkspace } from './cli-error.ts';

/**
 * `hookwerk decide`: prints the decision JSON [L-ANS-4]; exit 2 when it blocks, 0 otherwise.
 * A broken source is reported on stderr and skipped; the decision still happens (fail-open,
 * or for an approved project the approved text [L-TRUST-6]).
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
  const engine = await createHookEngine({
    projectDir: resolveWorkspace(opts.project),
    watch: false,
    plugins: false,
    logger: silentLogger,
  });
  const { config } = engine.gate;
  for (const issue of config.issues) err(`hookwerk: skipped source: ${formatIssue(issue)}`);
  if (config.consent.problem !== undefined) err(`hookwerk: ${config.consent.problem}`);
  for (const file of config.consent.pending)
    err(`hookwerk: ${file} changed since approval: the approved version runs (run \`hookwerk trust\`)`);
  try {
    const decision = await engine.decide(event, context);
    out(JSON.stringify(decision));
    return decision.blocked ? 2 : 0;
  } finally {
    await engine.close();
  }
}
