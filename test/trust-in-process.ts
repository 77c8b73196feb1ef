/**
 * `hookwerk trust --yes` run in the test's own process, for tests where approving the project is
 * set-up and not what is tested: each CLI start costs ~0.4 s of CPU. The consent tests of each
 * dialect ([C-SRC-4]) still approve through the real CLI, so that path stays covered by a process.
 */
import { expect } from 'vitest';
import { trustCommand } from '../src/cli/trust.ts';
import { cleanEnv, STACK } from './cli-runner.ts';

/** Approves the project's hooks (and the plugin folders given) as `trust --yes` does; must exit 0. */
export async function trustInProcess(
  project: string,
  home: string,
  pluginDir: string[] = [],
): Promise<{ stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await trustCommand(
    { project, home, yes: true, pluginDir, env: cleanEnv() },
    {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      ask: () => Promise.resolve(false),
      interactive: false,
      askHuman: () => Promise.resolve(undefined),
    },
  );
  const text = `${out.join('\n')}\n${err.join('\n')}`;
  expect(err.join('\n')).not.toMatch(STACK);
  expect(code, text).toBe(0);
  const lines = (l: string[]) => l.map((line) => `${line}\n`).join('');
  return { stdout: lines(out), stderr: lines(err) };
}
