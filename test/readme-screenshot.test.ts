/**
 * (issue 31) The README shows the dashboard: a PNG under docs/, taken by `npm run screenshots`
 * (scripts/screenshots.js, real serve and Chromium), small enough for a README.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';

describe('(issue 31) a picture of the dashboard in the README', () => {
  it('links a small PNG under docs/ that exists', () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const link = /!\[[^\]]*dashboard[^\]]*\]\((docs\/[^)]+\.png)\)/.exec(readme)?.[1];
    expect(link).toBeDefined();
    const file = path.join(REPO, link ?? '');
    expect(readFileSync(file).subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(statSync(file).size).toBeLessThan(200 * 1024);
  });
});
