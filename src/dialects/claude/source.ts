/**
 * Claude Code's hook files [C-SRC-1..4]: managed, user, project, local and each plugin folder given,
 * merged in that order. Their loading is the base's (agent/claude-shaped.ts), because the policy's
 * `include: ["claude"]` reads the same files (issue 31: no sibling imports); this is its name here.
 */
export { type ClaudeOptions, loadClaudeConfig } from '../agent/claude-shaped.ts';
