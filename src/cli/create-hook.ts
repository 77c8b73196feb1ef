import { lstatSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { errorMessage } from '../core/errno.ts';
import { formatIssue } from '../core/issues.ts';
import { parseJsonText } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { LURUS_LIMITS } from '../dialects/lurus/schema.ts';
import { lurusDir } from '../dialects/lurus/source.ts';
import {
  LURUS_EVENT_NAMES,
  LURUS_EVENTS,
  type LurusEventName,
  lurusEventFromInput,
} from '../events/lurus-events.ts';
import { CliError } from './cli-error.ts';
import { shellHookTemplate } from './templates/shell.ts';
import { tsHookTemplate } from './templates/typescript.ts';

/** [L-GEN-1] A hook name is a file stem: no path separators, no leading dot, no surprises in a shell word. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

interface CreateHookOptions {
  /** Project folder holding `.lurus/` (default: the current folder). */
  project?: string;
  /** Write a TypeScript hook run with `npx tsx` instead of a shell script. */
  ts?: boolean;
  /** Rewrite an existing script of the same name. */
  force?: boolean;
}

type JsonObject = Record<string, unknown>;
const jsonObject = z.record(z.string(), z.unknown());

/**
 * `hookwerk create-hook EVENT NAME [--ts] [--project DIR] [--force]` [L-GEN-1]: writes
 * `.lurus/hooks/NAME.sh` (0755) or `NAME.ts` from the event's template, and appends a definition
 * running it to `.lurus/hooks.json`. Everything is checked before anything is written.
 */
export function createHookCommand(
  eventInput: string,
  name: string,
  opts: CreateHookOptions,
  out: (line: string) => void,
): number {
  const event = lurusEventFromInput(eventInput);
  if (event === undefined) {
    throw new CliError(
      `unknown event ${JSON.stringify(eventInput)}; valid events: ${LURUS_EVENT_NAMES.join(', ')}`,
    );
  }
  if (!SAFE_NAME.test(name)) {
    throw new CliError(
      `invalid hook name ${JSON.stringify(name)}: use 1-64 letters, digits, "_", "." or "-", starting with a letter or digit`,
    );
  }
  const projectDir = path.resolve(opts.project ?? '.');
  if (!isDirectory(projectDir)) throw new CliError(`project folder ${projectDir} does not exist`);

  const ext = opts.ts ? 'ts' : 'sh';
  const relScript = `.lurus/hooks/${name}.${ext}`;
  const command = opts.ts ? `npx tsx ${relScript}` : `sh ${relScript}`;
  const dir = lurusDir(projectDir);
  const hooksFile = path.join(dir, 'hooks.json');
  const scriptFile = path.join(dir, 'hooks', `${name}.${ext}`);

  // 1. Check: the event map must be a readable JSON object whose event entry (if any) is an array.
  const map = readEventMap(hooksFile);
  const existing = map?.[event];
  if (existing !== undefined && !Array.isArray(existing)) {
    throw new CliError(
      `${hooksFile}: $.${event} must be an array of definitions; fix it first (nothing was written)`,
    );
  }
  const alreadyDefined = (existing ?? []).some((def) => runsCommand(def, command));

  // 2. Check: never overwrite a script unless asked to.
  const scriptState = pathState(scriptFile);
  if (scriptState === 'directory') throw new CliError(`${scriptFile} is a directory (nothing was written)`);
  if (scriptState === 'other' && !opts.force) {
    throw new CliError(`${scriptFile} already exists; use --force to overwrite it (nothing was written)`);
  }

  // 3. Write the script, then the definition.
  mkdirSync(path.dirname(scriptFile), { recursive: true });
  const text = opts.ts ? tsHookTemplate(event, name) : shellHookTemplate(event, name);
  writeAtomic(scriptFile, text, opts.ts ? 0o644 : 0o755);
  out(
    `${scriptState === 'absent' ? 'created' : 'overwrote'} ${scriptFile} (${event} hook: edit it to add your logic)`,
  );

  if (alreadyDefined) {
    out(`kept ${hooksFile}: ${event} already runs \`${command}\``);
  } else {
    const next: JsonObject = map ?? {};
    const definition = {
      hooks: [{ type: 'command', command, timeout: LURUS_LIMITS.defaultTimeoutMs }],
    };
    next[event] = [...(existing ?? []), definition];
    const mode = map === undefined ? 0o644 : statSync(hooksFile).mode & 0o777;
    writeAtomic(hooksFile, `${JSON.stringify(next, null, 2)}\n`, mode);
    out(
      `${map === undefined ? 'created' : 'updated'} ${hooksFile}: ${event} runs \`${command}\` (all ${matchesWhat(event)})`,
    );
  }

  const where = opts.project !== undefined ? ` --project ${shellWord(projectDir)}` : '';
  if (LURUS_EVENTS[event].matcherField !== null) {
    out(
      `next: to narrow it, add "matcher" (tested against context.${LURUS_EVENTS[event].matcherField}) to the definition`,
    );
  }
  if (opts.ts) out('next: npm install --save-dev tsx (so `npx tsx` need not download it when the hook runs)');
  out(`next: hookwerk validate${where}`);
  out(`next: hookwerk trust${where} (project hooks run only once approved, again after every change)`);
  return 0;
}

/** What a definition without a matcher runs for, in words. */
function matchesWhat(event: LurusEventName): string {
  switch (LURUS_EVENTS[event].matcherField) {
    case 'toolName':
      return event.startsWith('Subagent') ? 'agent types' : 'tools';
    case 'trigger':
      return 'triggers';
    default:
      return 'prompts';
  }
}

/** The parsed `.lurus/hooks.json`, `undefined` when missing; anything but a JSON object is refused untouched. */
function readEventMap(file: string): JsonObject | undefined {
  // Bounded, and never blocking on a FIFO [L-TRUST-4].
  const read = readSourceFile(file, LURUS_LIMITS.maxFileBytes);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'refused')
    throw new CliError(`${file}: file ${read.message}; fix it first (nothing was written)`);
  const parsed = parseJsonText(file, read.text);
  if (!parsed.ok) throw new CliError(`${formatIssue(parsed.issue)}; fix it first (nothing was written)`);
  const value = jsonObject.safeParse(parsed.value);
  if (!value.success) {
    throw new CliError(
      `${file}: $: must be a JSON object (an event map); fix it first (nothing was written)`,
    );
  }
  return value.data;
}

/** Whether a definition already runs exactly this command (whatever its matcher). */
function runsCommand(def: unknown, command: string): boolean {
  if (typeof def !== 'object' || def === null) return false;
  const hooks: unknown = Reflect.get(def, 'hooks');
  if (!Array.isArray(hooks)) return false;
  return hooks.some(
    (h: unknown) =>
      typeof h === 'object' &&
      h !== null &&
      Reflect.get(h, 'type') === 'command' &&
      Reflect.get(h, 'command') === command,
  );
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** `lstat`, so a symlink (even a dangling one) counts as an existing file and is replaced, never followed. */
function pathState(p: string): 'absent' | 'directory' | 'other' {
  try {
    return lstatSync(p).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'absent';
  }
}

/** Readers see the old file or the new one, never half of it. */
function writeAtomic(file: string, text: string, mode: number): void {
  try {
    // A symlinked script is replaced, never written through (its target may be anywhere).
    writeFileAtomic(file, text, { mode, followSymlink: false });
  } catch (err) {
    throw new CliError(`cannot write ${file}: ${errorMessage(err)}`);
  }
}

/** A path as one shell word, for the suggested next commands. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
