// Shared by the demo hooks: the hook input Codex CLI (or hookwerk) writes to stdin, as JSON.
import { readFileSync } from 'node:fs';

export function readInput() {
  const text = readFileSync(0, 'utf8');
  return text.trim() === '' ? {} : JSON.parse(text);
}
