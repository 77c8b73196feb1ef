// Regenerates schema/*.json from the zod schemas (run by `npm run schema`; a test checks they are current).
import { writeFileSync } from 'node:fs';
import { SHIPPED_SCHEMAS } from '../dist/dialects/json-schemas.js';

for (const [name, build] of Object.entries(SHIPPED_SCHEMAS)) {
  const target = new URL(`../schema/${name}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(build(), null, 2)}\n`);
  console.log(`wrote ${target.pathname}`);
}
