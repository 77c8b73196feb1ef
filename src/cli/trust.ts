import { statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { actionViewOf } from '../action/action-view.ts';
import { type FilePin, folderFiles, PIN_DIRECTORY, PIN_SPECIAL, PIN_UNREADABLE } from '../consent/pins.ts';
import { approveSurface, consentStatus } from '../consent/project-consent.ts';
import { projectKey, readTrustStore, removeApproval, trustStorePath } from '../consent/trust-store.ts';
import {
  ensureTrustToken,
  TRUST_TOKEN_ENV,
  trustTokenMatches,
  trustTokenPath,
} from '../consent/trust-token.ts';
import { outsidePathsOf } from '../core/command-words.ts';
import { errorMessage } from '../core/errno.ts';
import { homeFolder } from '../core/home.ts';
import { formatIssue } from '../core/issues.ts';
import { groupReadings, type Reading } from '../core/readings.ts';
import { tildePath } from '../core/tilde-path.ts';
import {
  dialectLabel,
  GATE_DIALECT_NAMES,
  type GateConfig,
  type GateDialect,
  loadGateDialect,
} from '../dialects/gate-dialects.ts';
import type { LurusHook } from '../dialects/lurus/source.ts';
import { trustNeedsHuman } from '../dialects/policy/trust-setting.ts';
import { readGateProject } from '../dialects/surfaces/gate-project.ts';
import { MANAGED_POLICY_FILE, policyFile } from '../dialects/surfaces/policy-files.ts';
import type { LayerLine } from '../dispatch/gate-layer.ts';
import type { AgentHook } from '../registry/hook-definition.ts';
import { CliError } from './cli-error.ts';
import { askOnControllingTerminal } from './tty-confirm.ts';

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
  /**
   * [T-SELF-2] Asks on the controlling terminal (never stdin); `undefined` when there is none.
   * Default: `/dev/tty` (`tty-confirm.ts`).
   */
  askHuman?: (question: string) => Promise<boolean | undefined>;
}

interface TrustOptions {
  project?: string;
  yes?: boolean;
  /** [L-TRUST-7] List every approval instead of reviewing a project. */
  list?: boolean;
  /** [L-TRUST-7] Remove the project's approval. */
  revoke?: boolean;
  /** Folder holding `.lurus/` (default: the account's home, see core/home.ts). */
  home?: string;
  /** Where LURUS_HOOK_PASS_ENV and its names are looked up (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** [C-SRC-4] Claude Code plugin folders approved with the project. */
  pluginDir?: string[];
}

const QUESTION = 'Approve these project hooks? [y/N] ';

/**
 * `hookwerk trust`: shows what the project hooks run and which data leaves [L-TRUST-2], then
 * records consent for exactly what was shown [L-TRUST-1, L-TRUST-5]: the pins and the text of
 * each source, which is what runs until the next approval [L-TRUST-6]. Exit 0 approved (or
 * nothing to approve, or already approved), 1 not approved. `--list` and `--revoke` [L-TRUST-7].
 * With `"trust": {"requireHuman": true}` only the trust token or a yes typed on the terminal
 * approves [T-SELF-2]; every run makes the token first if there is none.
 */
