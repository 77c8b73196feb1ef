/**
 * `hookwerk policy bundle | keygen | sign | verify` [F-BUN-1]: thin shells over `src/fleet/`.
 * Each failure is one line — the file, then the reason — and exit 1 (`verify`: the reason is
 * unsigned, wrong key or content changed).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { bundleText } from '../fleet/bundle.ts';
import { BundleError, readBundleFile } from '../fleet/bundle-file.ts';
import {
  bundleRefusal,
  generateKeyPair,
  readPrivateKey,
  readPublicKey,
  signBundle,
} from '../fleet/bundle-keys.ts';
import { makeBundle } from '../fleet/bundle-make.ts';
import { CliError } from './cli-error.ts';

type Say = (line: string) => void;

/** `--version N`: a whole number from 1, else a one-line error. */
export function versionOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new CliError(`--version must be a whole number from 1, got ${JSON.stringify(text)}`);
  return n;
}

/** A BundleError as the one line `<file>: <reason>` (the reason may already start with a file). */
function bundleFailure(file: string, e: unknown): never {
  if (!(e instanceof BundleError)) throw e;
  throw new CliError(e.located ? e.message : `${file}: ${e.message}`);
}

export function policyBundleCommand(
  opts: { policy: string; tests?: string; version?: string; output: string },
  out: Say,
  cwd = process.cwd(),
): number {
  const output = path.resolve(cwd, opts.output);
  const version = versionOption(opts.version);
  try {
    const bundle = makeBundle({
      policy: path.resolve(cwd, opts.policy),
      ...(opts.tests !== undefined ? { tests: path.resolve(cwd, opts.tests) } : {}),
      ...(version !== undefined ? { version } : {}),
      output,
    });
    writeFileAtomic(output, bundleText(bundle));
    const cases = bundle.tests.length;
    out(
      `${opts.output}: version ${bundle.version}, sha256 ${bundle.sha256}, ${cases} test file${cases === 1 ? '' : 's'} (unsigned: hookwerk policy sign --key KEY ${opts.output})`,
    );
    return 0;
  } catch (e) {
    bundleFailure(output, e);
  }
}

export function policyKeygenCommand(opts: { output: string }, out: Say, cwd = process.cwd()): number {
  const prefix = path.resolve(cwd, opts.output);
  const [keyFile, pubFile] = [`${prefix}.key`, `${prefix}.pub`];
  // A signing key is never overwritten: the bundles it signed would no longer verify.
  for (const file of [keyFile, pubFile])
    if (existsSync(file)) throw new CliError(`${file}: already exists (not overwritten)`);
  const pair = generateKeyPair();
  writeFileAtomic(keyFile, pair.privatePem, { mode: 0o600 });
  writeFileAtomic(pubFile, pair.publicPem, { mode: 0o644 });
  out(
    `${opts.output}.key: the signing key (keep it secret); ${opts.output}.pub: give it to the daemons (--trust-key)`,
  );
  return 0;
}

export function policySignCommand(
  opts: { key: string },
  file: string,
  out: Say,
  cwd = process.cwd(),
): number {
  const bundleFile = path.resolve(cwd, file);
  try {
    const key = readPrivateKey(path.resolve(cwd, opts.key));
    const signed = signBundle(readBundleFile(bundleFile), key);
    writeFileAtomic(bundleFile, bundleText(signed));
    out(`${file}: version ${signed.version} signed with key ${signed.signature?.keyId ?? ''}`);
    return 0;
  } catch (e) {
    bundleFailure(bundleFile, e);
  }
}

export function policyVerifyCommand(
  opts: { pub: string[] },
  file: string,
  out: Say,
  cwd = process.cwd(),
): number {
  const bundleFile = path.resolve(cwd, file);
  try {
    const keys = opts.pub.map((p) => readPublicKey(path.resolve(cwd, p)));
    const bundle = readBundleFile(bundleFile);
    const refusal = bundleRefusal(bundle, keys);
    if (refusal !== undefined) throw new BundleError(refusal);
    out(
      `${file}: version ${bundle.version}, sha256 ${bundle.sha256}: signature valid (key ${bundle.signature?.keyId ?? ''})`,
    );
    return 0;
  } catch (e) {
    bundleFailure(bundleFile, e);
  }
}
