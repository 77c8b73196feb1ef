/**
 * [F-BUN-1] Making a bundle from a policy file and its test files: the policy must be a usable
 * policy (strict, G-FAIL-1) and each test file a usable test file (G-TEST-1) — a bundle that every
 * daemon would refuse is refused here, where the author sees why. The version is the one given,
 * else the previous bundle's + 1 (the file about to be replaced), else 1.
 */
import path from 'node:path';
import type { ConfigIssue } from '../core/issues.ts';
import { parseJsoncText } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { policyProblems } from '../dialects/policy/strict.ts';
import { MAX_TEST_FILE_BYTES, PolicyTestFileError, readTestFile } from '../policy-test/test-file.ts';
import { testFilesOf } from '../policy-test/test-files.ts';
import { type Bundle, type BundleTestFile, newBundle } from './bundle.ts';
import { BundleError, MAX_BUNDLE_BYTES, readBundleIfAny } from './bundle-file.ts';

export interface MakeBundleOptions {
  /** The policy file, absolute. */
  policy: string;
  /** A folder (or file) of test files, absolute; default: the `tests/` folder beside the policy. */
  tests?: string;
  /** The version; default: the previous bundle's + 1, else 1. */
  version?: number;
  /** The bundle file to be written (its current version is the previous one). */
  output: string;
  now?: Date;
}

export function makeBundle(opts: MakeBundleOptions): Bundle {
  const policy = readText(opts.policy, MAX_BUNDLE_BYTES);
  const parsed = parseJsoncText(opts.policy, policy);
  if (!parsed.ok) throw located(parsed.issue);
  const problems = policyProblems(opts.policy, parsed.value).filter((p) => p.level !== 'warning');
  const first = problems[0];
  if (first !== undefined) throw located(first);
  const tests = testFiles(opts);
  const previous = readBundleIfAny(opts.output);
  const version = opts.version ?? (previous !== undefined ? previous.version + 1 : 1);
  if (previous !== undefined && version <= previous.version)
    throw new BundleError(
      `holds version ${previous.version}; a new bundle must be newer (--version ${previous.version + 1} or more, or another -o)`,
      opts.output,
    );
  return newBundle({ version, createdAt: (opts.now ?? new Date()).toISOString(), policy, tests });
}

function testFiles(opts: MakeBundleOptions): BundleTestFile[] {
  const dir = opts.tests ?? path.join(path.dirname(opts.policy), 'tests');
  let files: string[];
  try {
    files = testFilesOf([dir], { cwd: path.dirname(opts.policy), projectDir: dir, home: dir });
  } catch (e) {
    // No tests folder beside the policy: a bundle without tests (said by `bundle`'s output).
    if (opts.tests === undefined && e instanceof PolicyTestFileError) return [];
    throw testError(e);
  }
  const names = new Set<string>();
  return files.map((file) => {
    try {
      readTestFile(file);
    } catch (e) {
      throw testError(e);
    }
    const name = path.basename(file);
    if (names.has(name)) throw new BundleError(`a second test file named ${name}`, file);
    names.add(name);
    return { name, text: readText(file, MAX_TEST_FILE_BYTES) };
  });
}

function testError(e: unknown): unknown {
  if (!(e instanceof PolicyTestFileError)) return e;
  const first = e.issues[0];
  return first !== undefined ? located(first) : new BundleError(e.message);
}

function located(issue: ConfigIssue): BundleError {
  return new BundleError(`${issue.path}: ${issue.message}`, issue.file);
}

function readText(file: string, max: number): string {
  const read = readSourceFile(file, max);
  if (read.kind === 'missing') throw new BundleError('no such file', file);
  if (read.kind === 'refused') throw new BundleError(read.message, file);
  return read.text;
}
