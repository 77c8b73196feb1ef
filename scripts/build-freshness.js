// (issue 31) Whether dist/ is the build of the sources beside it. `npx hookwerk` in a checkout
// installs the checkout itself into npx's cache, and npm runs its `prepare` first: a full build
// (~55 s) every time. `prepare` builds only when this says dist/ is stale.
// The build writes dist/.built last (scripts/build-stamp.js); a failed or partial build has none.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const STAMP = path.join('dist', '.built');

/** What the build reads: a change to any of them makes dist/ stale. */
const INPUTS = [
  'src',
  'ui',
  'scripts/build-launcher.js',
  'scripts/bundle-hook.js',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** Why dist/ under `root` must be built again, or `undefined` when it is fresh. */
export function staleReason(root) {
  const stamp = path.join(root, STAMP);
  if (!existsSync(stamp)) return `${STAMP} is missing (never built, or the last build did not finish)`;
  const built = statSync(stamp).mtimeMs;
  for (const input of INPUTS) {
    const newer = newerThan(path.join(root, input), built);
    if (newer !== undefined) return `${path.relative(root, newer)} changed since the last build`;
  }
  return undefined;
}

/** The first file under `p` modified after `time`, if any. */
function newerThan(p, time) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) {
    for (const name of readdirSync(p)) {
      const found = newerThan(path.join(p, name), time);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return st.mtimeMs > time ? p : undefined;
}
