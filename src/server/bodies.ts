import { z } from 'zod';
import { fromZodIssues } from '../core/issues.ts';
import { prxActionSchema } from '../dialects/prx/schema.ts';
import { LURUS_EVENT_NAMES } from '../events/lurus-events.ts';
import { PRX_EVENT_NAMES, type PrxEventName } from '../events/prx-events.ts';
import { RUN_OUTCOMES, type RunOutcome } from '../records/run-record.ts';

/** One problem in a request: the field (`action.env.HOME`) and why. */
export interface FieldIssue {
  path: string;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

const eventName = z.enum(PRX_EVENT_NAMES as [PrxEventName, ...PrxEventName[]], {
  error: `event must be one of ${PRX_EVENT_NAMES.join(', ')}`,
});

/**
 * [P-API-2] `{event, action, enabled}`. `action` is the very schema of a hooks.json action
 * ([P-CFG-2], [P-SEC-2..4]) minus the fields the API manages itself.
 */
export const hookBodySchema = z.strictObject({
  event: eventName,
  action: prxActionSchema.omit({ id: true, enabled: true, created_at: true, updated_at: true }),
  enabled: z.boolean().optional(),
});
export type HookBody = z.output<typeof hookBodySchema>;

/** [P-API-4] `POST /api/events`; the payload itself is checked by `emit()` [P-EV-3]. */
export const eventBodySchema = z.strictObject({
  event: z.string(),
  session_id: z
    .string()
    .min(1)
    .max(256)
    // Issue 11: it becomes ZERO_HOOK_SESSION; a NUL byte would fail every hook at spawn.
    .refine((s) => !s.includes('\0'), 'session_id contains a NUL byte')
    .optional(),
  payload: z.unknown().optional(),
});

/**
 * [P-API-4] `POST /api/decide`: `{dialect?, event, context}` for Lurus, `{dialect, event, input}`
 * (the agent's input object) for the agent dialects (issue 23); see decide-request.ts. Event and
 * input are checked by `decide()`.
 */
export const decideBodySchema = z.strictObject({
  dialect: z.string().optional(),
  event: z.string(),
  context: z.unknown().optional(),
  input: z.unknown().optional(),
});
export type DecideBody = z.output<typeof decideBodySchema>;

/** (issue 23) `GET /api/decisions` query. */
export const decisionsQuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be at least 1').max(200, 'limit must be at most 200'))
    .optional(),
});

/** `GET /api/runs` query. */
export const runsQuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be at least 1').max(1000, 'limit must be at most 1000'))
    .optional(),
  outcome: z
    .enum(RUN_OUTCOMES as [RunOutcome, ...RunOutcome[]], {
      error: `outcome must be one of ${RUN_OUTCOMES.join(', ')}`,
    })
    .optional(),
  event: z
    .string()
    .refine((s) => [...PRX_EVENT_NAMES, ...LURUS_EVENT_NAMES].includes(s as never), {
      message: 'event must be a PRX or Lurus event name',
    })
    .optional(),
});

/** Validates with zod and turns every problem into `{path, message}` (unknown keys: one each, at the key). */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = fromZodIssues('', result.error.issues, (_parent, key) => `unknown field "${key}"`);
  return { ok: false, issues: issues.map((i) => ({ path: fieldPath(i.path), message: i.message })) };
}

/** `$.action.env.HOME` → `action.env.HOME`; the whole body is `(body)`. */
function fieldPath(p: string): string {
  if (p === '$') return '(body)';
  return p.startsWith('$.') ? p.slice(2) : p.slice(1);
}

/** The one-line summary of a 400: the first problem, and how many more. */
export function summarize(issues: readonly FieldIssue[]): string {
  const first = issues[0];
  if (first === undefined) return 'invalid request';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${first.path}: ${first.message}${more}`;
}
