/**
 * Everything of one project that consent covers, across every gate dialect [L-TRUST-5, C-SRC-4]:
 * one approval (`hookwerk trust`) approves the project's Lurus, Claude Code and Gemini CLI
 * sources and each plugin folder given, under the project's key. Each dialect's loader reads its
 * sources from here, so what is pinned and what is loaded are read once, the same way.
 */
import path from 'node:path';
import { isPlainObject } from '../core/plain-object.ts';
import { readSourceFile, type SourceRead } from '../core/read-source.ts';
import type { ListedSources, ProjectSurface, SurfaceCommand } from './project-consent.ts';
import { trustStorePath } from './trust-store.ts';

/** Every project source is at most this big [L-TRUST-4]. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

/**
 * What one gate dialect contributes to a project's consent: its project source files, the folders
 * whose every file is pinned, the home-level files that are never project code, and how to read
 * the command lines of its hooks from a file's bare text (nothing evaluated).
 */
export interface DialectSurface {
  projectFiles(projectDir: string): string[];
  hookFolders(projectDir: string): string[];
  /** Where `projectFiles` lists a folder to find sources (see `ProjectSurface.listedSources`). */
  listedSources?(projectDir: string): ListedSources[];
  homeFiles(home: string): string[];
  commandsOf(file: string, text: string): string[];
}

/** `<plugin>/hooks/hooks.json` [C-SRC-1]. */
export function pluginHooksFile(pluginDir: string): string {
  return path.join(pluginDir, 'hooks', 'hooks.json');
}

export interface ProjectRead {
  surface: ProjectSurface;
  /** Every project source file read (bounded), by path. */
  reads: Map<string, SourceRead>;
  /** The current text of each existing, readable project source. */
  texts: Record<string, string>;
}

/**
 * Reads every project source of every dialect given (bounded [L-TRUST-4]) and describes what an
 * approval covers: those files, every file under each dialect's hook folders and each plugin
 * folder, and every project file their commands name. Every loader and `hookwerk trust` read
 * it with the same dialects (the table's), so one approval covers them all [C-SRC-4].
 */
export function readProject(
  projectDir: string,
  home: string,
  dialects: readonly DialectSurface[],
  plugins: readonly string[] = [],
): ProjectRead {
  const owners = new Map<string, DialectSurface>();
  for (const dialect of dialects)
    for (const file of dialect.projectFiles(projectDir)) if (!owners.has(file)) owners.set(file, dialect);
  const pluginFiles = plugins.map((dir) => ({ file: pluginHooksFile(dir), root: dir }));
  const sourceFiles = [...owners.keys(), ...pluginFiles.map((p) => p.file)];
  const reads = new Map<string, SourceRead>();
  const texts: Record<string, string> = {};
  for (const file of sourceFiles) {
    if (reads.has(file)) continue;
    const read = readSourceFile(file, MAX_SOURCE_BYTES);
    reads.set(file, read);
    if (read.kind === 'text') texts[file] = read.text;
  }
  const commands: SurfaceCommand[] = [];
  for (const file of new Set(sourceFiles)) {
    const text = texts[file];
    if (text === undefined) continue;
    const root = pluginFiles.find((p) => p.file === file)?.root;
    const lines =
      root !== undefined ? jsonHookCommands(text) : (owners.get(file)?.commandsOf(file, text) ?? []);
    for (const command of lines)
      commands.push(root !== undefined ? { command, pluginRoot: root } : { command });
  }
  const surface: ProjectSurface = {
    projectDir,
    sourceFiles: [...new Set(sourceFiles)],
    hookFolders: [...new Set([...dialects.flatMap((d) => d.hookFolders(projectDir)), ...plugins])],
    listedSources: dialects.flatMap((d) => d.listedSources?.(projectDir) ?? []),
    commands,
    excluded: [trustStorePath(home), ...dialects.flatMap((d) => d.homeFiles(home))],
  };
  return { surface, reads, texts };
}

/**
 * The command lines of every hook in a Claude-shaped source's text, from the bare JSON (nothing
 * evaluated): `command`, with `args` appended as quoted words for exec-form hooks.
 */
export function jsonHookCommands(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const out: string[] = [];
  walkHookObjects(value, (hook) => {
    const command: unknown = Reflect.get(hook, 'command');
    if (typeof command !== 'string') return;
    const args: unknown = Reflect.get(hook, 'args');
    const words = Array.isArray(args) ? args.filter((a): a is string => typeof a === 'string') : [];
    out.push(commandLineOf(command, words));
  });
  return out;
}

/** A hook's command line as consent reads it: exec-form `args` appended as quoted words. */
export function commandLineOf(command: string, args: readonly string[] = []): string {
  return [command, ...args.map(shellQuote)].join(' ');
}

/** Every hook object of every event map of a source file: `{EVENT: [{hooks: [HOOK…]}]}` at any of the known keys. */
function walkHookObjects(value: unknown, visit: (hook: object) => void): void {
  if (!isPlainObject(value)) return;
  const maps = [
    value,
    Reflect.get(value, 'hooks'),
    Reflect.get(value, 'globalHooks'),
    Reflect.get(value, 'projectHooks'),
  ];
  for (const map of maps) {
    if (!isPlainObject(map)) continue;
    for (const defs of Object.values(map)) {
      if (!Array.isArray(defs)) continue;
      for (const def of defs) {
        const hooks: unknown = isPlainObject(def) ? Reflect.get(def, 'hooks') : undefined;
        if (!Array.isArray(hooks)) continue;
        for (const hook of hooks) if (isPlainObject(hook)) visit(hook);
      }
    }
  }
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
