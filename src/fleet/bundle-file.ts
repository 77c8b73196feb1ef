/**
 * [F-BUN-1] Reading a bundle from a file or from NATS: bounded (regular files only), JSON, then
 * zod — every failure one `BundleError` whose message is the reason, for a one-line
 * `<file>: <reason>` (the daemon shows it as its last refusal, F-BUN-2).
 */
import { HookwerkError } from '../core/errors.ts';
import { jsonPath } from '../core/issues.ts';
import { parseBoundedJson } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { type Bundle, bundleSchema } from './bundle.ts';

/** A bundle larger than this is refused (a policy and its tests; NATS' default max payload is 1 MiB). */
export const MAX_BUNDLE_BYTES = 1024 * 1024;

/** A bundle that cannot be used, and why, in one line. */
export class BundleError extends HookwerkError {
  /** The message names its own file (a key, the policy, a test file), not the bundle's. */
  readonly located: boolean;
  constructor(reason: string, file?: string) {
    super('CLI', file !== undefined ? `${file}: ${reason}` : reason);
    this.located = file !== undefined;
  }
}

/** A bundle's text, parsed and checked. */
export function parseBundle(text: string): Bundle {
  const json = parseBoundedJson(text);
  if (!json.ok)
    throw new BundleError(`not a bundle: invalid JSON (${json.tooDeep ? 'nested too deep' : json.why})`);
  const parsed = bundleSchema.safeParse(json.value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first !== undefined ? jsonPath(first.path) : '$';
    throw new BundleError(`not a bundle: ${where}: ${first?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** The bundle in `file`; a missing, unreadable or malformed file is a BundleError. */
export function readBundleFile(file: string): Bundle {
  const read = readSourceFile(file, MAX_BUNDLE_BYTES);
  if (read.kind === 'missing') throw new BundleError('no such file');
  if (read.kind === 'refused') throw new BundleError(read.message);
  return parseBundle(read.text);
}

/** `readBundleFile`, or undefined when the file does not exist (no previous bundle). */
export function readBundleIfAny(file: string): Bundle | undefined {
  const read = readSourceFile(file, MAX_BUNDLE_BYTES);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'refused') throw new BundleError(read.message);
  return parseBundle(read.text);
}
