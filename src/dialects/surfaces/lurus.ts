/** What consent covers of the Lurus dialect in a project [L-TRUST-5]. */
import path from 'node:path';
import { type DialectSurface, jsonHookCommands } from '../../consent/project-surface.ts';
import { lurusDir } from '../../consent/trust-store.ts';

export const lurusSurface: DialectSurface = {
  projectFiles: (projectDir) => [
    path.join(lurusDir(projectDir), 'hooks.json'),
    path.join(lurusDir(projectDir), 'settings.json'),
  ],
  hookFolders: (projectDir) => [lurusDir(projectDir)],
  homeFiles: (home) => [path.join(lurusDir(home), 'hooks.json'), path.join(lurusDir(home), 'settings.json')],
  commandsOf: (_file, text) => jsonHookCommands(text),
};
