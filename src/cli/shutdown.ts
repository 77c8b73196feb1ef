/**
 * [X-PROC-3] Bounded shutdown for the commands that run hooks in the foreground (`emit --wait`,
 * `decide`): SIGINT or SIGTERM closes the engine — running hooks get the grace, then SIGTERM to
 * everything they started, SIGKILL 5 s later — and the command exits 130 / 143. The daemons
 * (`daemon`, `daemon --system`) drain on the first signal and exit at once on a second.
 */
import type { HookEngine } from '../engine-api.ts';
import { CliError } from './cli-error.ts';

/** `--shutdown-grace-ms`: a whole number of milliseconds ≥ 0, or the engine's default. */
export function graceOption(value: string | undefined): { shutdownGraceMs?: number } {
  if (value === undefined) return {};
  const ms = Number(value);
  if (!/^\d{1,9}$/.test(value.trim()) || !Number.isSafeInteger(ms))
    throw new CliError(
      `--shutdown-grace-ms must be a whole number of milliseconds, got ${JSON.stringify(value)}`,
    );
  return { shutdownGraceMs: ms };
}

/** While `engine` works: a stop signal closes it (bounded) and ends the process. Returns the removal. */
export function closeOnStopSignal(engine: HookEngine, err: (line: string) => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    err(`hookwerk: ${signal}: stopping running hooks`);
    engine.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** The first SIGINT or SIGTERM (a daemon then drains); a second one exits the process at once. */
export function firstSignal(err: (line: string) => void): Promise<string> {
  return new Promise((resolve) => {
    let seen = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (seen) {
        // A second Ctrl-C means now: running calls are abandoned (their clients decide themselves).
        err(`hookwerk daemon: ${signal} again, exiting now`);
        process.exit(1);
      }
      seen = true;
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
