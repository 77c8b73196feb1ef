/**
 * [C-RUN-3] `CLAUDE_PLUGIN_DATA` of a plugin given by folder: the folder Claude Code 2.1 uses for
 * it, so a plugin's state is the same under both. Claude Code names a `--plugin-dir` plugin
 * `<name>@inline` (the name from its manifest `.claude-plugin/plugin.json`, else the folder's
 * name) and keeps its data in `~/.claude/plugins/data/<that id, each character outside
 * [A-Za-z0-9_-] made "-">`, e.g. `~/.claude/plugins/data/formatter-inline`.
 */
import path from 'node:path';
import { z } from 'zod';
import { parseBoundedJson } from '../../core/json-text.ts';
import { readSourceFile } from '../../core/read-source.ts';

/** Where Claude Code looks for a plugin's manifest, inside the plugin folder. */
const CLAUDE_PLUGIN_MANIFEST = path.join('.claude-plugin', 'plugin.json');

/** A manifest is small; a bigger file is not read (the folder name is used). */
const MAX_MANIFEST_BYTES = 256 * 1024;

/** Only `name` matters here; every other field is left to Claude Code. */
const manifestName = z.object({ name: z.string().min(1) });

/** [C-RUN-3] `<home>/.claude/plugins/data/<plugin name>-inline` for the plugin folder `pluginRoot`. */
export function claudePluginDataDir(home: string, pluginRoot: string): string {
  const id = `${claudePluginName(pluginRoot)}@inline`;
  return path.join(home, '.claude', 'plugins', 'data', id.replace(/[^A-Za-z0-9_-]/g, '-'));
}

/**
 * The plugin's name: the manifest's `name` when the manifest is there and names it, else the
 * folder's name (as Claude Code names a plugin without a manifest). An unreadable or malformed
 * manifest is not an error here: the folder name keeps the hook running.
 */
function claudePluginName(pluginRoot: string): string {
  const read = readSourceFile(path.join(pluginRoot, CLAUDE_PLUGIN_MANIFEST), MAX_MANIFEST_BYTES);
  if (read.kind === 'text') {
    const parsed = parseBoundedJson(read.text);
    const manifest = parsed.ok ? manifestName.safeParse(parsed.value) : undefined;
    if (manifest?.success) return manifest.data.name;
  }
  return path.basename(pluginRoot);
}
