/** `hookwerk demo --dialect codex`: a scripted Codex CLI session against `examples/codex-demo/`. */
import type { DialectDemo } from '../agent/gate-dialect.ts';

const patch = (file: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch\n`;

export const codexDemo: DialectDemo = {
  example: 'codex-demo',
  files: '.codex/hooks.json; its scripts in .codex/hooks/ are written for Codex CLI',
  before: ['PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }, 'Bash: ls'],
  steps: [
    ['SessionStart', { source: 'startup' }, 'session opens'],
    ['UserPromptSubmit', { prompt: 'Add a parser test' }, 'a normal prompt'],
    ['UserPromptSubmit', { prompt: 'use api_key=sk-live-123 for the test' }, 'a prompt with a secret'],
    ['PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' } }, 'Bash: npm test'],
    [
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'rm -rf build && rm -rf /' } },
      'Bash: rm -rf /',
    ],
    [
      'PreToolUse',
      { tool_name: 'apply_patch', tool_input: { command: patch('src/parser.test.ts') } },
      'apply_patch a test',
    ],
    ['PreToolUse', { tool_name: 'apply_patch', tool_input: { command: patch('.env') } }, 'apply_patch .env'],
    [
      'PostToolUse',
      {
        tool_name: 'apply_patch',
        tool_input: { command: patch('src/parser.test.ts') },
        tool_response: 'Success. Updated the following files:\nM src/parser.test.ts\n',
      },
      'after apply_patch',
    ],
    ['Stop', { stop_hook_active: false, last_assistant_message: 'Done.' }, 'the agent wants to stop'],
    ['Stop', { stop_hook_active: true, last_assistant_message: 'Done.' }, 'it stops again after continuing'],
  ],
  log: { file: 'logs/tool-audit.jsonl', what: 'The async PostToolUse hook' },
  tryIt: ['PreToolUse', { tool_name: 'Bash', tool_input: { command: 'sudo ls' } }],
};
