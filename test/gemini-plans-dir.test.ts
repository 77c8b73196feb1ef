/**
 * [G-RUN-1] The project id in `GEMINI_PLANS_DIR` (`<home>/.gemini/tmp/<project>/<session>/plans`),
 * found as Gemini CLI 0.61's project registry finds it: over real files in a temp home (the
 * registry `~/.gemini/projects.json` and the `.project_root` ownership markers), read only.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiPlansDir, geminiProjectId, geminiProjectTempDir } from '../src/dialects/gemini/plans-dir.ts';
import { tempDir } from './helpers.ts';

function world(projectName: string) {
  const home = tempDir('hw-plans-home-');
  const project = path.join(tempDir('hw-plans-'), projectName);
  mkdirSync(project, { recursive: true });
  const gemini = path.join(home, '.gemini');
  /** Writes `~/.gemini/<base>/<id>/.project_root` naming `owner`. */
  const marker = (base: 'tmp' | 'history', id: string, owner: string) => {
    mkdirSync(path.join(gemini, base, id), { recursive: true });
    writeFileSync(path.join(gemini, base, id, '.project_root'), `${owner}\n`);
  };
  const registry = (value: unknown) => {
    mkdirSync(gemini, { recursive: true });
    writeFileSync(
      path.join(gemini, 'projects.json'),
      typeof value === 'string' ? value : JSON.stringify(value),
    );
  };
  return { home, project, gemini, marker, registry };
}

describe('[G-RUN-1] the project id of GEMINI_PLANS_DIR', () => {
  it('[G-RUN-1] a folder Gemini CLI has not seen: its name, lower case, other characters one "-"; nothing is written', () => {
    const w = world('Hello, World!_x');
    expect(geminiProjectId(w.home, w.project)).toBe('hello-world-x');
    expect(geminiProjectTempDir(w.home, w.project)).toBe(path.join(w.gemini, 'tmp', 'hello-world-x'));
    expect(geminiPlansDir(geminiProjectTempDir(w.home, w.project), 'sid')).toBe(
      path.join(w.gemini, 'tmp', 'hello-world-x', 'sid', 'plans'),
    );
    expect(existsSync(w.gemini)).toBe(false);
    // A name with no letter or digit at all is "project".
    expect(geminiProjectId(w.home, world('__').project)).toBe('project');
  });

  it('[G-RUN-1] the registry’s id for the folder wins, when no marker names another folder', () => {
    const w = world('app');
    w.registry({ projects: { [w.project]: 'custom-id' } });
    expect(geminiProjectId(w.home, w.project)).toBe('custom-id');
    w.marker('tmp', 'custom-id', w.project);
    expect(geminiProjectId(w.home, w.project)).toBe('custom-id');
  });

  it('[G-RUN-1] a stale registry entry (its marker names another folder) is dropped and its id freed', () => {
    const w = world('app');
    w.registry({ projects: { [w.project]: 'app' } });
    w.marker('history', 'app', '/somewhere/else/app');
    expect(geminiProjectId(w.home, w.project)).toBe('app-1');
  });

  it('[G-RUN-1] a marker naming the folder gives its id, in tmp or history', () => {
    const w = world('app');
    w.marker('history', 'app-9', w.project);
    expect(geminiProjectId(w.home, w.project)).toBe('app-9');
  });

  it('[G-RUN-1] a new id skips the ids the registry holds and those other folders’ markers hold', () => {
    const w = world('app');
    w.registry({ projects: { '/other/one/app': 'app', '/other/two/app': 'app-2' } });
    w.marker('tmp', 'app-1', '/other/three/app');
    // A marker that cannot be read counts as another folder's, as in Gemini CLI.
    mkdirSync(path.join(w.gemini, 'tmp', 'app-3', '.project_root'), { recursive: true });
    expect(geminiProjectId(w.home, w.project)).toBe('app-4');
    // Read only: no marker was written for the new id.
    expect(readdirSync(path.join(w.gemini, 'tmp')).sort()).toEqual(['app-1', 'app-3']);
  });

  it('[G-RUN-1] a registry of another shape counts as empty, as Gemini CLI resets it', () => {
    const w = world('app');
    w.registry({ projects: { [w.project]: 'Not Valid!' } });
    expect(geminiProjectId(w.home, w.project)).toBe('app');
    w.registry('{ broken');
    expect(geminiProjectId(w.home, w.project)).toBe('app');
  });
});
