/**
 * Building a plugin component from WebAssembly text, in-process, with jco-transpile's wasm-tools
 * (`parse` → `componentEmbed` → `componentNew`). Used by the tests (fixtures are built at test
 * time) and by `node examples/plugins/build.js`.
 */

/** The world every plugin implements; the same text as `wit/hook.wit` (a test keeps them equal). */
export const HOOK_WIT = `// The interface every hookwerk WASM plugin implements [P-WASM-1].
// A plugin is a WebAssembly component of the world \`hook\`: it exports \`prx:plugin/hooks\`.
package prx:plugin@0.1.0;

interface hooks {
  /// Called when a subscribed event fires.
  /// \`event\` is the PRX event name (e.g. "tool_call"); \`payload-json\` is the same envelope
  /// JSON that shell hooks receive ({"event", "timestamp", "session_id", "payload"}).
  /// Return ok to acknowledge, err(message) to report a failure (logged, never seen by the agent).
  on-event: func(event: string, payload-json: string) -> result<_, string>;
}

world hook {
  export hooks;
}
`;

interface BuildOptions {
  /** WIT source; default {@link HOOK_WIT}. */
  wit?: string;
  /** World to target; default `hook`. */
  world?: string;
}

/**
 * Assembles `wat` (a core module using the canonical ABI: it exports `memory`, `cabi_realloc`,
 * `prx:plugin/hooks@0.1.0#on-event` and `cabi_post_prx:plugin/hooks@0.1.0#on-event`) and wraps
 * it into a component of the `hook` world.
 */
export async function buildComponentFromWat(wat: string, opts: BuildOptions = {}): Promise<Uint8Array> {
  const tools = await import('@bytecodealliance/jco-transpile/wasm-tools');
  const core = await tools.parse(wat);
  const embedded = await tools.componentEmbed({
    binary: core,
    witSource: opts.wit ?? HOOK_WIT,
    world: opts.world ?? 'hook',
  });
  return tools.componentNew(embedded);
}
