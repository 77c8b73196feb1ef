/** What consent covers of Claude Code's files in a project [C-SRC-4]. */
import path from 'node:path';
import { type DialectSurface, jsonHookCommands } from '../../consent/project-surface.ts';

export const claudeSurface: DialectSurface = {
  projectFiles: (projectDir) => [
    path.join(projectDir, '.claude', 'settings.json'),
    path.join(projectDir, '.claude', 'settings.local.json'),
  ],
  hookFolders: (projectDir) => [path.join(projectDir, '.claude', 'hooks')],
  homeFiles: (home) => [path.join(home, '.claude', 'settings.json')],
  commandsOf: (_file, text) => jsonHookCommands(text),
};
