// Drives the real Codex CLI once for a case: `codex exec` headless, every approval and the
// sandbox bypassed (tools run without a prompt), hooks run without Codex's per-hook trust review
// (`--dangerously-bypass-hook-trust`: hookwerk's consent is what the case compares), against the
// mock Responses API, in the case's world. The model is `gpt-5.5`, whose bundled metadata gives
// Codex its freeform `apply_patch` tool.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startOpenAiMock } from './mock-openai.js';
import { runProcess } from './processes.js';

export function codexEnv(mockUrl, world) {
  return {
    CODEX_HOME: world.codexHome,
    OPENAI_API_KEY: 'dummy',
    HTTPS_PROXY: mockUrl,
    HTTP_PROXY: mockUrl,
    NO_PROXY: '127.0.0.1,localhost',
  };
}

export async function runCodex(tool, kase, world, baseEnv, timeoutMs) {
  const mock = await startOpenAiMock({ turns: kase.turns });
  try {
    // The provider's URL is known only now: fill it into the user config.toml.
    const config = path.join(world.codexHome, 'config.toml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('@MOCK@', mock.url));
    const env = { ...baseEnv, ...codexEnv(mock.url, world) };
    const args = [
      'exec',
      '--dangerously-bypass-approvals-and-sandbox',
      // The install suite runs without it too: hooks trusted the way a user's review records them.
      ...(kase.bypassHookTrust === false ? [] : ['--dangerously-bypass-hook-trust']),
      // The case's own flags (the install suite's managed runs: `--disable hooks`).
      ...(kase.codexArgs ?? []),
      '--skip-git-repo-check',
      '-C',
      world.proj,
      kase.prompt ?? 'Run the step.',
    ];
    // `wrap`: bwrap's arguments when the case runs Codex in a mount namespace (install-managed.js).
    const run =
      kase.wrap === undefined
        ? await runProcess(tool.bin, args, { cwd: world.proj, env, timeoutMs })
        : await runProcess('bwrap', [...kase.wrap, '--', tool.bin, ...args], {
            cwd: world.proj,
            env,
            timeoutMs,
          });
    writeFileSync(path.join(world.base, 'tool-stdout.txt'), run.stdout);
    writeFileSync(path.join(world.base, 'tool-stderr.txt'), run.stderr);
    writeFileSync(path.join(world.base, 'mock-requests.json'), JSON.stringify(mock.requests, null, 1));
    const session = /session id: (\S+)/.exec(run.stderr)?.[1];
    return {
      env,
      run,
      requests: mock.requests,
      // Codex prints `hook: <Event> Completed|Failed|Blocked|Stopped`, never a hook's reason.
      notes: run.stderr
        .split('\n')
        .filter((l) => /^hook: \S+ (Failed|Blocked|Stopped)|warning:|ERROR/.test(l))
        .slice(0, 20),
      userText: '',
      stoppedByHook: false,
      terminal: run.timedOut ? 'timeout' : run.code === 0 ? 'completed' : `exit ${run.code}`,
      sessionId: session,
      started: !run.spawnError,
    };
  } finally {
    await mock.close();
  }
}
