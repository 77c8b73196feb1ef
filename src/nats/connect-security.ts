import { readFileSync } from 'node:fs';
import {
  type Authenticator,
  credsAuthenticator,
  nkeyAuthenticator,
  nkeys,
  type TlsOptions,
  tokenAuthenticator,
  usernamePasswordAuthenticator,
} from '@nats-io/transport-node';
import { errorCode } from '../core/errno.ts';
import { InvalidOptionError } from '../core/errors.ts';
import type { NatsSecurity } from './nats-options.ts';
import type { ServerUrls } from './server-urls.ts';

/** What `connect()` gets besides the servers: who we are, and how the link is encrypted. */
interface ConnectSecurity {
  /** Who we claim to be, for messages: `user agent`, `a token`, `NKey U…` — never a secret. */
  identity: string;
  authenticator?: Authenticator;
  tls?: TlsOptions;
  inboxPrefix?: string;
}

/**
 * [N-SEC-1] The options' credentials (or the URLs'), files read now so that a missing or bad
 * file fails the start with its path named, never later on a reconnect. Errors name the option
 * and the file, never a file's content. Credentials both in a URL and in the options are refused:
 * which one would win is a guess nobody should have to make.
 */
export function connectSecurity(opts: NatsSecurity, urls: ServerUrls): ConnectSecurity {
  const out: ConnectSecurity = { identity: 'no credentials' };
  const fromOptions = opts.user ?? opts.token ?? opts.nkeySeedFile ?? opts.credsFile;
  if (urls.credentials !== undefined && fromOptions !== undefined)
    throw new InvalidOptionError(
      `invalid option nats.servers: ${urls.shown} carries credentials, and the options give some too; give them once`,
    );
  const url = urls.credentials;
  if (url !== undefined && 'token' in url) {
    out.authenticator = tokenAuthenticator(url.token);
    out.identity = 'a token';
  } else if (url !== undefined) {
    out.authenticator = usernamePasswordAuthenticator(url.user, url.pass);
    out.identity = `user ${url.user}`;
  } else if (opts.user !== undefined) {
    out.authenticator = usernamePasswordAuthenticator(opts.user, opts.pass ?? '');
    out.identity = `user ${opts.user}`;
  } else if (opts.token !== undefined) {
    out.authenticator = tokenAuthenticator(opts.token);
    out.identity = 'a token';
  } else if (opts.nkeySeedFile !== undefined) {
    const seed = readSeed('nats.nkeySeedFile', opts.nkeySeedFile);
    out.authenticator = nkeyAuthenticator(seed);
    // The public key: what the server's config lists, so the reader can match them.
    out.identity = `NKey ${nkeys.fromSeed(seed).getPublicKey()}`;
  } else if (opts.credsFile !== undefined) {
    out.authenticator = credsAuthenticator(readCreds('nats.credsFile', opts.credsFile));
    out.identity = `the credentials in ${opts.credsFile}`;
  }
  if (opts.tls !== undefined || urls.tlsRequired) {
    const tls: TlsOptions = {};
    const t = opts.tls ?? {};
    // Read here (not by the client at each connect): a bad path is a start-up error naming it.
    if (t.caFile !== undefined) tls.ca = readText('nats.tls.caFile', t.caFile);
    if (t.certFile !== undefined) tls.cert = readText('nats.tls.certFile', t.certFile);
    if (t.keyFile !== undefined) tls.key = readText('nats.tls.keyFile', t.keyFile);
    out.tls = tls;
  }
  if (opts.inboxPrefix !== undefined) out.inboxPrefix = opts.inboxPrefix;
  return out;
}

/** An NKey user seed (`SU…`, surrounding whitespace ignored), checked before it is used. */
function readSeed(option: string, file: string): Uint8Array {
  const seed = new TextEncoder().encode(readText(option, file).trim());
  try {
    if (!nkeys.fromSeed(seed).getPublicKey().startsWith('U')) throw new Error('not a user seed');
  } catch {
    throw new InvalidOptionError(`invalid option ${option}: ${file} does not hold an NKey user seed (SU…)`);
  }
  return seed;
}

/** A `.creds` file: a user JWT and its NKey seed between the usual `-----BEGIN …-----` lines. */
function readCreds(option: string, file: string): Uint8Array {
  const creds = new TextEncoder().encode(readText(option, file));
  try {
    // Parses the file and derives the public key: what the client does at each connect.
    credsAuthenticator(creds)('');
  } catch {
    throw new InvalidOptionError(
      `invalid option ${option}: ${file} is not a .creds file (a user JWT and an NKey seed)`,
    );
  }
  return creds;
}

function readText(option: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new InvalidOptionError(
      `invalid option ${option}: cannot read ${file} (${errorCode(err) ?? 'error'})`,
    );
  }
}
