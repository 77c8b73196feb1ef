/**
 * (issue 31) `npx hookwerk` in a checkout installs the checkout into npx's cache, and npm runs its
 * `prepare` first: that rebuilt dist/ every time (~55 s). `prepare` now builds only a stale dist/.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleReason } from '../scripts/build-freshness.js';
import { REPO } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

function tree(): { root: string; at(file: string, seconds: number): void } {
  const root = tempDir('hw-fresh-');
  const at = (file: string, seconds: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, '');
    utimesSync(full, seconds, seconds);
  };
  return { root, at };
}

describe('(issue 31) prepare builds only a stale dist/', () => {
  it('stale without the stamp of a finished build, or with a source newer than it; fresh otherwise', () => {
    const t = tree();
    t.at('src/cli/main.ts', 1000);
    t.at('ui/src/main.ts', 1000);
    t.at('package.json', 1000);
    expect(staleReason(t.root)).toMatch(/dist\/\.built is missing/);
    t.at('dist/.built', 2000);
    expect(staleReason(t.root)).toBeUndefined();
    t.at('ui/src/gate-view.ts', 3000);
    expect(staleReason(t.root)).toBe(
      `${path.join('ui', 'src', 'gate-view.ts')} changed since the last build`,
    );
    t.at('dist/.built', 4000);
    t.at('package-lock.json', 5000);
    expect(staleReason(t.root)).toBe('package-lock.json changed since the last build');
  });

  it('`npm run prepare` in this checkout, just built, leaves dist/ as it is', () => {
    const before = statSync(path.join(REPO, 'dist', 'index.js')).mtimeMs;
    const r = spawnSync('npm', ['run', 'prepare'], { cwd: REPO, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('dist/ is up to date with the sources: not rebuilt');
    expect(statSync(path.join(REPO, 'dist', 'index.js')).mtimeMs).toBe(before);
  });
});
