/**
 * The folders `install` makes and `uninstall` takes back [R-INST-1, T-MGD-2], shared by the JSON
 * hook files and Codex's TOML requirements file: which are missing above a new file, the managed
 * policy's folder a system install's records go in, and removing only what is still empty.
 */
import { chmodSync, existsSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MANAGED_POLICY_DIR } from '../dialects/surfaces/policy-files.ts';

/** `dir` and each missing folder above it, deepest first: what install creates (and uninstall may remove). */
export function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      statSync(d);
      return out;
    } catch {
      out.push(d);
    }
    if (path.dirname(d) === d) return out;
  }
}

/**
 * [T-MGD-2] The managed policy's folder, made before the first system record goes in it: root's,
 * 0755 whatever the umask (a 0700 folder would hide the managed policy from every user, who then
 * could not read it and would be denied).
 */
export function managedFolder(): void {
  if (existsSync(MANAGED_POLICY_DIR)) return;
  mkdirSync(MANAGED_POLICY_DIR, { recursive: true });
  chmodSync(MANAGED_POLICY_DIR, 0o755);
}

/** Folders install created, deepest first, each only while empty. */
export function removeEmptyDirs(dirs: readonly string[]): void {
  for (const dir of dirs) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty, or gone: it stays as it is
      return;
    }
  }
}
