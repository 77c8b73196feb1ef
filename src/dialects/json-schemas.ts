import { z } from 'zod';
import { lurusHooksFileSchema } from './lurus/schema.ts';
import { prxHooksFileSchema } from './prx/schema.ts';

/** JSON Schemas shipped in `schema/`, generated from the same zod schemas the loaders use. */
export const SHIPPED_SCHEMAS = {
  'prx-hooks.schema.json': () => ({
    ...z.toJSONSchema(prxHooksFileSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://hookwerk.dev/schema/prx-hooks.schema.json',
    title: 'hookwerk PRX hooks.json',
  }),
  'lurus-hooks.schema.json': () => ({
    ...z.toJSONSchema(lurusHooksFileSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://hookwerk.dev/schema/lurus-hooks.schema.json',
    title: 'hookwerk Lurus .lurus/hooks.json',
  }),
} as const satisfies Record<string, () => Record<string, unknown>>;

export function prxHooksJsonSchema(): Record<string, unknown> {
  return SHIPPED_SCHEMAS['prx-hooks.schema.json']();
}
