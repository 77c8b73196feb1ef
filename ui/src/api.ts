import type * as z from 'zod/mini';
import { errorAnswerSchema, type FieldIssue } from './schemas.ts';

export type ApiAnswer<T> =
  | { ok: true; value: T; etag: string | undefined }
  | { ok: false; status: number; error: string; issues: FieldIssue[] };

export interface CallOptions {
  body?: unknown;
  /** `If-Match`: the ETag this write was based on (the API answers 412 if it is stale). */
  ifMatch?: string | undefined;
}

/**
 * The management API with the token [P-API-1]. Every answer is validated with its schema; a 401
 * calls `onUnauthorized` (the token was rotated or is wrong), so the page asks for it again.
 */
export class Api {
  readonly token: string;
  readonly #onUnauthorized: () => void;

  constructor(token: string, onUnauthorized: () => void) {
    this.token = token;
    this.#onUnauthorized = onUnauthorized;
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  unauthorized(): void {
    this.#onUnauthorized();
  }

  async call<T>(
    method: string,
    path: string,
    schema: z.ZodMiniType<T>,
    opts: CallOptions = {},
  ): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { authorization: this.authorization };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.ifMatch !== undefined) headers['if-match'] = opts.ifMatch;
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers,
        cache: 'no-store',
        ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      });
    } catch (err) {
      return { ok: false, status: 0, error: `cannot reach hookwerk serve (${String(err)})`, issues: [] };
    }
    if (res.status === 401) this.#onUnauthorized();
    // 204 (DELETE) has no body: it reads as null.
    const text = await res.text();
    let json: unknown = null;
    if (text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        return { ok: false, status: res.status, error: `${res.status}: ${text.slice(0, 200)}`, issues: [] };
      }
    }
    if (!res.ok) {
      const err = errorAnswerSchema.safeParse(json);
      if (!err.success)
        return { ok: false, status: res.status, error: `${res.status} ${res.statusText}`, issues: [] };
      return { ok: false, status: res.status, error: err.data.error, issues: err.data.issues ?? [] };
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      return { ok: false, status: res.status, error: `unexpected answer from ${path}`, issues: [] };
    }
    return { ok: true, value: parsed.data, etag: res.headers.get('etag') ?? undefined };
  }
}
