/**
 * Load-time checks for HTTP hook definitions ([L-RUN-5]). Each returns one-line reasons, meant to
 * be shown by `validate` and the loader as they are; an empty list / `undefined` means acceptable.
 */
import type { HttpMethod } from './http-types.ts';

/**
 * Headers that carry credentials. A hooks file is checked into a project and shown for review, so
 * secrets don't belong in it ([L-RUN-5]). Compared case-insensitively: the four names of the
 * SPEC by name, every other by what its name says (issue 11): `X-Auth-Token`, `Api-Key`,
 * `X-Goog-Api-Key`, `Private-Token`, `X-Amz-Security-Token`, `X-Client-Secret`…
 */
const FORBIDDEN_HEADERS: ReadonlyMap<string, string> = new Map(
  ['Authorization', 'Cookie', 'Proxy-Authorization', 'X-API-Key'].map((name) => [name.toLowerCase(), name]),
);

/**
 * Words that mark a header name as a credential. `auth` covers Authorization, X-Auth-*, OAuth;
 * `key` only with api/access/private before it (`Idempotency-Key` and `X-Routing-Key` are fine).
 */
const CREDENTIAL_WORD = /auth|token|secret|passw(or)?d|credential|cookie|jwt|(api|access|private)[-_]?key/i;

/** Why `name` (a valid header name) carries credentials, or `undefined`. */
function credentialHeader(name: string): string | undefined {
  const listed = FORBIDDEN_HEADERS.get(name.toLowerCase());
  if (listed !== undefined) return `${listed} carries credentials`;
  const word = CREDENTIAL_WORD.exec(name);
  return word === null ? undefined : `a name with "${word[0]}" carries credentials`;
}

/** Headers the HTTP client manages itself (framing, connection); undici refuses them at run time. */
const CLIENT_MANAGED = new Set([
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'expect',
  'keep-alive',
  'host',
]);

/** RFC 9110 §5.6.2 `token`: the characters a header name may contain. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters other than HTAB (RFC 9110 §5.5), and anything a header can't carry (beyond Latin-1). */
const BAD_VALUE_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|[^\x00-\xff]/;
const CR_OR_LF = /[\r\n]/;

const METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];

/**
 * Problems with a hook's `headers`, one line each, in the order found (empty when fine):
 * credential headers (`Authorization`, `Cookie`, `Proxy-Authorization`, `X-API-Key`, and any name
 * with auth, token, secret, password, credential, cookie, jwt, api-key… in it; any case),
 * CR or LF in a name or value (header injection), names that are not HTTP tokens, other control
 * characters in a value, and the same name given twice in different case.
 */
export function headerProblems(
  headers: Readonly<Record<string, string>>,
  opts: {
    /**
     * Claude Code's dialect: a credential header is fine when its value takes the secret from an
     * environment variable (`Bearer $TOKEN` with TOKEN in `allowedEnvVars`), not from the file.
     */
    credentialFromEnv?: (value: string) => boolean;
  } = {},
): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const shown = JSON.stringify(name);
    const lower = name.toLowerCase();
    if (CR_OR_LF.test(name)) {
      problems.push(`header name ${shown} contains CR or LF`);
    } else if (!TOKEN.test(name)) {
      problems.push(`header name ${shown} is not a valid HTTP header name`);
    } else {
      const credential = credentialHeader(name);
      const fromEnv = typeof value === 'string' && opts.credentialFromEnv?.(value) === true;
      if (credential !== undefined && !fromEnv) {
        problems.push(`header ${shown} is not allowed: ${credential}, which don't belong in a hooks file`);
      }
      if (CLIENT_MANAGED.has(lower)) {
        problems.push(`header ${shown} is managed by the HTTP client and cannot be set by a hook`);
      }
      const previous = seen.get(lower);
      if (previous !== undefined) {
        problems.push(`header ${shown} repeats ${JSON.stringify(previous)} (header names ignore case)`);
      } else {
        seen.set(lower, name);
      }
    }
    if (typeof value !== 'string') {
      problems.push(`header ${shown} must have a string value`);
    } else if (CR_OR_LF.test(value)) {
      problems.push(`header ${shown} has CR or LF in its value`);
    } else if (BAD_VALUE_CHAR.test(value)) {
      problems.push(`header ${shown} has a control or non-Latin-1 character in its value`);
    }
  }
  return problems;
}

/**
 * The method in its canonical form, or `undefined` when it is not allowed. POST, PUT and PATCH
 * are accepted in any letter case (`post`, `Put`) and normalized to upper case: HTTP methods are
 * case-sensitive on the wire, but a hooks file saying `"post"` plainly means POST.
 */
export function normalizeMethod(method: string): HttpMethod | undefined {
  const upper = method.toUpperCase();
  return METHODS.find((m) => m === upper);
}

/** Why `method` is refused, or `undefined` when it is POST, PUT or PATCH (any case, see `normalizeMethod`). */
export function methodProblem(method: string): string | undefined {
  if (typeof method === 'string' && normalizeMethod(method) !== undefined) return undefined;
  return `method ${JSON.stringify(method)} is not allowed (POST, PUT or PATCH)`;
}

/**
 * Why `url` is refused, or `undefined`: it must be an absolute `http:` or `https:` URL without
 * credentials (`user:pass@host`), since those would be secrets checked into a file.
 */
export function urlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `URL ${JSON.stringify(url)} is not a valid absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `URL scheme ${parsed.protocol} is not allowed (http: or https: only)`;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // Don't echo the URL: it holds the secret.
    return `URL for ${parsed.host} contains credentials (user:password@); they don't belong in a hooks file`;
  }
  return undefined;
}
