/**
 * The PRX observe dialect [§1.4, §1.5]: what a hook gets for one event (env built from nothing,
 * the three payload channels, the sandbox argv) and how its ending becomes a record. The runners
 * run; this file only builds requests.
 */
import { randomBytes } from 'node:crypto';
import type { LazyPrivateTempDir } from '../../core/private-temp-dir.ts';
import type { PrxEventInstance } from '../../events/prx-events.ts';
import type { ObserveHook, PrxShellHook } from '../../registry/hook-definition.ts';
import { HookCallInfo, runInProcess } from '../../runners/in-process-runner.ts';
import type { ProcessSpec } from '../../runners/process-types.ts';
import { type Ending, outcomeOf } from '../../runners/run-result.ts';
import type { Runners } from '../../runners/runners.ts';
import { bwrapArgv } from '../../sandbox/bwrap.ts';

/** [P-SEC-1] The only PATH a PRX hook sees. */
const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';
/** [P-PAY-1] Above this many UTF-8 bytes the envelope is not put in ZERO_HOOK_PAYLOAD. */
const MAX_ENV_PAYLOAD_BYTES = 8192;

/** [P-SEC-1, P-PAY-1, P-PAY-4, P-BUS-4] The hook's environment, built from nothing. */
function buildPrxEnv(hook: PrxShellHook, ev: PrxEventInstance, payloadFile: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: SAFE_PATH,
    ZERO_HOOK_EVENT: ev.envelope.event,
    ZERO_HOOK_SESSION: ev.envelope.session_id,
    ZERO_HOOK_TIMESTAMP: ev.envelope.timestamp,
    ZERO_HOOK_DEPTH: String(ev.depth),
    ZERO_HOOK_PAYLOAD_FILE: payloadFile,
  };
  const json = ev.json;
  // Length in UTF-16 units bounds the UTF-8 size from below: only measure bytes when it could be close.
  if (json.length <= MAX_ENV_PAYLOAD_BYTES && Buffer.byteLength(json, 'utf8') <= MAX_ENV_PAYLOAD_BYTES) {
    env.ZERO_HOOK_PAYLOAD = json;
  }
  return Object.assign(env, hook.env);
}

/**
 * One run of a shell action for one event: the payload file (0600, removed however the run ends
 * [P-PAY-2]), env, optional stdin; under bwrap [P-SEC-7] the runner spawns bwrap with the same
 * env and cwd.
 */
function prxProcessSpec(hook: PrxShellHook, ev: PrxEventInstance, payloadFile: string): ProcessSpec {
  const env = buildPrxEnv(hook, ev, payloadFile);
  let command = hook.command;
  let args = hook.args;
  if (hook.sandbox !== undefined) {
    ({ command, args } = bwrapArgv({
      sandbox: hook.sandbox,
      command,
      args,
      cwd: hook.cwd,
      env,
      payloadFile,
    }));
  }
  const spec: ProcessSpec = {
    command,
    args,
    env,
    cwd: hook.cwd,
    timeoutMs: hook.timeoutMs,
    payloadFile: { path: payloadFile, text: ev.json },
  };
  if (hook.stdinJson) spec.stdin = `${ev.json}\n`;
  if (hook.keepChildren === true) spec.keepChildren = true;
  return spec;
}

/** What an in-process observer gets besides the envelope. */
class ObserverCallInfo extends HookCallInfo {
  constructor(readonly depth: number) {
    super();
  }
}

/** Where an engine's observe runs get their payload file names (a private 0700 folder). */
interface PayloadFiles {
  next(): string;
}

/**
 * Payload file names in the engine's private folder, unique per engine. The folder part is
 * joined once: a run only appends its number (no path normalization per run).
 */
export function payloadFilesIn(dir: LazyPrivateTempDir): PayloadFiles {
  const name = `payload-${randomBytes(4).toString('hex')}-`;
  let counter = 0;
  // A template, not path.join: the folder is already normal, and this runs once per hook run.
  return { next: () => `${dir.path()}/${name}${++counter}.json` };
}

/** Runs one observe hook for one event and says how it ended (the record's outcome fields). */
export async function runObserveHook(
  hook: ObserveHook,
  ev: PrxEventInstance,
  runners: Runners,
  payloads: PayloadFiles,
): Promise<Ending> {
  switch (hook.kind) {
    case 'process':
      return outcomeOf(await runners.process.run(prxProcessSpec(hook, ev, payloads.next())));
    case 'in-process':
      // Emits made by the observer are one level deeper than the event it handles [P-BUS-3].
      return outcomeOf(
        await runInProcess(hook.fn, ev.envelope, new ObserverCallInfo(ev.depth), hook.timeoutMs, ev.depth),
      );
    case 'wasm': {
      const start = performance.now();
      const r = await hook.plugin.call(ev.envelope.event, ev.json);
      return outcomeOf(Object.assign(r, { kind: 'wasm' as const, durationMs: performance.now() - start }));
    }
  }
}
