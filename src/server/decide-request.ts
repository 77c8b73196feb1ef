/**
 * (issue 23) What a `POST /api/decide` body asks: which dialect (the body's `dialect`, else the
 * server's default), the event, and the object the dialect's hooks get — Lurus's `context`, or an
 * agent dialect's `input` (that agent's own input object). The other field is refused by name, so
 * a claude request sent with `context` is told what to send instead of being decided on `{}`.
 */
import type { GateDialect } from '../dialects/gate-dialects.ts';
import { GATE_DIALECT_NAMES } from '../dialects/gate-dialects.ts';
import type { DecideBody, FieldIssue, Parsed } from './bodies.ts';
import { isGateDialect } from './dialect-engines.ts';

export interface DecideRequest {
  dialect: GateDialect;
  event: string;
  /** The Lurus context or the agent's input; `{}` when the body gives none. */
  input: unknown;
  /** The body's name of it: `context` or `input`. */
  field: 'context' | 'input';
}

export function decideRequest(body: DecideBody, defaultDialect: GateDialect): Parsed<DecideRequest> {
  const fail = (path: string, message: string): Parsed<DecideRequest> => ({
    ok: false,
    issues: [{ path, message } satisfies FieldIssue],
  });
  const dialect = body.dialect ?? defaultDialect;
  if (!isGateDialect(dialect))
    return fail(
      'dialect',
      `unknown dialect ${JSON.stringify(dialect)} (one of ${GATE_DIALECT_NAMES.join(', ')})`,
    );
  if (dialect === 'lurus') {
    if (body.input !== undefined)
      return fail('input', 'the lurus dialect takes "context" (the Lurus context), not "input"');
    return { ok: true, value: { dialect, event: body.event, input: body.context ?? {}, field: 'context' } };
  }
  if (body.context !== undefined)
    return fail('context', `the ${dialect} dialect takes "input" (the agent's input object), not "context"`);
  const input = body.input ?? {};
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail('input', "input must be an object (the agent's input for the event)");
  return { ok: true, value: { dialect, event: body.event, input, field: 'input' } };
}
