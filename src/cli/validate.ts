import path from 'node:path';
import { formatIssue } from '../config/issues.ts';
import { loadPrxConfig } from '../config/prx.ts';
import { CliError } from './errors.ts';

/** `hookwerk validate`: every problem with file, JSON path and reason; exit 1 on any [P-CFG-4]. */
export function validateCommand(opts: { workspace?: string }, out: (line: string) => void): number {
  const workspace = path.resolve(opts.workspace ?? '.');
  const loaded = loadPrxConfig(workspace);
  if (!loaded.ok) {
    throw new CliError(loaded.issues.map(formatIssue).join('\n'));
  }
  if (!loaded.exists) {
    out(`ok: ${loaded.file} does not exist (no shell hooks)`);
    return 0;
  }
  const enabled = loaded.actions.filter((a) => a.enabled).length;
  out(`ok: ${loaded.file}: ${loaded.actions.length} actions (${enabled} enabled)`);
  return 0;
}
