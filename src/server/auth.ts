import { createHash, timingSafeEqual } from 'node:crypto';
import { InvalidOptionError } from '../core/errors.ts';

/**
 * [P-API-1] Bearer token check in constant time: both sides are hashed to 32 bytes first, so
 * neither the comparison nor an early length check leaks how much of a guess was right.
 */
export function tokenChecker(token: string): (authorization: string | undefined) => boolean {
  if (typeof token !== 'string' || token.length === 0)
    throw new InvalidOptionError('the API token must be a non-empty string');
  const expected = digest(token);
  return (authorization) => {
    if (authorization === undefined) return false;
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    // Hash something even without a token: the answer takes the same time either way.
    const given = digest(m?.[1] ?? '');
    return timingSafeEqual(given, expected) && m !== null;
  };
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}
