/** What consent covers of Codex CLI's files in a project [A-CDX-1, C-SRC-4]. */
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { type DialectSurface, jsonHookCommands } from '../../consent/project-surface.ts';
import { isPlainObject } from '../../core/plain-object.ts';

export const codexSurface: DialectSurface = {
  projectFiles: (projectDir) => [
    path.join(projectDir, '.codex', 'hooks.json'),
    path.join(projectDir, '.codex', 'config.toml'),
  ],
  hookFolders: (projectDir) => [path.join(projectDir, '.codex', 'hooks')],
  // The user layer, when the project is the home folder: never project code. (A CODEX_HOME
  // elsewhere is outside the project anyway.)
  homeFiles: (home) => [path.join(home, '.codex', 'hooks.json'), path.join(home, '.codex', 'config.toml')],
  commandsOf: (file, text) => (file.endsWith('.toml') ? tomlHookCommands(text) : jsonHookCommands(text)),
};

/** The `command` of every handler under `[hooks]` of a config.toml's bare text (nothing evaluated). */
function tomlHookCommands(text: string): string[] {
  let value: unknown;
  try {
    value = parseToml(text);
  } catch {
    return [];
  }
  const hooks: unknown = isPlainObject(value) ? Reflect.get(value, 'hooks') : undefined;
  if (!isPlainObject(hooks)) return [];
  const out: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (event === 'state' || !Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers: unknown = isPlainObject(group) ? Reflect.get(group, 'hooks') : undefined;
      if (!Array.isArray(handlers)) continue;
      for (const handler of handlers) {
        const command: unknown = isPlainObject(handler) ? Reflect.get(handler, 'command') : undefined;
        if (typeof command === 'string') out.push(command);
      }
    }
  }
  return out;
}
