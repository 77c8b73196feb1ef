import { errorMessage } from '../core/errno.ts';
import { projectSession } from '../core/project-session.ts';
import { shownIssue, tildePath } from '../core/tilde-path.ts';
import { loadGateDialect } from '../dialects/gate-dialects.ts';
import { createHookEngine } from '../engine.ts';
import type { GateDialect } from '../engine-api.ts';
import { isLurusEvent, LURUS_EVENT_NAMES } from '../events/lurus-events.ts';
import { silentLogger } from '../records/logger.ts';
import { runProblemLines } from '../records/run-problem-lines.ts';
import { CliError, parseJsonOption, resolveWorkspace } from './cli-error.ts';
import { readStdin as readBoundedStdin } from './read-stdin.ts';
import { closeOnStopSignal, graceOption } from './shutdown.ts';

/** The input object is at most this big on stdin (a tool input can be large; a gate input is not a file). */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

interface DecideOptions {
  project?: string;
  context?: string;
  dialect?: GateDialect;
  input?: string;
  pluginDir?: string[];
  /** [C-IN-1] The `session_id` of an input that gives none (default: one per project folder). */
  session?: string;
  /** [X-PROC-3] How long running hooks get on SIGINT/SIGTERM before they are stopped. */
  shutdownGraceMs?: string;
}

/**
 * `hookwerk decide`: prints the decision JSON [L-ANS-4, C-OUT-1]; exit 2 when it blocks, 0
 * otherwise [C-CLI-1]. A broken source is reported on stderr and skipped; the decision still
 * happens (fail-open, or for an approved project the approved text [L-TRUST-6]).
 */
export async function decideCommand(
  event: string,
  opts: DecideOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  readStdin: () => Promise<string> = () => readBoundedStdin(MAX_INPUT_BYTES, 'the input'),
): Promise<number> {
  const dialect = opts.dialect ?? 'lurus';
  let given: object;
  if (dialect === 'lurus') {
    if (!isLurusEvent(event)) {
      throw new CliError(`unknown event "${event}"; expected one of ${LURUS_EVENT_NAMES.join(', ')}`);
    }
    given = objectOption('--context', opts.context ?? '{}');
  } else {
    // [C-CLI-1] The input object from --input, else from stdin (nothing on a terminal: {}).
    const text = opts.input ?? (await readStdin());
    given = objectOption(
      opts.input !== undefined ? '--input' : 'the input on stdin',
      text.trim() === '' ? '{}' : text,
    );
  }
  const projectDir = resolveWorkspace(opts.project);
  const engine = await createHookEngine({
    projectDir,
    gateDialect: dialect,
    sessionId: sessionOption(opts.session, projectDir),
    ...(await loadGateDialect(dialect)).cliOptions({
      pluginDirs: (opts.pluginDir ?? []).map((d) => resolveWorkspace(d)),
    }),
    watch: false,
    plugins: false,
    logger: silentLogger,
    ...graceOption(opts.shutdownGraceMs),
  });
  const stopOnSignal = closeOnStopSignal(engine, err);
  const { config } = engine.gate;
  for (const issue of config.issues) err(`hookwerk: skipped source: ${shownIssue(issue, config.home)}`);
  if (config.consent.problem !== undefined) err(`hookwerk: ${config.consent.problem}`);
  for (const file of config.consent.pending)
    err(
      `hookwerk: ${tildePath(file, config.home)} changed since approval: the approved version runs (run \`hookwerk trust\`)`,
    );
  try {
    const decision = await engine.decide(event, given);
    for (const line of runProblemLines(decision.runs, config.projectDir, config.home)) err(line);
    out(JSON.stringify(decision));
    return decision.blocked ? 2 : 0;
  } catch (e) {
    throw new CliError(errorMessage(e));
  } finally {
    stopOnSignal();
    await engine.close();
  }
}

/**
 * [C-IN-1] Each `decide` is an engine of its own, so the engine's random session would change on
 * every call: `--session ID` names the session, and without it every call for one project folder
 * shares one, derived from the folder (the same value each time, never a fresh random one).
 */
function sessionOption(given: string | undefined, projectDir: string): string {
  if (given !== undefined) {
    if (given === '' || given.includes('\0'))
      throw new CliError('--session must be a non-empty id without NUL bytes');
    return given;
  }
  return projectSession(projectDir);
}

function objectOption(what: string, text: string): object {
  const value = parseJsonOption(what, text);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError(`${what} must be a JSON object`);
  return value;
}
