// Builds the posix native parts where a C compiler exists: the launcher (native/hookwerk-launcher.c
// → dist/native/hookwerk-launcher) [X-PROC-1] and the warm path's client (native/hookwerk-hook.c →
// dist/native/hookwerk-hook) [R-HOOK-4], and the Node client's peer check (native/hookwerk-peer.c →
// dist/native/hookwerk-peer) [T-SELF-4], and the system daemon's door (native/hookwerk-accept.c →
// dist/native/hookwerk-accept) [T-MGD-3]. No compiler, or a failed build: hookwerk uses its Node
// launcher and its Node client, and this script says so without failing the install.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'dist', 'native');
const compiler = process.env.CC || 'cc';

/** A C string literal for a path, or undefined for one a literal should not carry. */
function cString(text) {
  if (/[\u0000-\u001f\u007f]/.test(text)) return undefined;
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** The client falls back to `node <package>/bin/hookwerk.js hook …`: this node and this package. */
function hookDefines() {
  const node = cString(process.execPath);
  const bin = cString(path.join(root, 'bin', 'hookwerk.js'));
  return [
    ...(node !== undefined ? [`-DHOOKWERK_NODE=${node}`] : []),
    ...(bin !== undefined ? [`-DHOOKWERK_BIN=${bin}`] : []),
  ];
}

const PARTS = [
  {
    source: 'hookwerk-launcher.c',
    out: 'hookwerk-launcher',
    defines: () => [],
    without: 'hooks will be started by the Node launcher',
  },
  {
    source: 'hookwerk-hook.c',
    out: 'hookwerk-hook',
    defines: hookDefines,
    without: 'the warm path uses the Node client (hookwerk hook)',
  },
  {
    source: 'hookwerk-peer.c',
    out: 'hookwerk-peer',
    defines: () => [],
    without: 'the Node client checks only the owner and folder of the daemon socket',
  },
  {
    source: 'hookwerk-accept.c',
    out: 'hookwerk-accept',
    defines: () => [],
    without: 'hookwerk daemon --system cannot run (it learns its callers from the kernel through it)',
  },
];

if (process.env.HOOKWERK_NO_NATIVE === '1') {
  for (const part of PARTS) rmSync(path.join(outDir, part.out), { force: true });
  console.log('hookwerk: HOOKWERK_NO_NATIVE=1: the Node launcher and the Node hook client will be used');
  process.exit(0);
}
mkdirSync(outDir, { recursive: true });
for (const part of PARTS) {
  const out = path.join(outDir, part.out);
  const source = path.join(root, 'native', part.source);
  try {
    execFileSync(compiler, ['-O2', '-Wall', ...part.defines(), '-o', out, source], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (err) {
    rmSync(out, { force: true });
    const why =
      err && typeof err === 'object' && 'code' in err && err.code === 'ENOENT'
        ? `no C compiler (${compiler})`
        : `the C build of ${part.source} failed`;
    console.log(`hookwerk: ${why}: ${part.without}`);
  }
}
