// Drives the real Gemini CLI once for a case: headless (`-p`, json output, --yolo so tools run
// without a prompt), against the mock Gemini API, in the case's world. `-m` pins the model, so the
// CLI's router makes no classification call; the mock answers one anyway should it come.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startGeminiMock } from './mock-gemini.js';
import { runProcess } from './processes.js';

export function geminiEnv(mockUrl) {
  return {
    GOOGLE_GEMINI_BASE_URL: mockUrl,
    GEMINI_API_KEY: 'dummy',
    // Headless runs refuse a folder that is not trusted; the relaunch would double every process.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    HTTPS_PROXY: mockUrl,
    HTTP_PROXY: mockUrl,
    NO_PROXY: '127.0.0.1,localhost',
  };
}

export async function runGemini(tool, kase, world, baseEnv, timeoutMs) {
  const mock = await startGeminiMock({ turns: kase.turns });
  try {
    const env = { ...baseEnv, ...geminiEnv(mock.url) };
    // The install suite trusts the folder the way a user does, without the harness's opt-in.
    for (const name of kase.unsetEnv ?? []) delete env[name];
    const args = [
      '-p',
      kase.prompt ?? 'Run the step.',
      '--output-format',
      'json',
      '--yolo',
      '-m',
      'gemini-2.5-flash',
    ];
    const run = await runProcess(tool.bin, args, { cwd: world.proj, env, timeoutMs });
    writeFileSync(path.join(world.base, 'tool-stdout.json'), run.stdout);
    writeFileSync(path.join(world.base, 'tool-stderr.txt'), run.stderr);
    writeFileSync(path.join(world.base, 'mock-requests.json'), JSON.stringify(mock.requests, null, 1));
    let result;
    try {
      result = JSON.parse(run.stdout);
    } catch {
      result = undefined;
    }
    return {
      env,
      run,
      requests: mock.requests,
      // Gemini CLI's own words on a hook's failure, for the report's likely cause.
      notes: run.stderr
        .split('\n')
        .filter((l) => {
          const words = l.replace(/\/\S*/g, '');
          return /hook/i.test(words) && /(error|fail|invalid|timed out|timeout|stopped|blocked)/i.test(words);
        })
        .slice(0, 20),
      userText: userLines(run.stderr),
      // BeforeTool / AfterTool stops print this; BeforeAgent / AfterAgent ones show as no model call.
      stoppedByHook: /Agent execution stopped/.test(run.stderr),
      terminal: result === undefined ? (run.timedOut ? 'timeout' : 'no-json-output') : 'completed',
      result,
      sessionId: result?.session_id,
      started: !run.spawnError,
    };
  } finally {
    await mock.close();
  }
}

/**
 * What Gemini CLI showed the user from hooks: its "Hook system message: …" lines on stderr (the
 * merged systemMessage), each with the lines that continue it (a joined message spans several).
 */
function userLines(stderr) {
  const shown = [];
  let inMessage = false;
  for (const line of stderr.split('\n')) {
    if (line.startsWith('Hook system message: ')) inMessage = true;
    else if (line.trim() === '' || /^(Hook|Error|Agent|Warning|\[)/.test(line)) inMessage = false;
    if (inMessage) shown.push(line);
  }
  return shown.join('\n');
}
