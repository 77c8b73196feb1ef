/**
 * [F-BUN-1] A policy bundle: one JSON file holding a policy's text, its test files' texts
 * (`hookwerk test`, G-TEST-1), a monotonic version, a creation time, the SHA-256 of all of that,
 * and — once signed — an Ed25519 signature over the same bytes. The bytes hashed and signed are
 * a fixed serialisation of the content (`contentBytes`), never the file as written, so that
 * re-indenting the file or reordering its keys changes nothing, and adding the signature does not
 * change what it signs.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The `format` of every bundle this version writes and reads. */
export const BUNDLE_FORMAT = 'hookwerk-bundle/1';

/** A version is a positive whole number that JSON and JavaScript both hold exactly. */
export const versionSchema = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be 1 or more')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');

const testFileSchema = z.strictObject({
  /** The file's name, no folder: what `hookwerk test` prints before a failing case. */
  name: z
    .string()
    .min(1)
    .regex(/^[^/\\]+\.json$/, 'must be a file name ending in .json, without a folder'),
  text: z.string(),
});

const signatureSchema = z.strictObject({
  alg: z.literal('ed25519'),
  /** `keyIdOf` the public key: says which key signed, so "wrong key" can be told apart. */
  keyId: z.string().regex(/^[0-9a-f]{16}$/, 'must be 16 hex digits'),
  /** Base64 of the 64-byte signature. */
  value: z.string().regex(/^[A-Za-z0-9+/]+=*$/, 'must be base64'),
});

export const bundleSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT, { error: `must be "${BUNDLE_FORMAT}"` }),
  version: versionSchema,
  createdAt: z.iso.datetime({ error: 'must be an ISO time' }),
  policy: z.string(),
  tests: z.array(testFileSchema),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits'),
  signature: signatureSchema.optional(),
});

export type Bundle = z.infer<typeof bundleSchema>;
export type BundleTestFile = Bundle['tests'][number];
export type BundleContent = Omit<Bundle, 'sha256' | 'signature'>;

/** The bytes hashed and signed: the content in a fixed order, whatever the file's layout. */
export function contentBytes(b: BundleContent): Buffer {
  return Buffer.from(
    JSON.stringify([b.format, b.version, b.createdAt, b.policy, b.tests.map((t) => [t.name, t.text])]),
    'utf8',
  );
}

export function contentHash(b: BundleContent): string {
  return createHash('sha256').update(contentBytes(b)).digest('hex');
}

/** A new, unsigned bundle. */
export function newBundle(content: Omit<BundleContent, 'format'>): Bundle {
  const full: BundleContent = { format: BUNDLE_FORMAT, ...content };
  return { ...full, sha256: contentHash(full) };
}

/** The bundle file's text: what `bundle`, `sign` and the daemon's store write. */
export function bundleText(b: Bundle): string {
  return `${JSON.stringify(b, null, 2)}\n`;
}
