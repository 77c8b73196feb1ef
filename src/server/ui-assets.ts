import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';

/**
 * The dashboard's built files (issue 13, [UI-1], [UI-2]): `vite build` writes them to `dist/ui/`.
 * From `dist/server/ui-assets.js` (the package) and from `src/server/ui-assets.ts` (tests run the
 * sources) alike, that is two folders up, then `dist/ui`.
 */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

/** Only these types are served: a file the build did not make for the page has no business here. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

// Path segments of plain names; none starts with a dot, so `..` and dotfiles can't be asked for.
const SAFE_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

// The page talks to its own origin only ([UI-2] no network at run time), and is never framed.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * Serves the dashboard without a token: `GET /` is its page, `GET /ui/…` its assets. The files
 * hold no secret (the page asks for the token and calls the API with it). Mount it before the
 * API's token check. Files are read per request, so a rebuild shows without a restart.
 */
export function mountUi(app: Hono, dir: string = DEFAULT_UI_DIR): void {
  app.get('/', async (c) => {
    const page = await readRegular(path.join(dir, 'index.html'));
    if (page === undefined) {
      // A checkout that was not built: say what to do instead of a bare 404 or a crash.
      return c.text(
        'hookwerk: the dashboard is not built (dist/ui/index.html is missing); run `npm run build`\n',
        503,
      );
    }
    return c.body(new Uint8Array(page), 200, { 'content-type': CONTENT_TYPES['.html']!, ...PAGE_HEADERS });
  });
  app.get('/ui/*', (c) => serveAsset(c, dir, c.req.path.slice('/ui/'.length)));
}

async function serveAsset(c: Context, dir: string, rel: string): Promise<Response> {
  const type = CONTENT_TYPES[path.extname(rel)];
  if (!SAFE_PATH.test(rel) || type === undefined) return notFound(c);
  const body = await readRegular(path.join(dir, rel));
  if (body === undefined) return notFound(c);
  return c.body(new Uint8Array(body), 200, {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    // Vite names built assets by content hash: a changed file is a new name.
    'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(type.startsWith('text/html') ? PAGE_HEADERS : {}),
  });
}

function notFound(c: Context): Response {
  return c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404);
}

/** The file's bytes if it is a regular file, else undefined (missing, a folder, unreadable). */
async function readRegular(file: string): Promise<Buffer | undefined> {
  try {
    if (!(await stat(file)).isFile()) return undefined;
    return await readFile(file);
  } catch {
    return undefined;
  }
}
