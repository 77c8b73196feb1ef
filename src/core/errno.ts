/** Reading Node's errors without casts: the errno code, a test for one code, a one-line message. */

export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

export function isErrno(err: unknown, code: string): boolean {
  return errorCode(err) === code;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
