import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MAX_DEPTH } from '../bus/depth.ts';
import { createHookEngine } from '../engine.ts';
import { assertPrxPayload } from '../events/prx-events.ts';
import { errorMessage } from '../files/errno.ts';
import { silentLogger } from '../records/logger.ts';
import type { RunRecord } from '../records/run-record.ts';
import { formatIssue } from '../sources/issues.ts';
import { loadPrxConfig } from '../sources/prx-source.ts';
import { CliError, parseJsonOption, resolveWorkspace } from './cli-error.ts';
import { formatRecord } from './format.ts';

export interface EmitCliOptions {
  workspace?: string;
  session?: string;
  payload?: string;
  wait?: boolean;
  json?: boolean;
  timestamp?: string;
  depth?: string;
}

/**
 * `hookwerk emit`: validates in the foreground (so mistakes exit 1 at once), then either
 * hands the runs to a detached background process, or with --wait runs them and prints records.
 */
export async function emitCommand(
  event: string,
  opts: EmitCliOptions,
  out: (line: string) => void,
): Promise<number> {
  const workspace = resolveWorkspace(opts.workspace);
  const payload = opts.payload === undefined ? {} : parseJsonOption('--payload', opts.payload);
  try {
    assertPrxPayload(event, payload);
  } catch (err) {
    throw new CliError(errorMessage(err));
  }
  const loaded = loadPrxConfig(workspace);
  if (!loaded.ok)
    throw new CliError(`invalid config, no hooks run:\n${loaded.issues.map(formatIssue).join('\n')}`);
  const depth = eventDepth(opts.depth);
  const timestamp = opts.timestamp ?? new Date().toISOString();
  const session = opts.session ?? process.env.ZERO_HOOK_SESSION ?? `sess_cli_${process.pid}`;

  if (!opts.wait) {
    const bin = fileURLToPath(new URL('../../bin/hookwerk.js', import.meta.url));
    const args = [
      bin,
      'emit',
      event,
      '--workspace',
      workspace,
      '--session',
      session,
      '--payload',
      JSON.stringify(payload),
    ];
    args.push('--timestamp', timestamp, '--depth', String(depth), '--wait');
    const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', cwd: workspace });
    // A failed spawn must be one line and exit 1, not an unhandled 'error' event.
    const failed = await new Promise<Error | undefined>((resolve) => {
      child.once('error', resolve);
      child.once('spawn', () => resolve(undefined));
    });
    if (failed) throw new CliError(`cannot start the background runner: ${failed.message}`);
    child.unref();
    return 0;
  }

  if (depth > MAX_DEPTH) {
    if (!opts.json) out(`dropped: depth ${depth} is over the limit of ${MAX_DEPTH} [P-BUS-3]`);
    return 0;
  }
  const engine = await createHookEngine({ workspace, watch: false, logger: silentLogger });
  let records: RunRecord[];
  try {
    engine.emit(event, payload, { sessionId: session, depth, timestamp });
    await engine.drain();
    records = engine.runs().reverse();
  } finally {
    await engine.close();
  }
  for (const r of records) out(opts.json ? JSON.stringify(r) : formatRecord(r));
  if (records.length === 0 && !opts.json) out(`no enabled hooks for ${event} in ${loaded.file}`);
  return 0;
}

/** [P-BUS-4] Inside a hook, ZERO_HOOK_DEPTH is the depth being handled: an emit from there is one deeper. */
function eventDepth(explicit: string | undefined): number {
  if (explicit !== undefined) {
    const d = Number(explicit);
    if (!Number.isInteger(d) || d < 1) throw new CliError('--depth must be a whole number ≥ 1');
    return d;
  }
  const inherited = Number(process.env.ZERO_HOOK_DEPTH);
  return Number.isInteger(inherited) && inherited >= 0 ? inherited + 1 : 1;
}
