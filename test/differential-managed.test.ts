/**
 * [T-MGD-2] The differential's managed steps (differential/install-managed.js) run the real Codex
 * CLI as root in a mount namespace. Where that cannot happen they must say `not run` and why,
 * never pass: checked here without Codex, for a missing binary, a user who is not root and a
 * machine without bwrap (the reasons differential/namespace.js gives).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanEnv, REPO, runProgram } from './cli-runner.ts';
import { exported } from './differential-mocks.ts';
import { agentAccount } from './managed-namespace.ts';

const NAMESPACE = pathToFileURL(path.join(REPO, 'differential', 'namespace.js')).href;
const step = z.object({ name: z.string(), status: z.string(), detail: z.string() });

/** `namespaceProblem()` in a fresh node process, under `prefix` (setpriv …) and `env`. */
async function problemIn(prefix: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const code = `import(${JSON.stringify(NAMESPACE)}).then((m) => process.stdout.write(String(m.namespaceProblem())))`;
  const argv = [...prefix, process.execPath, '--input-type=module', '-e', code];
  const [command = '', ...args] = argv;
  const r = await runProgram(command, args, { env, cwd: REPO });
  expect(r.stderr).toBe('');
  return r.stdout;
}

describe('differential install suite: the managed steps [T-MGD-2]', () => {
  it('with no Codex binary, every managed step is `not run` with the reason, and none agrees', async () => {
    const managedSteps = await exported('install-managed.js', 'managedSteps');
    const steps: z.infer<typeof step>[] = [];
    const record = (name: unknown, status: unknown, detail: unknown) =>
      steps.push(step.parse({ name, status, detail }));
    const missing = '/nonexistent/codex-cli/bin/codex';
    await managedSteps({
      tool: { bin: missing, label: 'codex-cli', version: '0' },
      spec: {},
      root: '/nonexistent',
      baseEnv: {},
      timeoutMs: 1000,
      step: (name: unknown, ok: unknown, detail: unknown) => record(name, ok ? 'agree' : 'DIFFER', detail),
      skip: record,
    });
    expect(steps.map((s) => s.name)).toEqual([
      'managed-installed',
      'managed-blocks',
      'managed-allow-runs',
      'managed-pin-holds',
      'managed-unpinned',
      'managed-uninstall',
    ]);
    for (const s of steps)
      expect(s).toMatchObject({ status: 'not run', detail: `no Codex binary at ${missing}` });
  });

  it('not as root, or without bwrap, the namespace is refused with its reason', async () => {
    const agent = agentAccount();
    const drop = [`--reuid=${agent.uid}`, `--regid=${agent.gid}`, '--clear-groups', '--'];
    expect(await problemIn(['setpriv', ...drop], cleanEnv())).toBe(
      'needs root (bwrap binds temp folders over /etc)',
    );
    expect(await problemIn([], cleanEnv({ PATH: '/nonexistent' }))).toBe(
      'bwrap cannot run: spawnSync bwrap ENOENT',
    );
  });
});
