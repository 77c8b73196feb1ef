/** What consent covers of hookwerk's own policy in a project [R-POL-1]: the file and its hook folder. */
import path from 'node:path';
import { type DialectSurface, jsonHookCommands } from '../../consent/project-surface.ts';
import { policyFile } from './policy-files.ts';

export const policySurface: DialectSurface = {
  projectFiles: (projectDir) => [policyFile(projectDir)],
  hookFolders: (projectDir) => [path.join(projectDir, '.hookwerk', 'policy')],
  homeFiles: (home) => [policyFile(home)],
  commandsOf: (_file, text) => jsonHookCommands(text),
};
