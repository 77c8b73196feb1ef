/** `hookwerk demo --dialect cursor`: a scripted Cursor session against `examples/cursor-demo/`. */
import type { DialectDemo } from '../agent/gate-dialect.ts';

const shell = (command: string) => ({ command, cwd: '/tmp', sandbox: false });

export const cursorDemo: DialectDemo = {
  example: 'cursor-demo',
  files: '.cursor/hooks.json; its scripts in .cursor/hooks/ are written for Cursor',
  before: ['beforeShellExecution', shell('sudo rm -rf /'), 'shell: sudo rm -rf /'],
  steps: [
    ['sessionStart', { is_background_agent: false, composer_mode: 'agent' }, 'session opens'],
    ['beforeSubmitPrompt', { prompt: 'Add a parser test', attachments: [] }, 'a normal prompt'],
    [
      'beforeSubmitPrompt',
      { prompt: 'use api_key=sk-live-123456 for the test', attachments: [] },
      'a prompt with a secret',
    ],
    ['beforeShellExecution', shell('npm test'), 'shell: npm test (no matcher hit)'],
    ['beforeShellExecution', shell('rm -rf build && rm -rf /'), 'shell: rm -rf /'],
    ['beforeShellExecution', shell('git push --force origin main'), 'shell: git push --force'],
    ['beforeReadFile', { file_path: '.env', content: 'API_KEY=…', attachments: [] }, 'read .env'],
    [
      'preToolUse',
      { tool_name: 'Write', tool_input: { file_path: 'src/parser.test.ts' }, tool_use_id: 't1' },
      'Write a test',
    ],
    [
      'afterFileEdit',
      { file_path: 'src/parser.test.ts', edits: [{ old_string: '', new_string: 'test()' }] },
      'after the edit',
    ],
    ['stop', { status: 'completed', loop_count: 0 }, 'the agent wants to stop'],
    ['stop', { status: 'completed', loop_count: 2 }, 'again, after 2 follow-ups'],
  ],
  log: { file: 'logs/audit.jsonl', what: 'The afterFileEdit audit hook' },
  tryIt: ['beforeShellExecution', shell('sudo ls')],
};
