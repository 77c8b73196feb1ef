/** What the Cursor tests share: an engine over a temp project and `~`, and installed hook scripts. */
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { makeEngine } from './engine-harness.ts';

/** A temp project, a temp `~`, and the file given as `cursor.enterpriseFile`. */
export interface CursorSetup {
  project: string;
  home: string;
  enterprise: string;
}

/** A `--dialect cursor` engine over the setup, consent granted. */
export function cursorEngine(s: CursorSetup, extra: Partial<HookEngineOptions> = {}): Promise<HookEngine> {
  return makeEngine(undefined, {
    projectDir: s.project,
    home: s.home,
    gateDialect: 'cursor',
    cursor: { enterpriseFile: s.enterprise },
    trust: () => ({ trusted: true, reason: 'test' }),
    ...extra,
  });
}

/** Copies fixture scripts from `fixtures` into `dir` (executable), as a user installs them. */
export function installScripts(fixtures: string, dir: string, names: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    copyFileSync(path.join(fixtures, name), path.join(dir, name));
    chmodSync(path.join(dir, name), 0o755);
  }
}
