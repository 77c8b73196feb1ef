import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import { readSourceFile } from '../core/read-source.ts';

/**
 * The file still holds `original` (`undefined`: still missing): checked right before an atomic
 * rename, so an edit made meanwhile (the agent, an editor) is never overwritten.
 */
export function unchangedSince(file: string, original: string | undefined): boolean {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind === 'missing') return original === undefined;
  return read.kind === 'text' && read.text === original;
}
