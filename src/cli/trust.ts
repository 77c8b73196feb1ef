import { statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  approveProject,
  checkTrust,
  type Fingerprint,
  PIN_DIRECTORY,
  PIN_SPECIAL,
  PIN_UNREADABLE,
  projectFingerprint,
  projectKey,
} from '../consent/trust-store.ts';
import { projectPathsOf } from '../sources/command-words.ts';
import { formatIssue } from '../sources/issues.ts';
import { type LurusConfig, loadLurusConfig } from '../sources/lurus-source.ts';
import { CliError } from './cli-error.ts';

export interface TrustIo {
  out(line: string): void;
  err(line: string): void;
  /** Asks a yes/no question; resolves `false` for anything but yes. */
  ask(question: string): Promise<boolean>;
  /**
   * `false` when no one can answer (stdin is not a TTY, e.g. CI): without `--yes` the answer is
   * no, and the message says to use `--yes`. Default `true`.
   */
  interactive?: boolean;
}

export interface TrustOptions {
  project?: string;
  yes?: boolean;
  /** Folder holding `.lurus/` (default `$HOME`). */
  home?: string;
  /** Where LURUS_HOOK_PASS_ENV and its names are looked up (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

const QUESTION = 'Approve these project hooks? [y/N] ';

/**
 * `hookwerk trust`: shows what the project hooks run and which data leaves [L-TRUST-2], then
 * records consent for exactly what was shown [L-TRUST-1]. Exit 0 approved (or nothing to
 * approve, or already approved), 1 not approved.
 */
export async function trustCommand(opts: TrustOptions, io: TrustIo): Promise<number> {
  const projectDir = path.resolve(opts.project ?? '.');
  if (!isDirectory(projectDir)) throw new CliError(`${projectDir} is not a folder`);
  const config = loadLurusConfig({ projectDir, ...(opts.home !== undefined ? { home: opts.home } : {}) });
  for (const issue of config.issues) io.err(formatIssue(issue));

  const hooks = config.all.filter((h) => h.scope === 'project');
  const root = projectKey(config.projectDir);
  if (hooks.length === 0) {
    io.out(`no project hooks in ${root}: nothing to approve`);
    return 0;
  }

  // Taken once, before the review: the approval records exactly what was shown.
  const fingerprint = projectFingerprint(config);
  const check = checkTrust(config, fingerprint);
  if (check.problem !== undefined) io.err(check.problem);

  printReview(config, fingerprint, opts.env ?? process.env, io.out);
  if (check.trusted) {
    io.out(`already approved (${check.approved?.approvedAt ?? 'earlier'}) and unchanged: nothing to do`);
    return 0;
  }
  if (check.approved && check.changed.length > 0) {
    io.out(`changed since the approval of ${check.approved.approvedAt}:`);
    for (const file of check.changed) {
      io.out(`  ${rel(root, file)} (${changeKind(check.approved.files, fingerprint, file)})`);
    }
  } else if (!check.approved) {
    io.out('not approved yet');
  }

  const unreadable = Object.keys(fingerprint).filter((k) => fingerprint[k] === PIN_UNREADABLE);
  if (unreadable.length > 0) {
    for (const file of unreadable) io.err(`cannot read ${rel(root, file)}: its content cannot be pinned`);
    io.err('not approved: make the files readable and run `hookwerk trust` again');
    return 1;
  }

  if (!opts.yes) {
    if (io.interactive === false) {
      io.err(
        'not approved: no terminal to ask on (stdin is not a TTY); run `hookwerk trust --yes` to approve',
      );
      return 1;
    }
    if (!(await io.ask(QUESTION))) {
      io.err(
        'not approved: the project hooks stay skipped (to approve without a prompt: `hookwerk trust --yes`)',
      );
      return 1;
    }
  }

  let result: ReturnType<typeof approveProject>;
  try {
    result = approveProject(config, fingerprint);
  } catch (err) {
    throw new CliError(`cannot record the approval: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (result.backup !== undefined) io.err(`the unusable trust store was moved to ${result.backup}`);
  const pinned = Object.keys(fingerprint).length;
  io.out(
    `approved: ${hooks.length} project ${plural(hooks.length, 'hook')} of ${root} ` +
      `(${pinned} ${plural(pinned, 'path')} pinned in ${result.file})`,
  );
  return 0;
}

/** [L-TRUST-2] Per project hook, in merged order: event, matcher, what runs, which data leaves. */
function printReview(
  config: LurusConfig,
  fingerprint: Fingerprint,
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
): void {
  const root = projectKey(config.projectDir);
  const passed = passEnvNames(env);
  out(`project hooks of ${root}:`);
  let n = 0;
  let missing = false;
  for (const [event, list] of config.byEvent) {
    for (const hook of list) {
      if (hook.scope !== 'project') continue;
      n++;
      out(
        `  ${n}. ${event}, matcher ${hook.matcher.source === undefined ? '(all)' : JSON.stringify(hook.matcher.source)}`,
      );
      out(`     from:  ${rel(root, hook.file)} ${hook.path}`);
      if (hook.kind === 'command') {
        out(`     runs:  ${hook.command}  (/bin/sh -c, in the project folder)`);
        for (const p of projectPathsOf(hook.command, config.projectDir)) {
          const shown = path.relative(config.projectDir, p);
          const pin = fingerprint[path.join(root, shown)] ?? null;
          if (pin === null) missing = true;
          out(`     file:  ${shown}${pinNote(pin)}`);
        }
        const extra = passed.length > 0 ? ` + LURUS_HOOK_PASS_ENV: ${passed.join(', ')}` : '';
        out(
          `     sends: the event context on stdin (tool inputs, prompts) + the environment allowlist${extra}`,
        );
      } else {
        out(`     runs:  ${hook.method} ${hook.url}`);
        const headers = Object.keys(hook.headers);
        if (headers.length > 0) out(`     headers: ${headers.join(', ')}`);
        out(
          `     sends: the event context to host ${hostOf(hook.url)}${hook.url.startsWith('http:') ? ' (unencrypted http)' : ''}`,
        );
      }
    }
  }
  out(
    `approval pins the content of the project sources and of the files above${
      missing ? ' (missing ones as absent: creating one voids the approval)' : ''
    }`,
  );
}

/** Names in LURUS_HOOK_PASS_ENV that are set now: names only, never values. */
function passEnvNames(env: NodeJS.ProcessEnv): string[] {
  const names = (env.LURUS_HOOK_PASS_ENV ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && env[s] !== undefined);
  return [...new Set(names)];
}

function pinNote(pin: string | null): string {
  if (pin === null) return ' (missing)';
  if (pin === PIN_DIRECTORY) return ' (folder: its presence is pinned, not its contents)';
  if (pin === PIN_SPECIAL) return ' (not a regular file)';
  if (pin === PIN_UNREADABLE) return ' (unreadable)';
  return '';
}

function changeKind(before: Fingerprint, after: Fingerprint, file: string): string {
  if (!Object.hasOwn(before, file)) return 'newly referenced';
  if (!Object.hasOwn(after, file)) return 'no longer referenced';
  if (before[file] === null) return 'created';
  if (after[file] === null) return 'deleted';
  return 'modified';
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function rel(root: string, file: string): string {
  const r = path.relative(root, file);
  return r === '' || r.startsWith('..') || path.isAbsolute(r) ? file : r;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The default `ask`: one line from the terminal, yes only for `y`/`yes` (any case).
 * Resolves `false` at once when stdin is not a TTY, and on end of input.
 */
export function askOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return Promise.resolve(false);
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    let answer: string | undefined;
    rl.on('close', () => {
      if (answer === undefined) process.stdout.write('\n'); // end of input: leave the prompt line
      resolve(answer !== undefined && /^y(es)?$/i.test(answer.trim()));
    });
    rl.question(question, (line) => {
      answer = line;
      rl.close();
    });
  });
}
