/**
 * [T-SELF-1] The files the `self-protect` guard keeps: `<home>/.hookwerk/**` (policy, trust store
 * and token, journal, installs, keys, daemon socket and log), the project's `.hookwerk/**`,
 * `/etc/hookwerk/**`, and the agents' hook files in the project and the home
 * (`.claude/settings*.json`, `.gemini/settings.json`, `.codex/hooks.json`, `.codex/config.toml`,
 * `.github/hooks/*.json`, `.cursor/hooks.json`, `.copilot/hooks/*.json`) whether or not `install`
 * wrote them, plus the files `install`'s records name elsewhere (`GuardContext.hookFiles`). Also:
 * which folders hold them (a delete or a move of the folder takes them along), whether a glob can
 * stand for one, and — for program texts — whether a word names one however it was put together.
 */
import path from 'node:path';
import { compilePathGlob, type PathGlob, pathGlobMatches } from '../core/path-glob.ts';
import { globCovers, globFolder, lastSegmentCovers, within } from './guard-paths.ts';
import type { GuardContext } from './guard-types.ts';

/** The agents' hook files, relative to the project or the home. */
const HOOK_FILES = [
  '.claude/settings*.json',
  '.gemini/settings.json',
  '.codex/hooks.json',
  '.codex/config.toml',
  '.github/hooks/*.json',
  '.cursor/hooks.json',
  '.copilot/hooks/*.json',
];
/** Names that stand for each of them, for a glob the call names. */
const HOOK_EXAMPLES = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.gemini/settings.json',
  '.codex/hooks.json',
  '.codex/config.toml',
  '.github/hooks/hookwerk.json',
  '.cursor/hooks.json',
  '.copilot/hooks/hookwerk.json',
];
/** A hook file's folder, by its name in a program text (`os.path.join(home, '.claude', 'settings.json')`). */
const HOOK_FOLDER_NAMES = new Set(['.claude', '.gemini', '.codex', '.cursor', '.copilot', '.github']);
const HOOK_FILE_NAME = /^(settings(\.local)?\.json|hooks\.json|config\.toml|hookwerk\.json)$/;

/**
 * The names kept files go by (`<home>/.hookwerk`'s policy, trust store and token, socket, log, pid,
 * journal segments, install records; the hook files), for a `find … -name PATTERN -delete` that
 * deletes only what its names match.
 */
const KEPT_NAMES = [
  'policy.json',
  'trust.json',
  'trust-token',
  'daemon.sock',
  'daemon.log',
  'daemon.pid',
  'runs-0001.jsonl',
  '0123abcd.json',
  'settings.json',
  'settings.local.json',
  'hooks.json',
  'config.toml',
  'hookwerk.json',
];

/** The tails of a path that name a hook file wherever the home or project is (`…/.claude/settings.json`). */
const HOOK_TAILS = HOOK_FILES.map((rel) => compilePathGlob(`/${rel}`));

export class ProtectedFiles {
  /** Folders kept whole. */
  readonly folders: readonly string[];
  readonly token: string;
  /** The hook files' globs under each base (the project, the home). */
  readonly #hookGlobs: readonly { base: string; globs: readonly PathGlob[] }[];
  readonly #extra: ReadonlySet<string>;
  /** Folders that hold a kept file (their delete or move takes it along). */
  readonly #holders: readonly string[];
  readonly #examples: readonly string[];

  constructor(ctx: GuardContext) {
    const bases = ctx.projectDir === ctx.home ? [ctx.home] : [ctx.projectDir, ctx.home];
    this.folders = [`${ctx.home}/.hookwerk`, `${ctx.projectDir}/.hookwerk`, '/etc/hookwerk'];
    this.token = `${ctx.home}/.hookwerk/trust-token`;
    this.#hookGlobs = bases.map((b) => ({
      base: `${b}/`,
      globs: HOOK_FILES.map((rel) => compilePathGlob(`${b}/${rel}`)),
    }));
    this.#extra = new Set(ctx.hookFiles ?? []);
    this.#holders = [
      ...this.folders,
      ...bases.flatMap((b) => HOOK_FILES.map((rel) => path.posix.dirname(`${b}/${rel}`))),
      ...[...this.#extra].map((f) => path.posix.dirname(f)),
    ];
    this.#examples = [
      ...this.folders.flatMap((f) => [f, `${f}/policy.json`]),
      ...bases.flatMap((b) => HOOK_EXAMPLES.map((rel) => `${b}/${rel}`)),
      ...this.#extra,
    ];
  }

  /** `p` (absolute) is a kept file or inside a kept folder. */
  keeps(p: string): boolean {
    if (this.folders.some((f) => within(f, p)) || this.#extra.has(p)) return true;
    // The hook files' globs only under a base, and only below a hook folder (`.claude/…`): most
    // paths of most calls are neither, and are answered without a glob.
    for (const { base, globs } of this.#hookGlobs) {
      if (!p.startsWith(base)) continue;
      const slash = p.indexOf('/', base.length);
      if (slash < 0 || !HOOK_FOLDER_NAMES.has(p.slice(base.length, slash))) continue;
      if (globs.some((g) => pathGlobMatches(g, p))) return true;
    }
    return false;
  }

  /** `p` is a folder holding a kept file (or one itself). */
  holds(p: string): boolean {
    return this.keeps(p) || this.#holders.some((h) => within(p, h));
  }

  /** A glob the call names that can stand for a kept file (or, `holding`, for a folder holding one). */
  coveredBy(pattern: string, shell: boolean, holding: boolean): boolean {
    const folder = globFolder(pattern);
    if (this.folders.some((f) => within(f, folder))) return true;
    if (this.#examples.some((e) => globCovers(pattern, e, shell))) return true;
    return holding && this.#holders.some((h) => globCovers(pattern, h, shell));
  }

  /**
   * Best effort, for the words of a program text and of writing commands that hold an expansion
   * not known here: a word whose parts say `.hookwerk` or `/etc/hookwerk`, or end in a hook file's
   * place (`…/.claude/settings.json`), or a kept path once resolved against `cwd`.
   */
  named(word: string, cwd: string, home: string): boolean {
    const expanded = word === '~' || word.startsWith('~/') ? home + word.slice(1) : word;
    const parts = expanded.split('/').filter((s) => s !== '');
    if (parts.includes('.hookwerk') || expanded.includes('/etc/hookwerk')) return true;
    for (let k = Math.max(0, parts.length - 3); k < parts.length - 1; k++)
      if (HOOK_TAILS.some((g) => pathGlobMatches(g, `/${parts.slice(k).join('/')}`))) return true;
    return this.keeps(path.posix.resolve(cwd, expanded));
  }

  /** A `find -name`/`-iname` pattern (`nocase`) that can match a kept file's name. */
  static nameMayBeKept(pattern: string, nocase: boolean): boolean {
    const p = nocase ? pattern.toLowerCase() : pattern;
    return KEPT_NAMES.some((n) => lastSegmentCovers(p, n, false));
  }

  /** A program text's words name a hook file in pieces (`'.claude'`, `'settings.json'`). */
  static namedInPieces(words: readonly string[]): boolean {
    return words.some((w) => HOOK_FOLDER_NAMES.has(w)) && words.some((w) => HOOK_FILE_NAME.test(w));
  }
}
