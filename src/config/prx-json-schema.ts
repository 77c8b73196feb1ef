import { z } from 'zod';
import { prxHooksFileSchema } from './prx-schema.ts';

/** JSON Schema of hooks.json, generated from the same zod schema the loader uses. */
export function prxHooksJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(prxHooksFileSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://hookwerk.dev/schema/prx-hooks.schema.json',
    title: 'hookwerk PRX hooks.json',
  };
}
