/**
 * [C-IN-1] The session of a call that names none: one per project folder, stable across calls and
 * processes (`hookwerk hook`, its daemon, `hookwerk decide`). Derived from the folder's real path
 * (issue 31): a project reached through a symlink is the same project, with the same session.
 */
import { createHash } from 'node:crypto';
import { realPathOr } from './real-path.ts';

export function projectSession(projectDir: string): string {
  const digest = createHash('sha256')
    .update(`hookwerk session\0${realPathOr(projectDir)}`)
    .digest('hex');
  return `sess_${digest.slice(0, 12)}`;
}
