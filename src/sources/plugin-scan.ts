/** Finds the plugins of a workspace: every folder of `<workspace>/plugins/` [P-WASM-1]. */
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorCode } from '../core/errno.ts';
import type { ConfigIssue } from '../core/issues.ts';
import { type HashCache, loadPlugin, PLUGIN_MANIFEST, type PluginSpec } from './plugin-manifest.ts';

export const PLUGINS_DIR = 'plugins';
/** At most this many plugin folders are read; more are reported and skipped. */
const MAX_PLUGINS = 256;

interface PluginScan {
  plugins: PluginSpec[];
  /** One or more per rejected plugin; the others load. */
  issues: ConfigIssue[];
  /** Folders whose changes matter (the plugins folder, each plugin folder, folders holding a component). */
  watchDirs: string[];
}

/** Reads every plugin folder; a bad plugin is reported and skipped, the others load. Never throws. */
export function scanPlugins(pluginsDir: string, hashCache?: HashCache): PluginScan {
  const out: PluginScan = { plugins: [], issues: [], watchDirs: [] };
  let entries: Dirent[];
  try {
    entries = readdirSync(pluginsDir, { withFileTypes: true });
  } catch (err) {
    const code = errorCode(err);
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      out.issues.push({
        file: pluginsDir,
        path: '$',
        message: `cannot read the plugins folder: ${String(err)}`,
      });
    return out;
  }
  out.watchDirs.push(pluginsDir);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map<string, PluginSpec>();
  let count = 0;
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const folder = path.join(pluginsDir, entry.name);
    const manifest = path.join(folder, PLUGIN_MANIFEST);
    if (entry.isSymbolicLink()) {
      if (isDirectory(folder))
        out.issues.push({
          file: manifest,
          path: '$',
          message: `plugins/${entry.name} is a symlink; a plugin must be a real folder inside plugins/ (copy it)`,
        });
      continue;
    }
    if (!entry.isDirectory()) continue;
    if (++count > MAX_PLUGINS) {
      out.issues.push({ file: manifest, path: '$', message: `more than ${MAX_PLUGINS} plugins; skipped` });
      continue;
    }
    out.watchDirs.push(folder);
    const result = loadPlugin(folder, hashCache);
    if (!result.ok) {
      out.issues.push(...result.issues);
      continue;
    }
    const p = result.plugin;
    const wasmDir = path.dirname(p.wasmFile);
    if (!out.watchDirs.includes(wasmDir)) out.watchDirs.push(wasmDir);
    const other = byName.get(p.name);
    if (other !== undefined) {
      out.issues.push({
        file: p.manifestFile,
        path: '$.plugin.name',
        message: `name ${JSON.stringify(p.name)} is already used by ${other.manifestFile}`,
      });
      continue;
    }
    byName.set(p.name, p);
    out.plugins.push(p);
  }
  return out;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
