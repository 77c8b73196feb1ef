/**
 * [F-BUN-1] Ed25519 keys and signatures over a bundle's content, with Node's own crypto (no
 * dependency holds the trust). Keys are PEM files: `PREFIX.key` (PKCS#8, 0600) and `PREFIX.pub`
 * (SPKI). A key's id is the start of the SHA-256 of its public key: the bundle names the key that
 * signed it, so a verifier can say "signed by another key" rather than "content changed".
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { readSourceFile } from '../core/read-source.ts';
import { type Bundle, contentBytes, contentHash } from './bundle.ts';
import { BundleError } from './bundle-file.ts';

const MAX_KEY_BYTES = 16 * 1024;

export interface KeyPairPem {
  privatePem: string;
  publicPem: string;
}

export function generateKeyPair(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The 16 hex digits naming a public key. */
export function keyIdOf(pub: KeyObject): string {
  const der = pub.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

function keyText(file: string): string {
  const read = readSourceFile(file, MAX_KEY_BYTES);
  if (read.kind === 'missing') throw new BundleError('no such file', file);
  if (read.kind === 'refused') throw new BundleError(read.message, file);
  return read.text;
}

/** The Ed25519 private key in `file` (PEM). */
export function readPrivateKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(keyText(file));
  } catch (e) {
    if (e instanceof BundleError) throw e;
    throw new BundleError('not a private key (PEM, as policy keygen writes)', file);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new BundleError('not an Ed25519 key', file);
  return key;
}

/** The Ed25519 public key in `file` (PEM). */
export function readPublicKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(keyText(file));
  } catch (e) {
    if (e instanceof BundleError) throw e;
    throw new BundleError('not a public key (PEM, as policy keygen writes)', file);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new BundleError('not an Ed25519 key', file);
  // A private key given where the public one belongs yields its public half; that is fine to check with.
  return key.type === 'private' ? createPublicKey(key) : key;
}

/** `bundle` signed with `key`: its hash checked first (a bundle edited by hand is not signed). */
export function signBundle(bundle: Bundle, key: KeyObject): Bundle {
  if (contentHash(bundle) !== bundle.sha256)
    throw new BundleError('content changed since it was bundled (sha256 does not match): bundle it again');
  const value = sign(null, contentBytes(bundle), key).toString('base64');
  return { ...bundle, signature: { alg: 'ed25519', keyId: keyIdOf(createPublicKey(key)), value } };
}

/**
 * Why `bundle` must not be trusted with `keys`, in a few words; undefined when one of them signed
 * exactly this content.
 */
export function bundleRefusal(bundle: Bundle, keys: readonly KeyObject[]): string | undefined {
  const sig = bundle.signature;
  if (sig === undefined) return 'unsigned';
  if (contentHash(bundle) !== bundle.sha256) return 'content changed (sha256 does not match)';
  const key = keys.find((k) => keyIdOf(k) === sig.keyId);
  if (key === undefined) return `wrong key: signed by key ${sig.keyId}, which is not trusted`;
  const ok = verify(null, contentBytes(bundle), key, Buffer.from(sig.value, 'base64'));
  return ok ? undefined : 'content changed since it was signed (the signature does not match)';
}
