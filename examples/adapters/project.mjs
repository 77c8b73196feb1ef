// What the three examples share: a fresh copy of ./policy (a project whose .claude/settings.json
// denies `rm -rf`), a temp HOME, and an engine speaking Claude Code's dialect over them;
// `done()` closes the engine and removes both.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHookEngine } from 'hookwerk';

export async function exampleProject() {
  const project = mkdtempSync(path.join(tmpdir(), 'hookwerk-example-'));
  cpSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'policy'), project, { recursive: true });
  const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-example-home-'));
  const engine = await createHookEngine({
    projectDir: project,
    home,
    gateDialect: 'claude',
    watch: false,
    // The example's own files: approved here. A real project runs `hookwerk trust` once instead.
    trust: () => ({ trusted: true, reason: 'the example project' }),
  });
  const done = async () => {
    await engine.close();
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  };
  return { project, home, engine, done };
}
