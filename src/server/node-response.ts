import { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * The node:http response under a request served by @hono/node-server (`c.env.outgoing`), or
 * undefined elsewhere (`app.request()` in tests). Needed to cut a connection at once: a Web
 * `Response` can only end when its client reads.
 */
export function nodeResponseOf(c: Context): ServerResponse | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null) return undefined;
  const outgoing: unknown = Reflect.get(env, 'outgoing');
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}
