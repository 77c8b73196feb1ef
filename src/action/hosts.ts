/**
 * [G-ACT-1] The hosts a call names: of `WebFetch` URLs, and of the URLs and remote specs of
 * `curl`, `wget`, `git clone|fetch|push|pull|ls-remote|remote add|submodule add`, `ssh`, `scp`
 * and `rsync` — lower-cased, without user, port or brackets.
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** `host:path`, `user@host:path` (scp, rsync, git over ssh): no `/` before the `:`. */
const REMOTE_SPEC = /^(?:[^@/\s]+@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9._-]*):/;
/** A scheme-less URL curl and wget accept: `example.com/x`, `example.com:8080`. */
const BARE_HOST =
  /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+|localhost)(?::\d+)?(?:[/?#]|$)/;

function clean(host: string): string | undefined {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === '' ? undefined : h;
}

/** The host of a URL with a scheme; undefined when `text` is none. */
export function hostOfUrl(text: string): string | undefined {
  if (!SCHEME.test(text)) return undefined;
  try {
    return clean(new URL(text).hostname);
  } catch {
    return undefined;
  }
}

/** The host of `[user@]host:path`; undefined for anything else (a local path, a URL). */
export function hostOfRemoteSpec(text: string): string | undefined {
  if (SCHEME.test(text) || text.startsWith('/') || text.startsWith('.')) return undefined;
  const m = REMOTE_SPEC.exec(text);
  return m?.[1] === undefined ? undefined : clean(m[1]);
}

/** What curl and wget take for a URL: one with a scheme, or a bare `host[:port][/…]`. */
export function hostOfFetchTarget(text: string): string | undefined {
  const url = hostOfUrl(text);
  if (url !== undefined) return url;
  const m = BARE_HOST.exec(text);
  return m?.[1] === undefined ? undefined : clean(m[1]);
}

/** `ssh [user@]host` (or `ssh://user@host:port`). */
export function hostOfSshTarget(text: string): string | undefined {
  const url = hostOfUrl(text);
  if (url !== undefined) return url;
  const at = text.lastIndexOf('@');
  const host = at >= 0 ? text.slice(at + 1) : text;
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(host) ? clean(host) : undefined;
}

/** A git remote given as a URL or `[user@]host:path`; a remote's name (`origin`) is no host. */
export function hostOfGitRemote(text: string): string | undefined {
  return hostOfUrl(text) ?? hostOfRemoteSpec(text);
}
