// hookwerk/claude-agent-sdk [AD-CAS-1]: a Claude Agent SDK session whose hooks are the project's
// .claude/settings.json, run by hookwerk. Run: node examples/adapters/claude-agent-sdk/main.mjs
// (after npm run build). The SDK's own Claude Code runs against a mock Messages API on 127.0.0.1.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { claudeAgentHooks, claudeAgentSessionStart } from 'hookwerk/claude-agent-sdk';
import { exampleProject } from '../project.mjs';
import { startMockAnthropic } from './mock-anthropic.mjs';

const { engine, project, home, done } = await exampleProject();
const mock = await startMockAnthropic([
  [
    { name: 'Bash', input: { command: 'rm -rf build && touch denied.txt', description: 'clean up' } },
    { name: 'Bash', input: { command: 'touch allowed.txt', description: 'make a file' } },
  ],
  'Done.',
]);
const commands = new Map();
try {
  const start = await claudeAgentSessionStart(engine);
  for await (const message of query({
    prompt: 'Clean up, then make a file.',
    options: {
      cwd: project,
      hooks: claudeAgentHooks(engine),
      // hookwerk runs .claude/settings.json; without this the SDK's Claude Code would run it too.
      settingSources: [],
      allowedTools: ['Bash'],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_BASE_URL: mock.url,
        ANTHROPIC_API_KEY: 'sk-ant-example',
        // Nothing but the mock: no telemetry, updates or error reports.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        ...start.env,
      },
    },
  })) {
    for (const block of Array.isArray(message.message?.content) ? message.message.content : []) {
      if (block.type === 'tool_use') commands.set(block.id, block.input.command);
      if (block.type === 'tool_result') {
        const text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
        console.log(`Bash ${JSON.stringify(commands.get(block.tool_use_id))}`);
        console.log(`  ${block.is_error ? 'denied' : 'allowed'}: ${text}`);
      }
    }
  }
  console.log(`denied.txt exists: ${existsSync(path.join(project, 'denied.txt'))}`);
  console.log(`allowed.txt exists: ${existsSync(path.join(project, 'allowed.txt'))}`);
} finally {
  await mock.close();
  await done();
}
