import { existsSync } from 'node:fs';
import { scriptPathsOf } from './command-words.ts';
import type { ConfigIssue } from './issues.ts';
import type { LurusConfig } from './lurus.ts';

/**
 * [L-VAL-1] Everything `validate` reports for the gate dialect: problems that made a source be
 * skipped, invalid matcher regexes, and command hooks whose script file is missing.
 */
export function lurusProblems(config: LurusConfig): ConfigIssue[] {
  const problems: ConfigIssue[] = [...config.issues, ...config.warnings];
  for (const hook of config.all) {
    if (hook.kind !== 'command') continue;
    for (const script of scriptPathsOf(hook.command, config.projectDir, config.home)) {
      if (!existsSync(script)) {
        problems.push({
          file: hook.file,
          path: `${hook.path}.command`,
          message: `script file ${script} does not exist`,
        });
      }
    }
  }
  return problems;
}