export async function trustCommand(opts: TrustOptions, io: TrustIo): Promise<number> {
  // [L-TRUST-12] The account's home, never `/`; none stops here with a one-line error.
  const home = homeFolder(opts.home);
  makeTrustToken(home);
  if (opts.list) return listApprovals(home, io);
  const projectDir = path.resolve(opts.project ?? '.');
  if (!isDirectory(projectDir)) throw new CliError(`${projectDir} is not a folder`);
  if (opts.revoke) return revoke(home, projectDir, io);

  // [C-SRC-4] One approval for the project's sources of every dialect and each plugin folder given.
  const root = projectKey(projectDir);
  const plugins = (opts.pluginDir ?? []).map((d) => {
    if (!isDirectory(d)) throw new CliError(`plugin folder ${path.resolve(d)} is not a folder`);
    return projectKey(d);
  });
  const project = readGateProject(root, home, plugins);
  const configs = await Promise.all(
    GATE_DIALECT_NAMES.map(async (name) => {
      const dialect = await loadGateDialect(name);
      return dialect.load({ projectDir: root, home, project }, dialect.cliOptions({ pluginDirs: plugins }));
    }),
  );
  const config = { projectDir: root, surface: project.surface, projectTexts: project.texts };
  const projectFiles = new Set(project.surface.sourceFiles);
  const allIssues = configs.flatMap((c) => c.issues);
  for (const issue of allIssues) io.err(formatIssue(issue));

  // (issue 31) A hook read by several dialects (`.claude/settings.json`: Claude Code, Copilot,
  // Cursor) is shown and counted once, with every dialect that reads it.
  const hooks = groupReadings(
    configs.flatMap((c) =>
      c.hooks
        .filter((h) => h.origin.file !== undefined && projectFiles.has(h.origin.file))
        .map((item: ReviewHook) => ({ dialect: item.dialect, item })),
    ),
    (h) => h.origin.source,
  );
  const rules = projectRules(configs, projectFiles, { projectDir: root, home });
  // Taken once, before the review: the approval records exactly what was shown.
  const status = consentStatus(home, config.surface);
  const projectIssues = allIssues.filter((i) => projectFiles.has(i.file));
  if (projectIssues.length > 0) {
    // Approving a broken source would approve "no hooks" where the author meant some.
    io.err(
      status.approved !== undefined
        ? 'not approved: fix the problems above first; until then the approved version keeps running'
        : 'not approved: fix the problems above first',
    );
    return 1;
  }
  if (hooks.length === 0 && rules.length === 0 && status.approved === undefined) {
    io.out(`no project hooks in ${root}: nothing to approve`);
    return 0;
  }
  const { fingerprint } = status;
  const sources = { ...config.projectTexts };
  if (status.problem !== undefined) io.err(status.problem);

  printReview(root, hooks, rules, config.surface.hookFolders, fingerprint, opts.env ?? process.env, io.out);
  const approvedNow =
    status.approved !== undefined &&
    status.changed.length === 0 &&
    status.pending.length === 0 &&
    Object.keys(status.approved.files).length === Object.keys(fingerprint).length;
  if (approvedNow) {
    io.out(`already approved (${status.approved?.approvedAt ?? 'earlier'}) and unchanged: nothing to do`);
    return 0;
  }
  if (status.approved !== undefined) {
    io.out(`changed since the approval of ${status.approved.approvedAt}:`);
    for (const file of [...status.pending, ...status.changed].sort()) {
      io.out(
        `  ${rel(root, file)} (${changeKind(status.approved.files, fingerprint, file, config.surface.hookFolders)})`,
      );
    }
    // [L-TRUST-8] New files in a hook folder that cannot run as code (a hook's log): they void
    // nothing, but approving pins them like every file there.
    const listed = new Set([...status.pending, ...status.changed]);
    const approvedFiles = status.approved.files;
    for (const file of Object.keys(fingerprint).sort()) {
      if (listed.has(file) || Object.hasOwn(approvedFiles, file)) continue;
      io.out(`  ${rel(root, file)} (new; cannot run as code, so it voids nothing; approving pins it)`);
    }
  } else {
    io.out('not approved yet');
  }

  if (status.unreadable.length > 0) {
    for (const file of status.unreadable)
      io.err(`cannot read ${rel(root, file)}: its content cannot be pinned`);
    io.err('not approved: make the files readable and run `hookwerk trust` again');
    return 1;
  }

  // [T-SELF-2, T-MGD-1] The managed policy or the user's may require a person.
  const human = trustNeedsHuman([MANAGED_POLICY_FILE, policyFile(home)]);
  if (human.required) {
    if (!(await humanApproves(home, opts.env ?? process.env, io, human.problem))) return 1;
  } else if (!opts.yes) {
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

  let result: ReturnType<typeof approveSurface>;
  try {
    result = approveSurface(home, config.surface, { fingerprint, sources });
  } catch (err) {
    throw new CliError(`cannot record the approval: ${errorMessage(err)}`);
  }
  if (result.backup !== undefined) io.err(`the unusable trust store was moved to ${result.backup}`);
  const pinned = Object.keys(fingerprint).length;
  const ruleNote = rules.length > 0 ? ` and ${rules.length} ${plural(rules.length, 'rule')}` : '';
  io.out(
    `approved: ${hooks.length} project ${plural(hooks.length, 'hook')}${ruleNote} of ${root} ` +
      `(${pinned} ${plural(pinned, 'path')} pinned in ${result.file})`,
  );
  return 0;
}

/** [T-SELF-2] The first `trust` run of any kind makes the token; a home it cannot write has none. */
function makeTrustToken(home: string): void {
  try {
    ensureTrustToken(home);
  } catch {
    // No token: requireHuman then approves on a terminal only.
  }
}

/**
 * [T-SELF-2] `"trust": {"requireHuman": true}`: the user's token in HOOKWERK_TRUST_TOKEN, else a
 * person's yes on the controlling terminal; `--yes` and stdin count for nothing. One line when not.
 */
async function humanApproves(
  home: string,
  env: NodeJS.ProcessEnv,
  io: TrustIo,
  problem: string | undefined,
): Promise<boolean> {
  const why =
    problem === undefined
      ? 'the user policy says "trust": {"requireHuman": true}'
      : `${problem}, so a person approves`;
  const given = env[TRUST_TOKEN_ENV];
  if (given !== undefined && given !== '') {
    const match = trustTokenMatches(home, given);
    if (match.ok) return true;
    io.err(
      `not approved: ${TRUST_TOKEN_ENV} is not the trust token of ${tildePath(trustTokenPath(home), home)}${match.problem === undefined ? '' : ` (${match.problem})`}`,
    );
    return false;
  }
  const answer = await (io.askHuman ?? askOnControllingTerminal)(QUESTION);
  if (answer === undefined) {
    io.err(`not approved: ${why}, and there is no terminal to confirm on (/dev/tty) nor ${TRUST_TOKEN_ENV}`);
    return false;
  }
  if (!answer) io.err('not approved: the project hooks stay skipped');
  return answer;
}

/** [L-TRUST-7] Every approval: project, when, how many paths and sources. */
function listApprovals(home: string, io: TrustIo): number {
  const store = readTrustStore(home);
  if (store.problem !== undefined) {
    io.err(store.problem);
    return 1;
  }
  const keys = Object.keys(store.projects).sort();
  if (keys.length === 0) {
    io.out(`no approvals in ${store.file}`);
    return 0;
  }
  for (const key of keys) {
    const entry = store.projects[key];
    if (entry === undefined) continue;
    const files = Object.keys(entry.files).length;
    const sources = entry.sources !== undefined ? Object.keys(entry.sources).length : 0;
    io.out(
      `${key}  approved ${entry.approvedAt}  ${files} ${plural(files, 'path')} pinned, ${sources} ${plural(sources, 'source')} kept`,
    );
  }
  return 0;
}

/** [L-TRUST-7] Removes the project's approval; running engines skip its hooks again within 1 s. */
function revoke(home: string, projectDir: string, io: TrustIo): number {
  const key = projectKey(projectDir);
  let removed: boolean;
  try {
    removed = removeApproval(home, key);
  } catch (err) {
    throw new CliError(`cannot revoke: ${errorMessage(err)}`);
  }
  if (!removed) {
    io.out(`${key} was not approved in ${trustStorePath(home)}: nothing to revoke`);
    return 0;
  }
  io.out(`revoked: the project hooks of ${key} are skipped until \`hookwerk trust\` approves them again`);
  return 0;
}

/** A project hook as the review shows it, of any gate dialect. */
type ReviewHook = LurusHook | AgentHook;

/**
 * [G-PERM-1, L-TRUST-2] The rules of the project's policy files that run before any hook
 * (permission rules, guards), as `explain` names them: a policy of rules alone is approved too.
 */
function projectRules(
  configs: readonly GateConfig[],
  projectFiles: ReadonlySet<string>,
  where: { projectDir: string; home: string },
): LayerLine[] {
  const seen = new Set<string>();
  const out: LayerLine[] = [];
  // No call is tested: a layer that looks anyway sees an empty one.
  const noCall = () => actionViewOf({}, where);
  for (const config of configs) {
    if (!('layers' in config)) continue;
    for (const layer of config.layers ?? [])
      for (const event of layer.events)
        for (const line of layer.explain(event, undefined, noCall)) {
          const file = line.source.replace(/#.*$/, '');
          if (!projectFiles.has(file) || seen.has(line.source)) continue;
          seen.add(line.source);
          out.push(line);
        }
  }
  return out;
}

/** [L-TRUST-2] Each project rule: what it says and where it is written. */
function printRules(root: string, rules: readonly LayerLine[], out: (line: string) => void): void {
  if (rules.length === 0) return;
  out(`project rules of ${root} (checked before any hook):`);
  for (const rule of rules) {
    const hash = rule.source.indexOf('#');
    out(`  - ${rule.who}  (${rel(root, rule.source.slice(0, hash))} ${rule.source.slice(hash + 1)})`);
  }
}

/** [L-TRUST-2] Per project hook, in configuration order: event, matcher, what runs, which data leaves. */
function printReview(
  root: string,
  hooks: readonly Reading<GateDialect, ReviewHook>[],
  rules: readonly LayerLine[],
  hookFolders: readonly string[],
  fingerprint: Record<string, FilePin>,
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
): void {
  const passed = passEnvNames(env);
  printRules(root, rules, out);
  if (hooks.length > 0 || rules.length === 0) out(`project hooks of ${root}:`);
  let missing = false;
  hooks.forEach(({ item: hook, dialects }, i) => {
    const agents = dialects.filter((d) => d !== 'lurus').map(dialectLabel);
    const dialect = agents.length === 0 ? '' : ` (${agents.join(', ')})`;
    out(
      `  ${i + 1}. ${hook.event}${dialect}, matcher ${hook.matcher.source === undefined ? '(all)' : JSON.stringify(hook.matcher.source)}`,
    );
    out(`     from:  ${rel(root, hook.origin.file ?? '')} ${hook.origin.path ?? ''}`);
    if (hook.kind === 'process') {
      const how =
        hook.dialect === 'lurus'
          ? '/bin/sh -c, in the project folder'
          : 'exec' in hook && hook.exec !== undefined
            ? 'exec form, no shell'
            : `${hook.shell} ${(hook.shellArgs ?? ['-c']).join(' ')}`;
      const line = commandLineOf(hook);
      out(`     runs:  ${line}  (${how})`);
      for (const [file, pin] of Object.entries(fingerprint)) {
        // Every word is pinned (a file created later voids the approval); only path-like ones are shown.
        if (!referencedBy(hook.name, root, file) || (pin === null && !rel(root, file).includes('/')))
          continue;
        if (pin === null) missing = true;
        out(`     file:  ${rel(root, file)}${pinNote(pin)}`);
      }
      const pluginRoot = hook.dialect === 'lurus' ? undefined : hook.pluginRoot;
      for (const unpinned of outsidePathsOf(
        hook.name,
        root,
        pluginRoot !== undefined ? { pluginRoot } : {},
      )) {
        out(
          unpinned.kind === 'outside'
            ? `     not pinned: ${unpinned.path} (outside the project: an edit there is not detected)`
            : `     not pinned: ${unpinned.word} (its path is only known when it runs)`,
        );
      }
      const extra =
        hook.dialect === 'lurus'
          ? ` + the environment allowlist${passed.length > 0 ? ` + LURUS_HOOK_PASS_ENV: ${passed.join(', ')}` : ''}`
          : ' + the environment of the agent (as that tool gives it)';
      out(`     sends: ${dataOf(hook)} on stdin (tool inputs, prompts)${extra}`);
    } else if (hook.kind === 'rule') {
      // (SPEC §14.4) A rule runs no program and sends nothing anywhere: its condition is what it is.
      out(`     runs:  rule, in-process: when ${JSON.stringify(hook.condition.when)}`);
      if (hook.decision !== undefined)
        out(`     answers: ${hook.decision}${hook.reason === undefined ? '' : ` (${hook.reason})`}`);
    } else {
      const method = hook.dialect === 'lurus' ? hook.method : 'POST';
      out(`     runs:  ${method} ${hook.url}`);
      const headers = Object.keys(hook.headers);
      if (headers.length > 0) out(`     headers: ${headers.join(', ')}`);
      out(
        `     sends: ${dataOf(hook)} to host ${hostOf(hook.url)}${hook.url.startsWith('http:') ? ' (unencrypted http)' : ''}`,
      );
    }
  });
  // [L-TRUST-10] A link in a hook folder is followed and what it reaches is pinned file by file.
  for (const folder of hookFolders) {
    for (const { link, target } of folderFiles(folder, root).outsideLinks)
      out(`  link:  ${rel(root, link)} → ${target} (outside the project; pinned by content like the rest)`);
  }
  const folders = hookFolders.map((f) => rel(root, f)).join(', ');
  out(
    `approval pins the project sources, every file under ${folders}, and the files above${
      missing ? ' (missing ones as absent: creating one voids the approval)' : ''
    }; the approved text of each source runs until the next approval`,
  );
}

/** What a command hook runs, as written: the command, with exec-form arguments (never a display name). */
function commandLineOf(hook: ReviewHook & { kind: 'process' }): string {
  if (hook.dialect === 'lurus' || hook.exec === undefined) return hook.command;
  return [hook.command, ...hook.exec.args].join(' ');
}

/** What a hook is sent: Lurus hooks the event context, Claude Code / Gemini CLI hooks their input object. */
function dataOf(hook: ReviewHook): string {
  return hook.dialect === 'lurus' ? 'the event context' : 'the event input';
}

function referencedBy(command: string, root: string, file: string): boolean {
  // Words name files relative to the project: a cheap test before the exact one.
  const relative = path.relative(root, file);
  return (
    command.includes(path.basename(file)) &&
    (command.includes(relative) || command.includes(path.basename(file)))
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

function pinNote(pin: FilePin | undefined): string {
  if (pin === null || pin === undefined) return ' (missing)';
  if (pin === PIN_DIRECTORY) return ' (folder: its presence is pinned, not its contents)';
  if (pin === PIN_SPECIAL) return ' (not a regular file)';
  if (pin === PIN_UNREADABLE) return ' (unreadable)';
  return '';
}

function changeKind(
  before: Record<string, FilePin>,
  after: Record<string, FilePin>,
  file: string,
  hookFolders: readonly string[],
): string {
  if (!Object.hasOwn(before, file)) return 'new';
  if (!Object.hasOwn(after, file))
    return hookFolders.some((f) => file.startsWith(`${f}${path.sep}`)) ? 'deleted' : 'no longer referenced';
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
