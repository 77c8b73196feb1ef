// `npm run prepare` (npm ci, npm pack, and npx in a checkout): the full build, unless dist/ is
// already the build of these sources (issue 31; see build-freshness.js). `npm run build` always builds.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { staleReason } from './build-freshness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const why = staleReason(root);
if (why === undefined) {
  process.stderr.write(
    'hookwerk: dist/ is up to date with the sources: not rebuilt (`npm run build` forces it)\n',
  );
} else {
  process.stderr.write(`hookwerk: building dist/: ${why}\n`);
  const npm = process.env.npm_execpath;
  const r = npm?.endsWith('.js')
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
