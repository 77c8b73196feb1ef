export { buildComponentFromWat } from './build.ts';
export { PluginHost, type PluginHostOptions, type PluginRescan } from './host.ts';
export { PluginJob } from './job.ts';
export {
  loadPlugin,
  PLUGIN_LIMITS,
  PLUGIN_MANIFEST,
  type PluginManifest,
  type PluginSpec,
  pluginManifestSchema,
} from './manifest.ts';
export { patternsMatch } from './match.ts';
export { type PluginCallResult, PluginRunner } from './runner.ts';
export { PLUGINS_DIR, scanPlugins } from './scan.ts';
