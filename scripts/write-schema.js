// Regenerates schema/*.json from the zod schemas (run by `npm run schema`; a test checks they are current).
import { writeFileSync } from 'node:fs';
import { prxHooksJsonSchema } from '../dist/config/prx-json-schema.js';

const target = new URL('../schema/prx-hooks.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(prxHooksJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
