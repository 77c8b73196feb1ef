/**
 * (issue 31) The checks for what slipped with nothing to catch it: biome's noNonNullAssertion is on
 * for every file but the old ones biome.json lists (an override), and knip is wired into CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';

describe('(issue 31) lint checks', () => {
  it('a new file with a non-null assertion fails `biome lint`', () => {
    // Inside the repository (biome.json applies by path), in a folder of its own, removed after.
    const dir = mkdtempSync(path.join(REPO, 'test', 'nonnull-probe-'));
    try {
      const file = path.join(dir, 'probe.ts');
      writeFileSync(file, 'const a: string | undefined = process.env.X;\nexport const b = a!.length;\n');
      const biome = path.join(REPO, 'node_modules', '.bin', 'biome');
      const r = spawnSync(biome, ['lint', path.relative(REPO, file)], { cwd: REPO, encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stdout + r.stderr).toContain('lint/style/noNonNullAssertion');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('CI runs the unused-export check (npm run knip, knip pinned)', () => {
    const pkg: unknown = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      scripts: { knip: 'knip --no-progress' },
      devDependencies: { knip: /^\d+\.\d+\.\d+$/ },
    });
    expect(readFileSync(path.join(REPO, '.ci', 'run'), 'utf8')).toMatch(/^npm run knip \|\|/m);
  });
});
