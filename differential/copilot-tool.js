// Drives the real GitHub Copilot CLI once for a case: headless (`-p`, `--allow-all-tools`), offline
// against the mock chat completions API (BYOK: `COPILOT_PROVIDER_BASE_URL`, no GitHub login), in
// the case's world. Repo hooks load in `-p` mode only for a trusted folder or with
// GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true (copilot-facts.md §0), which is set here.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { cacheRoot } from './install.js';
import { startOpenAiMock } from './mock-openai-chat.js';
import { runProcess } from './processes.js';

/** Everything that would make Copilot CLI talk to anything but the mock, turned off. */
export function copilotEnv(mockUrl) {
  return {
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'dummy',
    COPILOT_MODEL: 'gpt-4.1',
    GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true',
    // The native package is extracted once, here, not into every case's HOME.
    COPILOT_PKG_CACHE_HOME: path.join(cacheRoot(), 'copilot-pkg'),
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
export async function runCopilot(tool, kase, world, baseEnv, timeoutMs) {
  const mock = await startOpenAiMock({ turns: kase.turns });
  try {
    const env = { ...baseEnv, ...copilotEnv(mock.url) };
    // The install suite trusts the folder the way a user does, without the harness's opt-in.
    for (const name of kase.unsetEnv ?? []) delete env[name];
    const args = [
      '-p',
      kase.prompt ?? 'Run the step.',
      ...(kase.allowAll === false ? [] : ['--allow-all-tools']),
    ];
    const run = await runProcess(tool.bin, args, { cwd: world.proj, env, timeoutMs });
    writeFileSync(path.join(world.base, 'tool-stdout.txt'), run.stdout);
    writeFileSync(path.join(world.base, 'tool-stderr.txt'), run.stderr);
    writeFileSync(path.join(world.base, 'mock-requests.json'), JSON.stringify(mock.requests, null, 1));
    const session = /copilot --resume=([0-9a-f-]+)/.exec(`${run.stdout}\n${run.stderr}`)?.[1];
    return {
      env,
      run,
      requests: mock.requests,
      notes: run.stderr
        .split('\n')
        .filter((l) => /hook/i.test(l))
        .slice(0, 20),
      sessionId: session,
      // The `! <text>` warnings Copilot CLI prints for hooks (userPromptSubmitted exit 2, a block).
      userText: run.stderr
        .split('\n')
        .filter((l) => l.startsWith('! '))
        .join('\n'),
      terminal: run.timedOut ? 'timeout' : `exit ${run.code}`,
      stoppedByHook: false,
      started: run.code !== null || run.stdout !== '' || !run.spawnError,
    };
  } finally {
    await mock.close();
  }
}
