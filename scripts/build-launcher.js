// Builds the posix launcher (native/hookwerk-launcher.c → dist/native/hookwerk-launcher) where a C
// compiler exists [X-PROC-1]. No compiler, or a failed build: hookwerk uses its Node launcher, and
// this script says so without failing the install.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = path.join(root, 'native', 'hookwerk-launcher.c');
const out = path.join(root, 'dist', 'native', 'hookwerk-launcher');
const compiler = process.env.CC || 'cc';

if (process.env.HOOKWERK_NO_NATIVE === '1') {
  rmSync(out, { force: true });
  console.log('hookwerk: HOOKWERK_NO_NATIVE=1: the Node launcher will be used');
  process.exit(0);
}
mkdirSync(path.dirname(out), { recursive: true });
try {
  execFileSync(compiler, ['-O2', '-Wall', '-o', out, source], { stdio: ['ignore', 'ignore', 'pipe'] });
} catch (err) {
  rmSync(out, { force: true });
  const why =
    err && typeof err === 'object' && 'code' in err && err.code === 'ENOENT'
      ? `no C compiler (${compiler})`
      : 'the C build failed';
  console.log(`hookwerk: ${why}: hooks will be started by the Node launcher`);
}
