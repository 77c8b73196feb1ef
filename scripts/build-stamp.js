// The last step of `npm run build`: dist/.built marks a finished build (build-freshness.js).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMP } from './build-freshness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
writeFileSync(path.join(root, STAMP), `${new Date().toISOString()}\n`);
