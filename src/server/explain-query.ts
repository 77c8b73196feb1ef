import { z } from 'zod';

/**
 * `GET /api/explain?event=E[&tool=T|&trigger=T]` (issue 13): the question `hookwerk explain` answers,
 * over HTTP for the dashboard's "why didn't it fire" panel. The event itself is checked by
 * `engine.explain()`, which knows the dialects; here only the shape.
 */
export const explainQuerySchema = z
  .strictObject({
    event: z.string({ error: 'event is required' }).min(1, 'event is required').max(64),
    tool: z.string().min(1).max(256).optional(),
    trigger: z.string().min(1).max(256).optional(),
  })
  .refine((q) => q.tool === undefined || q.trigger === undefined, {
    path: ['trigger'],
    message: 'give tool or trigger, not both',
  });
type ExplainQuery = z.output<typeof explainQuerySchema>;

/**
 * The context `explain()` matches against, as `/api/decide` would get it: Lurus reads `toolName`
 * or `trigger`, the Claude Code and Gemini CLI dialects `tool_name` (or the event's own field).
 */
export function explainTarget(q: ExplainQuery): Record<string, string> {
  if (q.tool !== undefined) return { toolName: q.tool, tool_name: q.tool };
  if (q.trigger !== undefined) return { trigger: q.trigger };
  return {};
}
