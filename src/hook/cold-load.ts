/**
 * [G-PERF-1][R-HOOK-4] How a lone `hookwerk hook` process gets its cold decider. `npm run build`
 * bundles the decider with the engine and every package it reaches into one minified CommonJS
 * file, dist/cli/cold-bundle.cjs (scripts/bundle-hook.js): one file instead of ~700 module files,
 * and a script, so that V8's code cache can be kept for it in `<home>/.hookwerk/cache/` on every
 * Node version (ES modules get one only from Node 22.1's `module.enableCompileCache`). The bundle
 * is the same code as dist/hook/cold-decider.js, which the daemon and `hookwerk test` load; where
 * it is missing (run from src/ by the tests, a partial build) the modules are imported instead.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { writeFileAtomic } from '../core/atomic-write.ts';
import type { PolicyDecider } from './policy-decider.ts';
import { fnv1a } from './policy-index.ts';

/** Beside this file's build: dist/cli/hook-bundle.js and dist/hook/cold-load.js both reach dist/cli/. */
const BUNDLE = fileURLToPath(new URL('../cli/cold-bundle.cjs', import.meta.url));
/** `HOOKWERK_COLD_BUNDLE=off`: decide through the modules, as if the bundle had not been built. */
export const BUNDLE_OFF_ENV = 'HOOKWERK_COLD_BUNDLE';
/** The code cache's files start so: another bundle's or Node's cache is removed when one is written. */
const CACHE_PREFIX = 'cold-bundle-';

/** How this call's decider was loaded: what the tests and a curious user can see. */
export type ColdLoad =
  | { kind: 'bundle'; cache: 'used' | 'written' | 'rejected' | 'unwritable'; file: string }
  | { kind: 'modules'; why: string };

let last: ColdLoad | undefined;

/** The last load of this process (undefined before the first cold decide). */
export function lastColdLoad(): ColdLoad | undefined {
  return last;
}

/**
 * `<home>/.hookwerk/cache/cold-bundle-<hash>.v8`: the hash names the bundle (its path, size,
 * mtime, inode) and the Node that made the cache. V8 checks its own version and flags, but of
 * the source only the length: a rebuilt bundle of the same length must not find the old cache.
 */
function cacheFile(home: string, bundle: string): string {
  const st = statSync(bundle);
  const key = [bundle, st.size, st.mtimeMs, st.ino, process.version, process.arch, process.versions.v8].join(
    '\0',
  );
  return path.join(home, '.hookwerk', 'cache', `${CACHE_PREFIX}${fnv1a(key)}.v8`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function isDecider(value: unknown): value is PolicyDecider {
  return (
    typeof value === 'object' && value !== null && 'decide' in value && typeof value.decide === 'function'
  );
}

/** Runs the bundle as CommonJS would, through a script that takes and gives V8's code cache. */
function runBundle(
  bundle: string,
  cached: Buffer | undefined,
): { decider: PolicyDecider; script: vm.Script } {
  // The build writes it in ASCII: read as such it is a one-byte string, fast to make and to keep.
  const bytes = readFileSync(bundle);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cached !== undefined ? { cachedData: cached } : {}),
    // The bundle's own `import()` (a WASM plugin's glue, in its worker) resolves as a module's would.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  const fn: unknown = script.runInThisContext();
  if (typeof fn !== 'function') throw new Error('the bundle is not a script');
  fn.call(mod.exports, mod.exports, createRequire(bundle), mod, bundle, path.dirname(bundle));
  const decider = mod.exports.coldDecider;
  if (!isDecider(decider)) throw new Error('the bundle has no cold decider');
  return { decider, script };
}

/** Writes V8's cache of `script` (what ran so far: the decide included), replacing older ones. */
function writeCache(file: string, script: vm.Script): boolean {
  try {
    const dir = path.dirname(file);
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(file, script.createCachedData());
    for (const name of readdirSync(dir))
      if (name.startsWith(CACHE_PREFIX) && name !== path.basename(file)) unlinkSync(path.join(dir, name));
    return true;
  } catch {
    return false;
  }
}

/**
 * The cold decider for a call of `home`: the bundle's, with its code cache, where the bundle was
 * built; else the modules'. `decide` writes the cache after the call it was loaded for.
 */
export async function loadColdDecider(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
  bundle = BUNDLE,
): Promise<PolicyDecider> {
  // The modules on request: to tell a bundle's fault from the engine's, or to watch what loads.
  if (env[BUNDLE_OFF_ENV] === 'off') {
    last = { kind: 'modules', why: `${BUNDLE_OFF_ENV}=off` };
    return (await import('./cold-decider.ts')).coldDecider;
  }
  let exists = true;
  try {
    statSync(bundle);
  } catch {
    exists = false;
  }
  if (!exists) {
    last = { kind: 'modules', why: `no ${bundle}` };
    return (await import('./cold-decider.ts')).coldDecider;
  }
  let file: string | undefined;
  try {
    file = cacheFile(home, bundle);
  } catch {
    file = undefined;
  }
  const cached = file === undefined ? undefined : readCache(file);
  let ran: ReturnType<typeof runBundle>;
  try {
    ran = runBundle(bundle, cached);
  } catch (e) {
    // [G-FAIL-1] A broken build is said, every call; the modules still decide the same way.
    const why = `${bundle} did not load (${e instanceof Error ? e.message : String(e)})`;
    process.stderr.write(`hookwerk: ${why}; deciding through the modules (run \`npm run build\`)\n`);
    last = { kind: 'modules', why };
    return (await import('./cold-decider.ts')).coldDecider;
  }
  const { decider, script } = ran;
  const state = cached === undefined ? 'written' : script.cachedDataRejected === true ? 'rejected' : 'used';
  last = { kind: 'bundle', cache: state, file: file ?? '' };
  if (state === 'used' || file === undefined) return decider;
  const cache = file;
  return {
    async decide(q) {
      try {
        return await decider.decide(q);
      } finally {
        if (!writeCache(cache, script)) last = { kind: 'bundle', cache: 'unwritable', file: cache };
      }
    },
  };
}
