// Shared by the demo hooks: the hook input Cursor (or hookwerk) writes to stdin, as JSON.
import { readFileSync } from 'node:fs';

export function readInput() {
  const text = readFileSync(0, 'utf8');
  return text.trim() === '' ? {} : JSON.parse(text);
}

/** Cursor reads only JSON printed with exit 0: every path prints one object. */
export function answer(output) {
  process.stdout.write(`${JSON.stringify(output)}\n`);
}
