import path from 'node:path';
import { checkTrust } from '../consent/trust-store.ts';
import { LurusGate } from '../dialects/lurus-gate.ts';
import { isLurusEvent } from '../events/lurus-events.ts';
import { isPrxEvent, PRX_EVENT_NAMES } from '../events/prx-events.ts';
import { explainGate, explainPrx } from '../registry/explain.ts';
import { loadPrxConfig } from '../sources/prx-source.ts';
import { CliError, resolveWorkspace } from './cli-error.ts';

const LABEL = {
  runs: 'RUNS',
  matcher: 'no match',
  disabled: 'disabled',
  untrusted: 'untrusted',
  invalid: 'invalid',
};

/** `hookwerk explain EVENT`: every hook configured for the event, whether it would run, and if not, why. */
export function explainCommand(
  event: string,
  opts: { project?: string; workspace?: string; tool?: string; trigger?: string },
  out: (line: string) => void,
): number {
  let entries: ReturnType<typeof explainGate>;
  if (isLurusEvent(event)) {
    if (opts.tool !== undefined && opts.trigger !== undefined)
      throw new CliError('give --tool or --trigger, not both');
    const gate = new LurusGate({
      projectDir: path.resolve(opts.project ?? '.'),
      trust: checkTrust,
      onRecord() {},
    });
    const target = opts.tool ?? opts.trigger;
    out(
      `${event} with ${target === undefined ? 'no toolName or trigger' : `${opts.tool !== undefined ? 'toolName' : 'trigger'} ${JSON.stringify(target)}`}:`,
    );
    entries = explainGate(gate.config, gate.trust, event, target);
  } else if (isPrxEvent(event)) {
    const loaded = loadPrxConfig(resolveWorkspace(opts.workspace));
    out(`${event} (observe; every enabled action runs, concurrently):`);
    entries = explainPrx(loaded, event);
  } else {
    throw new CliError(
      `unknown event "${event}" (gate events like PreToolUse, or observe events: ${PRX_EVENT_NAMES.join(', ')})`,
    );
  }
  if (entries.length === 0) out('  no hooks are configured for this event');
  entries.forEach((e, i) => {
    out(`  ${String(i + 1).padStart(2)}. ${LABEL[e.verdict].padEnd(9)} ${e.hook}`);
    out(`      ${e.detail}`);
    out(`      from ${e.source}`);
  });
  return 0;
}
