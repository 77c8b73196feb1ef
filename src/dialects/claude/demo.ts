/** `hookwerk demo --dialect claude`: a scripted Claude Code session against `examples/claude-demo/`. */
import type { DialectDemo } from '../agent/gate-dialect.ts';

export const claudeDemo: DialectDemo = {
  example: 'claude-demo',
  files: '.claude/settings.json; its scripts in .claude/hooks/ are written for Claude Code',
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
      { tool_name: 'Write', tool_input: { file_path: 'src/parser.test.ts', content: '…' } },
      'Write a test',
    ],
    [
      'PreToolUse',
      { tool_name: 'Edit', tool_input: { file_path: '.env', old_string: 'a', new_string: 'b' } },
      'Edit .env',
    ],
    [
      'PostToolUse',
      { tool_name: 'Write', tool_input: { file_path: 'src/parser.test.ts' }, tool_response: {} },
      'after Write',
    ],
    ['Stop', { stop_hook_active: false }, 'the agent wants to stop'],
    ['Stop', { stop_hook_active: true }, 'it stops again after continuing'],
  ],
  log: { file: 'logs/tool-audit.jsonl', what: 'The async PostToolUse hook' },
  tryIt: ['PreToolUse', { tool_name: 'Bash', tool_input: { command: 'sudo ls' } }],
};
