/** What consent covers of Gemini CLI's files in a project [G-SRC-1, C-SRC-4]. */
import path from 'node:path';
import { type DialectSurface, jsonHookCommands } from '../../consent/project-surface.ts';

export const geminiSurface: DialectSurface = {
  projectFiles: (projectDir) => [path.join(projectDir, '.gemini', 'settings.json')],
  hookFolders: (projectDir) => [path.join(projectDir, '.gemini', 'hooks')],
  homeFiles: (home) => [path.join(home, '.gemini', 'settings.json')],
  commandsOf: (_file, text) => jsonHookCommands(text),
};
