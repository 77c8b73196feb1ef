/**
 * [G-ACT-1, G-ACT-2, G-PERF-1] RealPaths, the action view's real paths: a folder is answered by
 * the system's realpath when its parent is not yet known (one call instead of an `lstat` per
 * component), else walked; both must give what the kernel gives, and nothing is kept between
 * calls, so a symlink swapped between two calls is read anew. On real folders and symlinks.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { actionView } from '../src/action/action-view.ts';
import { RealPaths } from '../src/core/real-path.ts';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwerk-real-paths-')));
const project = path.join(root, 'project');
const home = path.join(root, 'home');
const outside = path.join(root, 'outside');
mkdirSync(path.join(project, 'src'), { recursive: true });
mkdirSync(path.join(outside, 'deep'), { recursive: true });
mkdirSync(home);
// The project reached through a symlinked folder (as /tmp → /private/tmp on macOS).
symlinkSync(root, path.join(root, 'alias'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('[G-ACT-2] RealPaths.folder', () => {
  it('a folder whose path holds no symlink is itself, and its prefixes are known', () => {
    const reals = new RealPaths();
    expect(reals.folder(path.join(project, 'src'))).toBe(path.join(project, 'src'));
    expect(reals.of('src/../src/x.ts', project)).toBe(path.join(project, 'src', 'x.ts'));
    expect(reals.of(path.join(root, 'alias', 'outside', 'deep'))).toBe(path.join(outside, 'deep'));
  });

  it('a folder reached through a symlink is its target, and paths under it too', () => {
    const reals = new RealPaths();
    const aliased = path.join(root, 'alias', 'project');
    expect(reals.folder(aliased)).toBe(project);
    expect(reals.of('src/a.ts', aliased)).toBe(path.join(project, 'src', 'a.ts'));
    // `..` after the symlinked folder is beside its target, as the kernel reads it.
    expect(reals.of(path.join(root, 'alias', 'project', '..', 'outside'))).toBe(outside);
  });

  it('[G-PERF-1] a clean folder vouches for its prefixes only up to a `/`: a link named like its start is still followed', () => {
    // `root/pro` is a link; `root/project/src` is clean: `pro` is no prefix of it at a `/`.
    symlinkSync(outside, path.join(root, 'pro'));
    const reals = new RealPaths();
    expect(reals.folder(path.join(project, 'src'))).toBe(path.join(project, 'src'));
    expect(reals.of('pro/deep', root)).toBe(path.join(outside, 'deep'));
    expect(reals.of(path.join(root, 'pro'))).toBe(outside);
    expect(reals.entry(path.join(root, 'pro'), '/', outside)).toBe(path.join(root, 'pro'));
    // Its own prefixes are itself, without asking again: the project and the root.
    expect(reals.of('project/src/../x', root)).toBe(path.join(project, 'x'));
  });

  it('a missing folder is its existing prefix resolved, the rest as written', () => {
    const reals = new RealPaths();
    expect(reals.folder(path.join(root, 'alias', 'nope', 'deeper'))).toBe(path.join(root, 'nope', 'deeper'));
  });

  it('agrees with the system realpath on every existing folder, asked in any order', () => {
    const folders = [
      path.join(root, 'alias', 'project', 'src'),
      project,
      path.join(root, 'alias', 'outside', 'deep'),
      path.join(project, 'src'),
      root,
      '/',
    ];
    for (let shift = 0; shift < folders.length; shift++) {
      const reals = new RealPaths();
      for (const f of [...folders.slice(shift), ...folders.slice(0, shift)])
        expect(reals.folder(f)).toBe(realpathSync(f));
    }
  });
});

describe('[G-ACT-2, G-PERM-4] nothing real is kept between calls', () => {
  it('a symlink changed between two calls gives the new real path', () => {
    const link = path.join(project, 'src', 'current');
    const view = () =>
      actionView(
        { tool_name: 'Bash', tool_input: { command: 'cat current/x' }, cwd: path.join(project, 'src') },
        {
          projectDir: project,
          home,
        },
      );
    symlinkSync(path.join(project, 'src'), link);
    const inside = view().paths[0]!;
    expect(inside.real).toBe(path.join(project, 'src', 'x'));
    expect(inside.inProject).toBe(true);
    unlinkSync(link);
    symlinkSync(outside, link);
    const moved = view().paths[0]!;
    expect(moved.real).toBe(path.join(outside, 'x'));
    expect(moved.inProject).toBe(false);
  });

  it('a project folder swapped for a symlink between two calls is read anew', () => {
    const place = path.join(root, 'swap');
    mkdirSync(place);
    const view = () =>
      actionView(
        { tool_name: 'Read', tool_input: { file_path: path.join(place, 'f') }, cwd: place },
        {
          projectDir: place,
          home,
        },
      );
    expect(view().paths[0]!.real).toBe(path.join(place, 'f'));
    rmSync(place, { recursive: true });
    symlinkSync(outside, place);
    const after = view().paths[0]!;
    expect(after.real).toBe(path.join(outside, 'f'));
    // The project is the symlink's target now: the file is inside it.
    expect(after.inProject).toBe(true);
  });
});
