import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeHooks, writeScript } from './helpers.ts';

// Issue 11, a gap in the engine's own tests: the folder that holds payload files must be 0700
// wherever the engine puts it. Checked through a real engine and a real hook run, from inside the
// hook (while its file is in there) and from the test (before close()).

describe('[P-PAY-2] issue 11: the engine payload folder is private (0700)', () => {
  const saved = process.env.XDG_RUNTIME_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved;
  });

  /** A hook that reports its payload folder and that folder's mode as seen during the run. */
  function reportingWorkspace(): { ws: string; report: string } {
    const ws = tempDir('hw-payload-dir-');
    const report = path.join(ws, 'report');
    writeScript(
      ws,
      'report.sh',
      'dir=$(dirname "$ZERO_HOOK_PAYLOAD_FILE")\nprintf "%s\\n%s\\n" "$dir" "$(stat -c %a "$dir")" > "$1"',
    );
    writeHooks(ws, { error: [{ command: './report.sh', args: [report] }] });
    return { ws, report };
  }

  async function folderOfRun(): Promise<{ dir: string; modeInRun: string }> {
    const { ws, report } = reportingWorkspace();
    const engine = await makeEngine(ws);
    engine.emit('error', { component: 'c', message: 'm' });
    await engine.drain();
    expect(engine.runs()[0]).toMatchObject({ outcome: 'ok' });
    const [dir, modeInRun] = readFileSync(report, 'utf8').trim().split('\n');
    return { dir: dir!, modeInRun: modeInRun! };
  }

  it('[P-PAY-2] issue 11: in the default place (no $XDG_RUNTIME_DIR), a real hook run sees a 0700 folder, and it stays 0700', async () => {
    delete process.env.XDG_RUNTIME_DIR;
    const { dir, modeInRun } = await folderOfRun();
    expect(path.isAbsolute(dir)).toBe(true);
    expect(modeInRun).toBe('700');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(dir).uid).toBe(process.getuid?.());
  });

  it('[P-PAY-2] issue 11: under $XDG_RUNTIME_DIR, a real hook run sees a 0700 folder, and it stays 0700', async () => {
    const runtime = tempDir('hw-xdg-');
    process.env.XDG_RUNTIME_DIR = runtime;
    const { dir, modeInRun } = await folderOfRun();
    expect(path.dirname(dir)).toBe(runtime);
    expect(modeInRun).toBe('700');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
