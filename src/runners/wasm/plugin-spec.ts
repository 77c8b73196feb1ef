/** A validated plugin, ready to load: what the WASM runner needs of it, as `sources/plugin-manifest.ts` reads and admits it. */
export interface PluginSpec {
  name: string;
  version: string;
  description: string;
  /** Real path of the plugin folder. */
  dir: string;
  /** `<dir>/plugin.toml`: the `source` of its run records. */
  manifestFile: string;
  /** Real path of the component. */
  wasmFile: string;
  wasmBytes: Uint8Array;
  /** sha-256 of the component (hex): the key of the transpile cache. */
  wasmSha256: string;
  /** Union of the `events` of every `[[capabilities]]` block, deduplicated. */
  patterns: readonly string[];
  maxMemoryMb: number;
  timeoutMs: number;
  /** Granted directories: the name the guest sees (its preopen) and the real host path. */
  filesystem: ReadonlyArray<{ guest: string; host: string }>;
  network: boolean;
  /** Changes whenever anything that affects running the plugin changes. */
  fingerprint: string;
}
