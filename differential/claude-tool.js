// Drives the real Claude Code once for a case: headless (`-p`, stream-json), against the mock
// Messages API, in the case's world. As root Claude Code refuses --dangerously-skip-permissions,
// so the tools a case lets run are given with --allowedTools.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startAnthropicMock } from './mock-anthropic.js';
import { runProcess } from './processes.js';

/** Everything that would make Claude Code talk to anything but the mock, turned off. */
export function claudeEnv(mockUrl) {
  return {
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: 'sk-ant-differential-dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    DISABLE_NON_ESSENTIAL_MODEL_CALLS: '1',
    DISABLE_COST_WARNINGS: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1',
    // Any stray HTTPS request goes to the mock as a CONNECT, which it refuses and reports.
    HTTPS_PROXY: mockUrl,
    HTTP_PROXY: mockUrl,
    NO_PROXY: '127.0.0.1,localhost',
  };
}

/**
 * @param {{bin: string}} tool
 * @param {object} kase
 * @param {object} world
 * @param {Record<string, string>} baseEnv
 * @param {number} timeoutMs
 */
export async function runClaude(tool, kase, world, baseEnv, timeoutMs) {
  const mock = await startAnthropicMock({ turns: kase.turns });
  try {
    const env = { ...baseEnv, ...claudeEnv(mock.url) };
    const args = [
      '-p',
      kase.prompt ?? 'Run the step.',
      '--output-format',
      'stream-json',
      '--verbose',
      '--debug',
      '--allowedTools',
      kase.allowedTools ?? 'Bash Write Edit Read',
      ...(world.plugin ? ['--plugin-dir', world.plugin] : []),
    ];
    const run = await runProcess(tool.bin, args, { cwd: world.proj, env, timeoutMs });
    writeFileSync(path.join(world.base, 'tool-stdout.jsonl'), run.stdout);
    writeFileSync(path.join(world.base, 'tool-stderr.txt'), run.stderr);
    writeFileSync(path.join(world.base, 'mock-requests.json'), JSON.stringify(mock.requests, null, 1));
    const stream = run.stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return { type: 'unparsed', text: l };
        }
      });
    const result = stream.findLast((m) => m.type === 'result');
    return {
      env,
      run,
      requests: mock.requests,
      notes: hookNotes(world.home),
      sessionId: result?.session_id,
      // Claude Code -p shows no hook systemMessage anywhere: nothing to compare.
      userText: '',
      terminal: result?.terminal_reason ?? result?.stop_reason ?? (run.timedOut ? 'timeout' : 'none'),
      // A UserPromptSubmit stop ends the run before any turn: no terminal_reason, only this text.
      stoppedByHook:
        ['hook_stopped', 'stop_hook_prevented'].includes(result?.terminal_reason) ||
        /^Operation stopped by hook/.test(result?.result ?? ''),
      started: run.code !== null || run.stdout !== '' || !run.spawnError,
    };
  } finally {
    await mock.close();
  }
}

/** What Claude Code's debug log says went wrong with a hook: the likely cause of a disagreement. */
function hookNotes(home) {
  const dir = path.join(home, '.claude', 'debug');
  if (!existsSync(dir)) return [];
  const lines = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n'));
  return (
    lines
      // Paths left out of the test: the world's own paths hold "hook" (hookwerk-differential-…).
      .filter((l) => {
        // …and the installed command's own `--timeout S` [G-FAIL-4], which is no timeout that happened.
        const words = l.replace(/\/\S*/g, '').replace(/--timeout \d+/g, '');
        return /hook/i.test(words) && /(error|failed|invalid|timed out|timeout|cancel)/i.test(words);
      })
      .map((l) => l.replace(/^\S+ \[\w+\] /, '').slice(0, 300))
      .slice(0, 20)
  );
}
