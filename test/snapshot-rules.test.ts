/**
 * [G-PERF-1] What a startup snapshot compiles while it is built (src/hook/snapshot-rules.ts): the
 * `when` of every rule of the home's policy file (JSONC, as the policy loader reads it), each once;
 * nothing from a file that does not read. That a compiled rule never stands for an edited one is
 * held by test/hook-snapshot.test.ts, through the real blob.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyRuleConditions, ruleConditions } from '../src/hook/snapshot-rules.ts';
import { tempDir } from './helpers.ts';

describe('[G-PERF-1] the rules a startup snapshot compiles', () => {
  it('every rule’s condition, in order, each once; other handlers and look-alikes are not rules', () => {
    const policy = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'rule', when: 'input.command.contains("a")', decision: 'deny' },
              { type: 'command', command: 'true', when: 'not a rule' },
              { type: 'rule', when: 'input.command.contains("a")', decision: 'ask' },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'rule', when: 'true', decision: 'deny' }] }],
      },
      guards: { 'force-push': { type: 'rule', when: 42 } },
    };
    expect([...ruleConditions(policy)]).toEqual(['input.command.contains("a")', 'true']);
  });

  it('reads the home’s policy file as JSONC; a file that does not parse gives none', () => {
    const home = tempDir('hw-snaprules-');
    const file = path.join(home, '.hookwerk', 'policy.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      '// mine\n{"hooks": {"PreToolUse": [{"hooks": [{"type": "rule", "when": "tool == \\"Bash\\"", "decision": "deny",},]}]}}\n',
    );
    expect(policyRuleConditions(home, [file])).toEqual(['tool == "Bash"']);
    writeFileSync(file, '{"hooks": ');
    expect(policyRuleConditions(home, [file])).toEqual([]);
    expect(policyRuleConditions(home, [path.join(home, 'nobody', 'policy.json')])).toEqual([]);
  });
});
