/**
 * [G-FAIL-4] For `hookwerk validate`: the agents' hook files whose hookwerk entries give `hookwerk
 * hook` less time than the policy's handlers now need (the policy was changed after install to a
 * longer timeout). A closed guard still running when the entry's time is up is stopped and denies:
 * the fix is to run `hookwerk install` again, which writes the longer timeout. Warnings only.
 */
import type { ConfigIssue } from '../core/issues.ts';
import { jsonPath } from '../core/issues.ts';
import { HOOK_AGENT_NAMES } from '../dialects/hook-agents.ts';
import { plannedTimeouts } from './entry-timeouts.ts';
import { parseHooks, readHookFile } from './hook-file.ts';
import { type InstallTarget, installTarget } from './install-target.ts';
import { findOurEntries } from './our-entries.ts';

export interface InstallTimeoutOptions {
  /** The project whose agent files (and policy) are checked. */
  projectDir: string;
  /** Home folder (default: HOME): the user files and policy. */
  home?: string;
  /** Where `CODEX_HOME` and `COPILOT_HOME` are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** One warning (`level: "warning"`) per hookwerk entry, project's and user's, that is now too short. */
export function installTimeoutWarnings(opts: InstallTimeoutOptions): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const agent of HOOK_AGENT_NAMES)
    for (const user of [false, true]) {
      let target: InstallTarget;
      try {
        target = installTarget({
          agent,
          ...(user ? { user: true } : { projectDir: opts.projectDir }),
          ...(opts.home !== undefined ? { home: opts.home } : {}),
          ...(opts.env !== undefined ? { env: opts.env } : {}),
        });
      } catch {
        continue;
      }
      out.push(...targetWarnings(target, opts.projectDir));
    }
  return out;
}

function targetWarnings(target: InstallTarget, projectDir: string): ConfigIssue[] {
  let value: Record<string, unknown>;
  try {
    const read = readHookFile(target.file, []);
    if (read.original === undefined) return [];
    value = parseHooks(target.file, read.text, []).value;
  } catch {
    // A file that cannot be read is reported by the agent's own loader.
    return [];
  }
  const ours = findOurEntries(value, target.name).filter((o) => target.install.events.includes(o.event));
  if (ours.length === 0) return [];
  const planned = plannedTimeouts(target);
  const again = `hookwerk install --agent ${target.name} ${target.scope === 'user' ? '--user' : `--project ${projectDir}`}`;
  const out: ConfigIssue[] = [];
  for (const o of ours) {
    const given = givenTimeoutS(o.command);
    const installed = given ?? target.install.timeouts.defaultS(o.event);
    const needed = planned.seconds.get(o.event);
    if (needed === undefined || needed <= installed) continue;
    const gives =
      given !== undefined
        ? `gives hookwerk hook ${installed} s`
        : `has no --timeout (${target.label} waits ${installed} s)`;
    out.push({
      file: target.file,
      path: jsonPath(o.at),
      message: `the policy's handlers for ${o.event} need a ${needed} s timeout, but this hookwerk entry ${gives}: a failMode "closed" guard still running then is stopped and denies; run \`${again}\` again`,
      level: 'warning',
    });
  }
  return out;
}

/** The command's `--timeout S`, if it has one. */
export function givenTimeoutS(command: string): number | undefined {
  const m = /\s--timeout[\s=]+['"]?([0-9]+(?:\.[0-9]+)?)['"]?(?=\s|$)/.exec(command);
  return m?.[1] !== undefined ? Number(m[1]) : undefined;
}
