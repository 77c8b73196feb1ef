import { InvalidOptionError } from '../core/errors.ts';
import { redactUrls } from './redact-url.ts';

/** Credentials a server URL carried: `nats://user:pass@host` or `nats://token@host`. */
type UrlCredentials = { user: string; pass: string } | { token: string };

export interface ServerUrls {
  /** What the client dials: the URLs without their credentials. */
  readonly dial: string[];
  /** What messages show: the URLs as given, passwords and tokens hidden. */
  readonly shown: string;
  /** The credentials the URLs carried (all the same), if any. */
  readonly credentials: UrlCredentials | undefined;
  /** A `tls://` URL: the connection must be encrypted. */
  readonly tlsRequired: boolean;
}

/**
 * [N-SEC-1] Reads credentials out of server URLs (the NATS client ignores them, so the server
 * saw none: "Authorization Violation"). Percent-escapes are decoded (`p%40ss` is `p@ss`). All
 * URLs with credentials must carry the same ones: one connection has one identity.
 * A URL that does not parse is refused without being echoed (it may hold a password).
 */
export function readServerUrls(servers: readonly string[]): ServerUrls {
  const dial: string[] = [];
  const shown: string[] = [];
  let credentials: UrlCredentials | undefined;
  let tlsRequired = false;
  servers.forEach((given, i) => {
    const text = given.trim();
    const hasScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text);
    const full = hasScheme ? text : `nats://${text}`;
    let url: URL;
    try {
      url = new URL(full);
    } catch {
      throw new InvalidOptionError(
        `invalid option nats.servers${servers.length > 1 ? `[${i}]` : ''}: not a server URL`,
      );
    }
    if (url.protocol === 'tls:') tlsRequired = true;
    const found = urlCredentials(url, full);
    if (found !== undefined) {
      if (credentials !== undefined && !sameCredentials(credentials, found))
        throw new InvalidOptionError(
          `invalid option nats.servers: ${[...shown, redactUrls(full)].join(', ')} carry different credentials; one connection has one identity`,
        );
      credentials = found;
    }
    // With the scheme it implies: redactUrls only sees a URL's credentials after `scheme://`.
    shown.push(redactUrls(full));
    url.username = '';
    url.password = '';
    // Dial what was given, minus the credentials (no scheme added: the client takes host:port).
    dial.push(hasScheme ? url.toString().replace(/\/$/, '') : url.host);
  });
  return { dial, shown: shown.join(', '), credentials, tlsRequired };
}

function urlCredentials(url: URL, text: string): UrlCredentials | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const user = unescapeUserinfo(url.username);
  // `nats://secret@host` is a token (the NATS convention); `nats://user:@host` a user with an
  // empty password. The parsed URL drops an empty password, so the text tells them apart.
  const authority = (text.split('://')[1] ?? '').split(/[/?#]/)[0] ?? '';
  const userinfo = authority.slice(0, authority.lastIndexOf('@'));
  if (!userinfo.includes(':')) return { token: user };
  return { user, pass: unescapeUserinfo(url.password) };
}

function sameCredentials(a: UrlCredentials, b: UrlCredentials): boolean {
  if ('token' in a) return 'token' in b && a.token === b.token;
  return 'user' in b && a.user === b.user && a.pass === b.pass;
}

/** Percent-escapes decoded; a stray `%` (not an escape) stays as it is. */
function unescapeUserinfo(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
