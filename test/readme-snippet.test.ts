/**
 * Issue 23: the README's library snippet, run as written (only the workspace path and the package
 * name point at this checkout), must print what it means to show: the event on the bus and the
 * record of the hook run.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';
import { tempDir, writeHooks } from './helpers.ts';

const run = promisify(execFile);

function librarySnippet(): string {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### As a library'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined) throw new Error('README: no ts block under "As a library"');
  return match[1];
}

describe('README', () => {
  it('[P-BUS-1] the library snippet prints the event and the run record', async () => {
    const ws = tempDir('hw-readme-');
    writeHooks(ws, { tool_call: [{ id: 'log', command: '/bin/true', timeout_ms: 5000 }] });
    const code = librarySnippet()
      .replace("'/path/to/workspace'", JSON.stringify(ws))
      .replace("from 'hookwerk'", `from ${JSON.stringify(path.join(REPO, 'dist', 'index.js'))}`);
    const file = path.join(ws, 'snippet.mjs');
    writeFileSync(file, code);
    const { stdout } = await run(process.execPath, [file], { cwd: ws });
    expect(stdout).toContain('prx.lifecycle.tool_call 1');
    expect(stdout).toMatch(/outcome: 'ok'/);
  });
});
