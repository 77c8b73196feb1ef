import path from 'node:path';
import { shownIssue, tildePath } from '../core/tilde-path.ts';
import { loadGateDialect } from '../dialects/gate-dialects.ts';
import { createHookEngine } from '../engine.ts';
import type { GateDialect } from '../engine-api.ts';
import { isLurusEvent } from '../events/lurus-events.ts';
import { isPrxEvent, PRX_EVENT_NAMES } from '../events/prx-events.ts';
import { silentLogger } from '../records/logger.ts';
import type { Explanation } from '../registry/explain.ts';
import { handlerLine } from '../registry/handler-facts.ts';
import { CliError, parseJsonOption, resolveWorkspace } from './cli-error.ts';

const LABEL: Record<Explanation['verdict'], string> = {
  runs: 'RUNS',
  matcher: 'no match',
  if: 'if not matched',
  disabled: 'disabled',
  untrusted: 'untrusted',
  changed_since_approval: 'changed_since_approval',
  newer_version_pending: 'newer_version_pending',
  invalid: 'invalid',
  duplicate: 'duplicate',
};

/**
 * `hookwerk explain EVENT`: every hook configured for the event, in run order, whether it would
 * run, and if not, why — from the engine's own registry, selection and plan, so it cannot
 * disagree with a run [G-FAIL-5]. With `--tool` (and `--input`, the tool's input) each `if` rule
 * is asked as `decide` asks it. Paths show the home folder as `~`.
 */
export async function explainCommand(
  event: string,
  opts: {
    project?: string;
    workspace?: string;
    tool?: string;
    trigger?: string;
    /** The tool's input (`tool_input`), JSON: with `--tool`. */
    input?: string;
    dialect?: GateDialect;
    pluginDir?: string[];
  },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let entries: Explanation[];
  let home: string | undefined;
  const dialect = opts.dialect ?? 'lurus';
  const toolInput = toolInputOption(opts);
  if (dialect !== 'lurus' && !isPrxEvent(event)) {
    if (opts.tool !== undefined && opts.trigger !== undefined)
      throw new CliError('give --tool or --trigger, not both');
    const plugin = await loadGateDialect(dialect);
    const engine = await createHookEngine({
      projectDir: path.resolve(opts.project ?? '.'),
      gateDialect: dialect,
      ...plugin.cliOptions({ pluginDirs: (opts.pluginDir ?? []).map((d) => path.resolve(d)) }),
      watch: false,
      plugins: false,
      logger: silentLogger,
    });
    home = engine.gate.config.home;
    for (const issue of engine.gate.config.issues)
      err(`hookwerk: skipped source: ${shownIssue(issue, home)}`);
    const field = plugin.matchField(event);
    const value = opts.tool ?? opts.trigger;
    const given: Record<string, unknown> = {};
    if (opts.tool !== undefined) given.tool_name = opts.tool;
    else if (opts.trigger !== undefined && field !== undefined) given[field] = opts.trigger;
    if (toolInput !== undefined) given.tool_input = toolInput;
    const withInput = toolInput === undefined ? '' : `, tool_input ${JSON.stringify(toolInput)}`;
    out(
      `${event} (${dialect}) with ${value === undefined ? 'no matched value' : `${field ?? 'value'} ${JSON.stringify(value)}`}${withInput}:`,
    );
    try {
      entries = engine.explain(event, given);
    } finally {
      await engine.close();
    }
  } else if (isLurusEvent(event)) {
    if (opts.tool !== undefined && opts.trigger !== undefined)
      throw new CliError('give --tool or --trigger, not both');
    const engine = await createHookEngine({
      projectDir: path.resolve(opts.project ?? '.'),
      watch: false,
      plugins: false,
      logger: silentLogger,
    });
    home = engine.gate.config.home;
    // [L-TRUST-4] A refused or invalid source is named on stderr too, not only in the listing.
    for (const issue of engine.gate.config.issues)
      err(`hookwerk: skipped source: ${shownIssue(issue, home)}`);
    const target = opts.tool ?? opts.trigger;
    out(
      `${event} with ${target === undefined ? 'no toolName or trigger' : `${opts.tool !== undefined ? 'toolName' : 'trigger'} ${JSON.stringify(target)}`}:`,
    );
    entries = engine.explain(event, {
      ...(opts.tool !== undefined ? { toolName: opts.tool } : {}),
      ...(opts.trigger !== undefined ? { trigger: opts.trigger } : {}),
      ...(toolInput !== undefined ? { toolInput } : {}),
    });
    await engine.close();
  } else if (isPrxEvent(event)) {
    const engine = await createHookEngine({
      workspace: resolveWorkspace(opts.workspace),
      watch: false,
      plugins: false,
      logger: silentLogger,
    });
    home = engine.gate.config.home;
    out(`${event} (observe; every enabled action runs, concurrently):`);
    entries = engine
      .explain(event)
      .map((e) =>
        e.verdict === 'invalid'
          ? { ...e, detail: `${e.detail} — no shell hooks run until the file is valid` }
          : e,
      );
    await engine.close();
  } else {
    throw new CliError(
      `unknown event "${event}" (gate events like PreToolUse, or observe events: ${PRX_EVENT_NAMES.join(', ')})`,
    );
  }
  if (entries.length === 0) out('  no hooks are configured for this event');
  entries.forEach((e, i) => {
    out(`  ${String(i + 1).padStart(2)}. ${LABEL[e.verdict].padEnd(14)} ${e.hook}`);
    out(`      ${e.detail}`);
    if (e.handler !== undefined) out(`      ${handlerLine(e.handler)}`);
    out(`      from ${tildePath(e.source, home)}`);
  });
  return 0;
}

/** `--input`: the tool's input (`tool_input`), a JSON object, given with `--tool`. */
function toolInputOption(opts: { tool?: string; input?: string }): object | undefined {
  if (opts.input === undefined) return undefined;
  if (opts.tool === undefined)
    throw new CliError('--input is the input of the tool --tool names: give --tool too');
  const value = parseJsonOption('--input', opts.input);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError('--input must be a JSON object (the tool\'s input, e.g. {"command":"ls"})');
  return value;
}
