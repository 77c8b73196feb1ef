// The few text helpers the install steps (install-run.js, install-managed.js) build their
// one-line findings with: one copy, so both say a file, a model's words and an error the same way.
import { existsSync, readFileSync } from 'node:fs';

/** The file's text, or undefined when there is none. */
export function readOr(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** A clip to `max` characters: `s` cut there, an ellipsis saying it was. */
export function clipAt(max) {
  return (s) => (s.length > max ? `${s.slice(0, max)}…` : s);
}

/** The first line of `s` without the white space around it. */
export function firstLine(s) {
  return s.trim().split('\n')[0] ?? '';
}
