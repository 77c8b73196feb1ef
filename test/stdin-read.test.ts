/**
 * (issue 31) Stdin is read in one place (core/stdin-bytes.ts): `hookwerk hook`, `emit` and
 * `decide` all go through it, and its bound holds for a real pipe.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('(issue 31) stdin read once', () => {
  it('only core/stdin-bytes.ts iterates process.stdin (the hook templates written for users aside)', () => {
    const readers = sourceFiles(path.join(ROOT, 'src'))
      .filter((f) => !f.includes(`${path.sep}templates${path.sep}`))
      .filter((f) => /for await \(const \w+ of process\.stdin\)/.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f));
    expect(readers).toEqual([path.join('src', 'core', 'stdin-bytes.ts')]);
  });

  it('reads a real pipe whole, and stops at the bound with undefined', () => {
    const script = (max: number) =>
      `import('${path.join(ROOT, 'dist', 'core', 'stdin-bytes.js')}').then(async (m) => { const b = await m.readStdinBytes(${max}); process.stdout.write(b === undefined ? 'over' : String(b.length)); })`;
    const input = 'x'.repeat(100_000);
    const run = (max: number) =>
      spawnSync(process.execPath, ['-e', script(max)], { input, encoding: 'utf8' }).stdout;
    expect(run(100_000)).toBe('100000');
    expect(run(99_999)).toBe('over');
  });
});
