/**
 * [G-TEST-1] Which test files `hookwerk test` runs: the files and folders named, else
 * `<project>/.hookwerk/tests/*.json` and `<home>/.hookwerk/tests/*.json` — each folder's files in
 * name order, each file once. A folder named gives its `*.json` files (not its subfolders'), or,
 * when it has a `tests/` folder, that folder's: a policy folder keeps its tests beside the policy
 * (`hookwerk test examples/policy`, `hookwerk test .hookwerk`), and the policy is no test file.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorCode } from '../core/errno.ts';
import { PolicyTestFileError } from './test-file.ts';

/** The folder a project (or the home) keeps its policy tests in. */
export function testsFolder(dir: string): string {
  return path.join(dir, '.hookwerk', 'tests');
}

/** Where a folder named keeps its tests: its `tests/` folder if it has one (a policy folder), else itself. */
function folderTests(dir: string): string {
  const tests = path.join(dir, 'tests');
  try {
    return statSync(tests).isDirectory() ? tests : dir;
  } catch {
    return dir;
  }
}

/** The `*.json` files of a folder, in name order; none when it does not exist. */
function jsonFilesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return [];
    throw new PolicyTestFileError([
      { file: dir, path: '$', message: `cannot list the folder (${errorCode(e) ?? 'error'})` },
    ]);
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => path.join(dir, n));
}

/**
 * The test files to run, absolute: for each of `given` (resolved against `cwd`) the file itself
 * or a folder's tests; with none given, the project's and the home's tests folders. A given
 * path that does not exist is an error (a typo must not pass as "no tests").
 */
export function testFilesOf(
  given: readonly string[],
  opts: { cwd: string; projectDir: string; home: string },
): string[] {
  const files: string[] = [];
  if (given.length === 0) {
    const folders = [testsFolder(opts.projectDir), testsFolder(opts.home)];
    for (const dir of new Set(folders)) files.push(...jsonFilesIn(dir));
  } else {
    for (const name of given) {
      const full = path.resolve(opts.cwd, name);
      let isDir: boolean;
      try {
        isDir = statSync(full).isDirectory();
      } catch {
        throw new PolicyTestFileError([{ file: full, path: '$', message: 'no such file or folder' }]);
      }
      files.push(...(isDir ? jsonFilesIn(folderTests(full)) : [full]));
    }
  }
  return [...new Set(files)];
}
