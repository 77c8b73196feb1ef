/**
 * What consent covers of Copilot CLI's files in a project [A-COP-1, C-SRC-4]: every `*.json` in
 * `.github/hooks/` (the folder is pinned whole: a script next to them is code too),
 * `.github/copilot/settings.json`, and `.claude/settings.json` (Claude's, which Copilot CLI runs
 * as well; the claude dialect lists it too, files are de-duplicated).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { commandLineOf, type DialectSurface, jsonHookCommands } from '../../consent/project-surface.ts';
import { isPlainObject } from '../../core/plain-object.ts';

const GITHUB_HOOKS = ['.github', 'hooks'] as const;
export const COPILOT_SETTINGS = ['.github', 'copilot', 'settings.json'] as const;

/** The `*.json` files directly in `<project>/.github/hooks/` among `files`. */
export function repoHookFiles(projectDir: string, files: readonly string[]): string[] {
  const dir = path.join(projectDir, ...GITHUB_HOOKS);
  return files.filter((f) => path.dirname(f) === dir && f.endsWith('.json'));
}

function listRepoHookFiles(projectDir: string): string[] {
  const dir = path.join(projectDir, ...GITHUB_HOOKS);
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/**
 * The command lines of a Copilot hook file's bare text (nothing evaluated): `bash`, else
 * `exec` or `command` with its `args` as quoted words — flat entries and one group level.
 */
function copilotHookCommands(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const map: unknown = isPlainObject(value) ? Reflect.get(value, 'hooks') : undefined;
  if (!isPlainObject(map)) return [];
  const out: string[] = [];
  const visit = (entry: unknown) => {
    if (!isPlainObject(entry)) return;
    if (typeof entry.bash === 'string') {
      out.push(entry.bash);
      return;
    }
    // `exec` + `args`, or `command` + `args` (exec form, issue 31); `command` alone is a shell line.
    const program = typeof entry.exec === 'string' ? entry.exec : entry.command;
    if (typeof program !== 'string') return;
    const args = Array.isArray(entry.args)
      ? entry.args.filter((a): a is string => typeof a === 'string')
      : [];
    out.push(commandLineOf(program, args));
  };
  for (const list of Object.values(map)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const inner: unknown = isPlainObject(entry) ? entry.hooks : undefined;
      if (Array.isArray(inner)) inner.forEach(visit);
      else visit(entry);
    }
  }
  return out;
}

export const copilotSurface: DialectSurface = {
  projectFiles: (projectDir) => [
    ...listRepoHookFiles(projectDir),
    path.join(projectDir, '.claude', 'settings.json'),
    path.join(projectDir, ...COPILOT_SETTINGS),
  ],
  hookFolders: (projectDir) => [path.join(projectDir, ...GITHUB_HOOKS)],
  listedSources: (projectDir) => [{ folder: path.join(projectDir, ...GITHUB_HOOKS), suffix: '.json' }],
  homeFiles: (home) => [path.join(home, '.copilot', 'settings.json')],
  commandsOf: (file, text) =>
    path.basename(path.dirname(file)) === '.claude' ? jsonHookCommands(text) : copilotHookCommands(text),
};
