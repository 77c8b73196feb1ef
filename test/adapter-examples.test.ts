/**
 * [§12] Each adapter's example (`examples/adapters/<name>/main.mjs`) runs with plain `node` from
 * the built package, offline (mock models; the Claude Agent SDK's own Claude Code against a mock
 * Messages API), and shows one denied and one allowed call.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const run = promisify(execFile);

const example = async (name: string): Promise<string> => {
  const { stdout } = await run(
    process.execPath,
    [path.join(REPO, 'examples', 'adapters', name, 'main.mjs')],
    {
      cwd: REPO,
      // The examples make their own temp HOME; this one keeps anything else off the real one.
      env: { ...process.env, HOME: tempDir('hw-example-home-') },
    },
  );
  return stdout;
};

describe('[§12] the adapters examples', () => {
  it('[AD-AI-1] ai-sdk: the rm -rf call is denied with the hook reason, ls is allowed, with its events', async () => {
    const out = await example('ai-sdk');
    expect(out).toContain('denied: rm -rf is not allowed in this project');
    expect(out).toContain('allowed: (pretend) ran ls -la');
    expect(out).toContain('event tool_call_start {"tool":"shell","arguments":{"command":"ls -la"}}');
  }, 60_000);

  it('[AD-OAI-1] openai-agents: the same two calls through gateAgent', async () => {
    const out = await example('openai-agents');
    expect(out).toContain('denied: the tool said: rm -rf is not allowed in this project');
    expect(out).toContain('allowed: the tool said: (pretend) ran ls -la');
  }, 60_000);

  it('[AD-CAS-1] claude-agent-sdk: Claude Code never runs the denied Bash, runs the allowed one', async () => {
    const out = await example('claude-agent-sdk');
    expect(out).toMatch(/denied: .*rm -rf is not allowed in this project/);
    expect(out).toContain('denied.txt exists: false');
    expect(out).toContain('allowed.txt exists: true');
  }, 120_000);
});
