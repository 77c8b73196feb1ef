/**
 * [N-SEC-1] No secret is ever printed: every URL in a text loses its password, or its token
 * (a user part without `:` — NATS reads `nats://TOKEN@host` as a token). The user name stays:
 * it says which credentials were used, which is what someone reading the message needs.
 *
 * Applied to whole messages (not only to URLs we build), so an error text that quotes a URL
 * from somewhere else is covered too.
 */
export function redactUrls(text: string): string {
  return text.replace(USERINFO, (_all, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon === -1 ? `${scheme}***@` : `${scheme}${userinfo.slice(0, colon)}:***@`;
  });
}

/** `scheme://userinfo@`: userinfo runs to the last `@` before the host (a password may hold `@`). */
const USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#]*)@/g;
