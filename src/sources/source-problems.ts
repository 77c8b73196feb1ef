/**
 * [G-FAIL-1..3] What is wrong with an agent dialect's sources as loaded, split into errors (the
 * file, or a handler, cannot be used as written: exit 1 for `validate`, a refusal for `install`)
 * and warnings (reported, never failing). One function, so that `validate` and `install` judge
 * the same sources the same way.
 */
import type { ConfigIssue } from '../core/issues.ts';
import type { AgentConfig } from './agent-config.ts';
import { missingCommandProblems } from './missing-commands.ts';

export interface SourceProblems {
  readonly errors: readonly ConfigIssue[];
  readonly warnings: readonly ConfigIssue[];
}

export function sourceProblems(config: AgentConfig): SourceProblems {
  return {
    errors: [
      ...config.issues,
      ...config.warnings.filter((w) => w.level !== 'warning'),
      ...missingCommandProblems(config.hooks, config.home),
    ],
    warnings: config.warnings.filter((w) => w.level === 'warning'),
  };
}
