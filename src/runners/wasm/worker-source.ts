/**
 * The code of a plugin's worker thread, started with `new Worker(PLUGIN_WORKER_SOURCE, {eval: true})`.
 *
 * Kept as a string so that the same code runs from `src/` (tests) and `dist/` (built package)
 * without a build step for worker files. It is plain JavaScript (CommonJS, `require` available).
 *
 * workerData:
 * - `glue`: the ES module jco generated (instantiation "async");
 * - `modules`: the core modules as compiled `WebAssembly.Module`s, already memory-capped;
 * - `imports`: the interfaces the component imports; `exportKey`: its `prx:plugin/hooks` export;
 * - `preopens`: `{guest: hostDir}` granted directories; `network`: whether sockets/http are granted;
 * - `shim`: file URLs of the preview2-shim modules.
 *
 * Protocol: the parent posts `[id, event, payloadJson]`; the worker answers `id` (ok),
 * `[id, 1, message]` (the guest returned `err(message)`) or `[id, 2, message]` (trap, or any
 * other exception: the instance is dropped and a fresh one is made for the next event).
 * At start it posts `{ready: true}` or `{failed: message}`; what the plugin writes to stderr comes
 * as `{stderr: text}`.
 */
export const PLUGIN_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { glue, modules, imports: needed, exportKey, preopens, network, shim } = workerData;

// Nothing a plugin prints may reach the host's stdout (an agent may speak a protocol there).
// stdout is discarded; stderr goes to the parent as {stderr} messages (kept as the tail of the
// next failed record). WASI output arrives here through preview2-shim's I/O worker, whose stdio
// Node pipes into these two streams.
const done = (a, b) => {
  const cb = typeof a === 'function' ? a : b;
  if (typeof cb === 'function') queueMicrotask(cb);
  return true;
};
process.stdout.write = (_chunk, a, b) => done(a, b);
process.stderr.write = (chunk, a, b) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  parentPort.postMessage({ stderr: text.slice(-2048) });
  return done(a, b);
};

// Only the modules the host compiled (from memory-capped bytes) may be instantiated.
const allowed = new WeakSet(Object.values(modules));
const getCoreModule = (name) => {
  const m = modules[name];
  if (m === undefined) throw new Error('the component asked for an unknown core module ' + name);
  return m;
};
const instantiateCore = (module, importObject) => {
  if (!allowed.has(module)) throw new Error('refused to instantiate a core module that did not pass the memory cap');
  return new WebAssembly.Instance(module, importObject);
};

const camel = (s) => s.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

function denied(pkg) {
  const fail = function denied() {
    throw new Error('wasi:' + pkg + ' is not granted to this plugin (grant it with [permissions] network = true)');
  };
  const iface = new Proxy({}, { get: (_, p) => (p === 'then' ? undefined : fail) });
  return new Proxy({}, { has: () => true, get: (_, p) => (p === 'then' ? undefined : iface) });
}

async function buildImports() {
  const loaded = {};
  const load = async (k) => (loaded[k] ??= await import(shim[k]));
  let fs;
  const out = {};
  for (const name of needed) {
    const m = /^wasi:([a-z]+)\/([a-z0-9-]+)$/.exec(name);
    if (m === null) throw new Error('the component imports ' + name + ', which hookwerk does not provide');
    const pkg = m[1];
    let mod;
    switch (pkg) {
      case 'cli': {
        mod = await load('cli');
        // Nothing of the host leaks in: no environment, no arguments, "/" as the cwd.
        mod._setEnv({});
        mod._setArgs([]);
        mod._setCwd('/');
        break;
      }
      case 'clocks':
      case 'io':
      case 'random':
        mod = await load(pkg);
        break;
      case 'filesystem':
        // Its own namespace: only the granted directories exist (none by default).
        fs ??= (await load('filesystem')).createFilesystem({ preopens });
        mod = fs;
        break;
      case 'sockets':
      case 'http':
        mod = network ? await load(pkg) : denied(pkg);
        break;
      default:
        throw new Error('the component imports ' + name + ', which hookwerk does not provide');
    }
    const key = camel(m[2]);
    if (mod[key] === undefined) throw new Error('the component imports ' + name + ', which preview2-shim does not provide');
    out[name] = mod[key];
  }
  return out;
}

let factory;
let importObject;
let hooks;

function instantiate() {
  const result = factory.instantiate(getCoreModule, importObject, instantiateCore);
  if (result instanceof Promise) throw new Error('the component did not instantiate synchronously');
  const h = result[exportKey];
  if (h === undefined || typeof h.onEvent !== 'function')
    throw new Error('the component does not export ' + exportKey + ' with on-event');
  return h;
}

function describe(err) {
  if (err instanceof WebAssembly.RuntimeError)
    return err.message.startsWith('wasm trap') ? err.message : 'wasm trap: ' + err.message;
  if (err instanceof Error) return err.name === 'Error' ? err.message : err.name + ': ' + err.message;
  return String(err);
}

function errPayload(err) {
  if (typeof err === 'string') return err;
  if (err !== null && typeof err === 'object' && err.constructor && err.constructor.name === 'ComponentError' && 'payload' in err)
    return typeof err.payload === 'string' ? err.payload : JSON.stringify(err.payload);
  return undefined;
}

parentPort.on('message', (msg) => {
  const id = msg[0];
  try {
    if (hooks === undefined) hooks = instantiate();
    hooks.onEvent(msg[1], msg[2]);
    parentPort.postMessage(id);
  } catch (err) {
    const payload = errPayload(err);
    if (payload !== undefined) {
      parentPort.postMessage([id, 1, payload]);
    } else {
      // A trapped component instance may not be entered again: the next event gets a fresh one.
      hooks = undefined;
      parentPort.postMessage([id, 2, describe(err)]);
    }
  }
});

(async () => {
  try {
    importObject = await buildImports();
    factory = await import('data:text/javascript;base64,' + Buffer.from(glue).toString('base64'));
    hooks = instantiate();
    parentPort.postMessage({ ready: true });
  } catch (err) {
    parentPort.postMessage({ failed: describe(err) });
  }
})();
`;
