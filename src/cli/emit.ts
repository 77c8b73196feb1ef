import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_DEPTH } from '../bus/depth.ts';
import { errorMessage } from '../core/errno.ts';
import { formatIssue } from '../core/issues.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { makePrivateTempDir } from '../core/private-temp-dir.ts';
import { loadPrxConfig } from '../dialects/prx/source.ts';
import { createHookEngine } from '../engine.ts';
import { assertPrxPayload, isPrxEvent } from '../events/prx-events.ts';
import { silentLogger } from '../records/logger.ts';
import type { RunRecord } from '../records/run-record.ts';
import { CliError, parseJsonOption, resolveWorkspace } from './cli-error.ts';
import { formatRecord } from './format.ts';
import { anyNatsSecurityFlag, type NatsSecurityFlags, natsSecurityFromFlags } from './nats-cli-options.ts';
import { readStdin } from './read-stdin.ts';
import { closeOnStopSignal, graceOption } from './shutdown.ts';

interface EmitCliOptions extends NatsSecurityFlags {
  workspace?: string;
  session?: string;
  payload?: string;
  wait?: boolean;
  json?: boolean;
  timestamp?: string;
  depth?: string;
  /** [X-PROC-3] With --wait: how long running hooks get on SIGINT/SIGTERM before they are stopped. */
  shutdownGraceMs?: string;
  /** [N-WORK-1] Publish to this NATS server instead of running hooks. */
  nats?: string;
  durable?: boolean;
  eventId?: string;
}

/** `--payload -` reads the payload from stdin; it is how the background runner gets it. */
const FROM_STDIN = '-';
/** Bound on a payload read from stdin (memory, not a protocol limit: the payload file has none). */
const MAX_STDIN_PAYLOAD_BYTES = 64 * 1024 * 1024;

/**
 * `hookwerk emit`: validates in the foreground (so mistakes exit 1 at once), then either
 * hands the runs to a detached background process, or with --wait runs them and prints records.
 */
export async function emitCommand(
  event: string,
  opts: EmitCliOptions,
  out: (line: string) => void,
  err: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  const workspace = resolveWorkspace(opts.workspace);
  const payload = await payloadOption(opts.payload);
  try {
    assertPrxPayload(event, payload);
  } catch (err) {
    throw new CliError(errorMessage(err));
  }
  const timestamp = opts.timestamp ?? new Date().toISOString();
  const session = opts.session ?? process.env.ZERO_HOOK_SESSION ?? `sess_cli_${process.pid}`;
  if (opts.nats !== undefined) {
    // [N-WORK-1] Only publishes: the workers run the hooks.
    if (!isPrxEvent(event) || !isPlainObject(payload)) throw new CliError(`unknown event ${event}`);
    const envelope = { event, timestamp, session_id: session, payload };
    const security = natsSecurityFromFlags(opts);
    // Loaded on use: the NATS client stays out of every other emit's start-up.
    const { emitOverNats } = await import('./emit-nats.ts');
    const natsOpts = { nats: opts.nats, security, durable: opts.durable, eventId: opts.eventId };
    return emitOverNats(envelope, eventDepth(opts.depth), natsOpts, out, err);
  }
  if (anyNatsSecurityFlag(opts)) throw new CliError('the NATS credential and TLS flags need --nats');
  const loaded = loadPrxConfig(workspace);
  if (!loaded.ok)
    throw new CliError(`invalid config, no hooks run:\n${loaded.issues.map(formatIssue).join('\n')}`);
  const depth = eventDepth(opts.depth);

  if (!opts.wait) {
    const args = ['emit', event, '--workspace', workspace, '--session', session, '--payload', FROM_STDIN];
    if (opts.shutdownGraceMs !== undefined) args.push('--shutdown-grace-ms', opts.shutdownGraceMs);
    args.push('--timestamp', timestamp, '--depth', String(depth), '--wait');
    await startRunner(args, workspace, JSON.stringify(payload));
    return 0;
  }

  if (depth > MAX_DEPTH) {
    if (!opts.json) out(`dropped: depth ${depth} is over the limit of ${MAX_DEPTH} [P-BUS-3]`);
    return 0;
  }
  const engine = await createHookEngine({
    workspace,
    watch: false,
    logger: silentLogger,
    ...graceOption(opts.shutdownGraceMs),
  });
  const stopOnSignal = closeOnStopSignal(engine, err);
  let records: RunRecord[];
  try {
    engine.emit(event, payload, { sessionId: session, depth, timestamp });
    await engine.drain();
    records = engine.runs().reverse();
  } finally {
    stopOnSignal();
    await engine.close();
  }
  for (const r of records) out(opts.json ? JSON.stringify(r) : formatRecord(r));
  if (records.length === 0 && !opts.json) out(`no enabled hooks for ${event} in ${loaded.file}`);
  return 0;
}

/** The `--payload` JSON, or the text on stdin for `--payload -` (nothing on a terminal: `{}`). */
async function payloadOption(given: string | undefined): Promise<unknown> {
  if (given === undefined) return {};
  if (given !== FROM_STDIN) return parseJsonOption('--payload', given);
  const text = await readStdin(MAX_STDIN_PAYLOAD_BYTES, 'the payload');
  return parseJsonOption('--payload on stdin', text.trim() === '' ? '{}' : text);
}

/**
 * Starts the detached background runner (`hookwerk emit … --payload - --wait`) with the payload
 * on its stdin, never in argv: argv is readable by every user (`ps`, /proc/<pid>/cmdline), and
 * one argument is capped at 128 KiB (a bigger payload failed with E2BIG).
 */
async function startRunner(args: string[], cwd: string, payloadJson: string): Promise<void> {
  const bin = fileURLToPath(new URL('../../bin/hookwerk.js', import.meta.url));
  const stdin = unlinkedPayloadFile(payloadJson);
  try {
    const child = spawn(process.execPath, [bin, ...args], {
      detached: true,
      stdio: [stdin, 'ignore', 'ignore'],
      cwd,
    });
    // A failed spawn must be one line and exit 1, not an unhandled 'error' event.
    const failed = await new Promise<Error | undefined>((resolve) => {
      child.once('error', resolve);
      child.once('spawn', () => resolve(undefined));
    });
    if (failed) throw new CliError(`cannot start the background runner: ${failed.message}`);
    child.unref();
  } finally {
    // The runner holds its own copy of the descriptor.
    closeSync(stdin);
  }
}

/**
 * A read descriptor (at offset 0) of a file holding `text`, written 0600 in a private 0700
 * folder and removed before anyone reads it: the runner inherits the open file as its stdin, so
 * this process exits at once (a pipe would wait for the runner to read a big payload) and no
 * payload stays on disk, whatever happens to the runner.
 */
function unlinkedPayloadFile(text: string): number {
  let dir: string | undefined;
  try {
    dir = makePrivateTempDir('hookwerk-emit-');
    const file = path.join(dir, 'payload.json');
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    return openSync(file, 'r');
  } catch (err) {
    throw new CliError(`cannot hand the payload to the background runner: ${errorMessage(err)}`);
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
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
