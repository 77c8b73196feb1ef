/**
 * Issue 23: `npm install` on the Node versions `package.json` promises warns about no package
 * (EBADENGINE, e.g. @nats-io/nuid 3.0.0 wants Node 22). What a user's install brings (the
 * dependencies) must take every Node our `engines` takes; our own dev tools (vite's toolchain
 * skips 21.x) at least the oldest one and the one running the tests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPO } from './cli-runner.ts';

const lockSchema = z.object({
  packages: z.record(
    z.string(),
    z.object({
      dev: z.boolean().optional(),
      engines: z.union([z.object({ node: z.string().optional() }), z.array(z.string())]).optional(),
    }),
  ),
});
const packageSchema = z.object({ engines: z.object({ node: z.string() }) });

describe('engines', () => {
  it("[issue 23] every dependency runs on every Node that package.json's engines allows, dev tools on the oldest", () => {
    const ours = packageSchema.parse(JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')))
      .engines.node;
    const lock = lockSchema.parse(JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')));
    const narrower: string[] = [];
    let checked = 0;
    for (const [name, entry] of Object.entries(lock.packages)) {
      const engines = entry.engines;
      const range = engines !== undefined && !Array.isArray(engines) ? engines.node : undefined;
      if (name === '' || range === undefined) continue;
      checked++;
      // `>= 22.x` is how some packages write it; semver reads `x` only in a plain version.
      const theirs = range.replace(/\.x\b/g, '.0');
      const fits =
        entry.dev === true
          ? semver.satisfies(semver.minVersion(ours) ?? '0.0.0', theirs) &&
            semver.satisfies(process.version, theirs)
          : semver.subset(ours, theirs);
      if (!fits) narrower.push(`${name}: ${range}`);
    }
    expect(checked).toBeGreaterThan(10);
    expect(narrower).toEqual([]);
  });
});
