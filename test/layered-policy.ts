/**
 * [G-PERF-1] The policy the cold-path tests (the cold bundle, the startup snapshot) decide with:
 * permission rules, every shipped guard and CEL rules, one of each layer, so that each path is held
 * against the others on every layer. One copy, so both tests hold the same policy.
 */
import { GUARD_TABLE } from '../src/guards/guard-table.ts';

/** A deny, an ask and an allow permission, every guard on, a CEL deny ("no shredding") and ask ("network?"). */
export const LAYERED_POLICY = {
  permissions: {
    deny: ['Bash(git push --force *)'],
    ask: ['Bash(npm publish *)'],
    allow: ['Bash(npm test)'],
  },
  guards: Object.fromEntries(GUARD_TABLE.map((g) => [g.name, true])),
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'rule', when: 'input.command.contains("shred")', decision: 'deny', reason: 'no shredding' },
          { type: 'rule', when: 'commands.exists(c, c.name == "curl")', decision: 'ask', reason: 'network?' },
        ],
      },
    ],
  },
};
