/** `hookwerk demo --dialect copilot`: a scripted Copilot CLI session against `examples/copilot-demo/`. */
import type { DialectDemo } from '../agent/gate-dialect.ts';

const bash = (command: string) => ({ toolName: 'bash', toolArgs: { command, description: command } });

export const copilotDemo: DialectDemo = {
  example: 'copilot-demo',
  files: '.github/hooks/*.json; their scripts in .github/hooks/scripts/ are written for Copilot CLI',
  before: ['preToolUse', bash('ls'), 'bash: ls'],
  steps: [
    ['sessionStart', { source: 'new', initialPrompt: 'Fix the parser' }, 'session opens'],
    ['userPromptSubmitted', { prompt: 'Add a parser test' }, 'a normal prompt'],
    [
      'userPromptSubmitted',
      { prompt: 'use token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here' },
      'a prompt with a secret',
    ],
    ['preToolUse', bash('npm test'), 'bash: npm test'],
    ['preToolUse', bash('rm -rf build && rm -rf /'), 'bash: rm -rf /'],
    ['preToolUse', { toolName: 'edit', toolArgs: { path: '.env', old_str: 'a', new_str: 'b' } }, 'edit .env'],
    ['preToolUse', bash('git push --force origin main'), 'bash: git push --force'],
    [
      'permissionRequest',
      { toolName: 'bash', toolInput: { command: 'npm test' } },
      'permission for npm test',
    ],
    [
      'postToolUse',
      {
        toolName: 'bash',
        toolArgs: { command: 'npm test' },
        toolResult: { resultType: 'success', textResultForLlm: 'ok' },
      },
      'after bash',
    ],
    ['agentStop', { stopReason: 'end_turn', stop_hook_active: false }, 'the agent wants to stop'],
    ['agentStop', { stopReason: 'end_turn', stop_hook_active: true }, 'it stops again after continuing'],
  ],
  log: { file: 'logs/tool-audit.jsonl', what: 'The postToolUse audit hook' },
  tryIt: ['preToolUse', { toolName: 'bash', toolArgs: { command: 'sudo ls' } }],
};
