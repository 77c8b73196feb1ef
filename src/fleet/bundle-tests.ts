/**
 * [F-BUN-2] A daemon runs a bundle's tests before it applies the bundle, exactly as `hookwerk
 * test --policy` would on this machine (G-TEST-1: the code `hookwerk hook` runs, this home's
 * managed policy and trust store), with the bundle's policy in place of the user's and project's.
 * The files are written to a private temp folder, removed afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runPolicyTests } from '../policy-test/run-policy-tests.ts';
import { type PolicyTestFile, PolicyTestFileError, readTestFile } from '../policy-test/test-file.ts';
import type { Bundle } from './bundle.ts';

/** Why the bundle's tests refuse it, in one line; undefined when every case passed (or it has none). */
export async function bundleTestFailure(
  bundle: Bundle,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  if (bundle.tests.length === 0) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bundle-'));
  try {
    const policy = path.join(dir, 'policy.json');
    writeFileSync(policy, bundle.policy, { mode: 0o600 });
    const files: PolicyTestFile[] = [];
    for (const t of bundle.tests) {
      const file = path.join(dir, t.name);
      writeFileSync(file, t.text, { mode: 0o600 });
      try {
        files.push(readTestFile(file));
      } catch (e) {
        if (!(e instanceof PolicyTestFileError)) throw e;
        return `test file ${t.name} cannot be used: ${e.issues[0]?.message ?? e.message}`;
      }
    }
    const run = await runPolicyTests(files, { projectDir: dir, home, env, policy });
    const failed = run.results.find((r) => !r.passed);
    if (failed === undefined) return undefined;
    return `its tests fail: ${run.failed} of ${run.results.length} (${failed.name}: ${failed.why ?? `expected ${failed.expect}, got ${failed.got}`})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
