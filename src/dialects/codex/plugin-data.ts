/**
 * A Codex plugin folder's `PLUGIN_DATA` [A-CDX-1]: named after the plugin (its manifest), under
 * `$CODEX_HOME`, created on demand when a hook runs.
 */
import path from 'node:path';
import { z } from 'zod';
import { parseBoundedJson } from '../../core/json-text.ts';
import { readSourceFile } from '../../core/read-source.ts';

const MANIFEST = path.join('.codex-plugin', 'plugin.json');
const manifestName = z.object({ name: z.string().min(1) });

/**
 * A plugin folder's `PLUGIN_DATA`: `<CODEX_HOME>/plugins/data/<plugin name>` (the name from its
 * `.codex-plugin/plugin.json`, else the folder's name; characters outside `[A-Za-z0-9_.-]` made
 * `-`), created on demand when a hook runs.
 */
export function codexPluginDataDir(userDir: string, pluginRoot: string): string {
  let name = path.basename(pluginRoot);
  const read = readSourceFile(path.join(pluginRoot, MANIFEST), 256 * 1024);
  if (read.kind === 'text') {
    const parsed = parseBoundedJson(read.text);
    const manifest = parsed.ok ? manifestName.safeParse(parsed.value) : undefined;
    if (manifest?.success) name = manifest.data.name;
  }
  return path.join(userDir, 'plugins', 'data', name.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^\.+/, '-'));
}
