/** Where the trust store lives (its own small file: `hookwerk hook`'s fast path stats it on every call). */
import path from 'node:path';

/** `<home>/.lurus` */
export function lurusDir(base: string): string {
  return path.join(base, '.lurus');
}

export function trustStorePath(home: string): string {
  return path.join(lurusDir(home), 'trust.json');
}
