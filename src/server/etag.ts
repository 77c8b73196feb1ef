import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Parsed } from './bodies.ts';

/**
 * Strong ETags for the hooks API (issue 11: lost updates). An ETag is the SHA-256 of the exact
 * JSON body a GET answers (the list's or one hook's), base64url, quoted: equal ETags mean
 * byte-equal answers, which is what "strong" promises.
 */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url')}"`;
}

/** `*`, or the entity tags a client sent (weak ones kept as `W/"…"`: they never match strongly). */
export type IfMatch = '*' | readonly string[];

// RFC 9110 entity-tag: optional W/, then a quoted run of etagc (no `"`, no controls, no space).
const TAG = String.raw`(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"`;
const LIST = new RegExp(String.raw`^\s*(?:\*|${TAG}(?:\s*,\s*${TAG})*)\s*$`);

/** The `If-Match` header; anything but `*` or a list of quoted tags is a 400, not a silent miss. */
const ifMatchSchema = z
  .string()
  .regex(LIST, 'must be * or a comma-separated list of "quoted" ETags')
  .transform(
    (s): IfMatch => (s.trim() === '*' ? '*' : [...s.matchAll(new RegExp(TAG, 'g'))].map((m) => m[0])),
  );

/** Strong comparison [RFC 9110 §8.8.3.2]: `*` matches anything that exists; W/ tags never match. */
export function ifMatchAllows(cond: IfMatch, current: readonly string[]): boolean {
  if (cond === '*') return true;
  return cond.some((tag) => current.includes(tag));
}

/** The request's `If-Match`, checked: undefined when absent (the write is unconditional, as before). */
export function readIfMatch(c: Context): Parsed<IfMatch | undefined> {
  const header = c.req.header('if-match');
  if (header === undefined) return { ok: true, value: undefined };
  const parsed = ifMatchSchema.safeParse(header);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, issues: [{ path: 'If-Match', message: parsed.error.issues[0]?.message ?? 'invalid' }] };
}

/** Answers `body` as JSON with `etag`, the ETag of the hook (or list) it shows. */
export function withEtag(c: Context, etag: string, body: object, status: 200 | 201 = 200): Response {
  c.header('ETag', etag);
  return c.json(body, status);
}
