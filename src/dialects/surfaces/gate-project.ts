/**
 * The project every gate dialect's consent covers [C-SRC-4]: each dialect's surface, in the order
 * of the dialect table. A second, light table (surfaces only, no loaders), so that loaders can
 * read the whole project without importing the dialects that import them. Adding a dialect is a
 * line here and a line in `gate-dialects.ts`.
 */
import { type DialectSurface, type ProjectRead, readProject } from '../../consent/project-surface.ts';
import { claudeSurface } from './claude.ts';
import { codexSurface } from './codex.ts';
import { copilotSurface } from './copilot.ts';
import { cursorSurface } from './cursor.ts';
import { geminiSurface } from './gemini.ts';
import { lurusSurface } from './lurus.ts';
import { policySurface } from './policy.ts';

const DIALECT_SURFACES: readonly DialectSurface[] = [
  lurusSurface,
  claudeSurface,
  geminiSurface,
  copilotSurface,
  cursorSurface,
  codexSurface,
  policySurface,
];

/** Every project source of every dialect and each plugin folder given, read once. */
export function readGateProject(
  projectDir: string,
  home: string,
  plugins: readonly string[] = [],
): ProjectRead {
  return readProject(projectDir, home, DIALECT_SURFACES, plugins);
}
