/** What consent covers of Cursor's files in a project [A-CUR-1, C-SRC-4]. */
import path from 'node:path';
import type { DialectSurface } from '../../consent/project-surface.ts';
import { isPlainObject } from '../../core/plain-object.ts';

/** The `command` of every flat entry of a `.cursor/hooks.json` text, from the bare JSON (nothing evaluated). */
function cursorHookCommands(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const hooks = isPlainObject(value) ? value.hooks : undefined;
  if (!isPlainObject(hooks)) return [];
  const out: string[] = [];
  for (const entries of Object.values(hooks)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries)
      if (isPlainObject(entry) && typeof entry.command === 'string') out.push(entry.command);
  }
  return out;
}

export const cursorSurface: DialectSurface = {
  projectFiles: (projectDir) => [path.join(projectDir, '.cursor', 'hooks.json')],
  hookFolders: (projectDir) => [path.join(projectDir, '.cursor', 'hooks')],
  homeFiles: (home) => [path.join(home, '.cursor', 'hooks.json')],
  commandsOf: (_file, text) => cursorHookCommands(text),
};
