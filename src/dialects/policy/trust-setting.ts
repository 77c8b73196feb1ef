/**
 * [T-SELF-2] A policy file's `"trust": {"requireHuman": true}`: `hookwerk trust` then approves only
 * on a confirmation typed on a terminal, or with the user's trust token. Read from the user policy
 * (the managed policy may force it too, T-MGD-1: `requireHumanIn` takes any file's value); a
 * project policy's `trust` is never read — a project cannot loosen or tighten how it is approved.
 */
import { z } from 'zod';
import { MAX_SOURCE_BYTES } from '../../consent/project-surface.ts';
import { parseJsoncText } from '../../core/json-text.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import { readSourceFile } from '../../core/read-source.ts';

export const TRUST_SETTING = z.strictObject({ requireHuman: z.boolean().optional() });

/** `requireHuman` of a policy file's parsed value (false when the file says nothing). */
export function requireHumanIn(value: unknown): boolean {
  const trust = isPlainObject(value) ? value.trust : undefined;
  const parsed = TRUST_SETTING.safeParse(trust ?? {});
  // A `trust` value that does not read is an error of the file (strict.ts); here it asks for a person.
  return parsed.success ? parsed.data.requireHuman === true : true;
}

/**
 * What the policy file at `file` says: `false` when there is none; a file that exists but cannot
 * be read or parsed asks for a person (`problem` says why), never less.
 */
export function requireHumanOf(file: string): { required: boolean; problem?: string } {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind === 'missing') return { required: false };
  if (read.kind === 'refused') return { required: true, problem: read.message };
  const parsed = parseJsoncText(file, read.text);
  if (!parsed.ok) return { required: true, problem: `${file} does not parse` };
  return { required: requireHumanIn(parsed.value) };
}

/**
 * What the policy files that may say it (the user's; the managed one too, T-MGD-1: put it first
 * in `files`) say together: a person is needed when any of them asks for one.
 */
export function trustNeedsHuman(files: readonly string[]): { required: boolean; problem?: string } {
  for (const file of files) {
    const said = requireHumanOf(file);
    if (said.required) return said;
  }
  return { required: false };
}
