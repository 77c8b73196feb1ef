/**
 * A NATS server in operator (JWT) mode for tests [N-SEC-1]: an operator, one account and one
 * user, their JWTs signed here with fresh NKeys (no `nsc` needed), the user's `.creds` file,
 * and the server config that trusts the operator and preloads the account. Not a test file.
 *
 * A NATS JWT is `base64url(header).base64url(claims).base64url(ed25519 signature)`, the header
 * `{"typ":"JWT","alg":"ed25519-nkey"}`, signed by the issuer's NKey: the operator signs itself
 * and the account, the account signs the user.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { nkeys } from '@nats-io/transport-node';

type KeyPair = ReturnType<typeof nkeys.createUser>;

const HEADER = base64url(JSON.stringify({ typ: 'JWT', alg: 'ed25519-nkey' }));
/** -1: no limit (a JWT without them would mean zero connections, subscriptions, bytes). */
const ACCOUNT_LIMITS = {
  subs: -1,
  data: -1,
  payload: -1,
  imports: -1,
  exports: -1,
  wildcards: true,
  conn: -1,
  leaf: -1,
};
const USER_LIMITS = { subs: -1, data: -1, payload: -1 };

export interface OperatorSetup {
  /** The server config: `operator`, a memory resolver with the account preloaded. */
  configFile: string;
  /** The user's `.creds` file (its JWT and its NKey seed). */
  credsFile: string;
}

/** Writes an operator, an account and a user (allowed everything) into `dir`. */
export function writeOperatorSetup(dir: string): OperatorSetup {
  const operator = nkeys.createOperator();
  const account = nkeys.createAccount();
  const user = nkeys.createUser();
  const operatorJwt = sign(operator, operator.getPublicKey(), 'hookwerk-test', { type: 'operator' });
  const accountJwt = sign(operator, account.getPublicKey(), 'HOOKWERK', {
    type: 'account',
    limits: ACCOUNT_LIMITS,
  });
  const userJwt = sign(account, user.getPublicKey(), 'worker', {
    type: 'user',
    pub: {},
    sub: {},
    ...USER_LIMITS,
  });
  const operatorFile = path.join(dir, 'operator.jwt');
  writeFileSync(operatorFile, operatorJwt);
  const configFile = path.join(dir, 'operator.conf');
  writeFileSync(
    configFile,
    `operator: "${operatorFile}"\nresolver: MEMORY\nresolver_preload: {\n  ${account.getPublicKey()}: "${accountJwt}"\n}\n`,
  );
  const credsFile = path.join(dir, 'worker.creds');
  const seed = new TextDecoder().decode(user.getSeed());
  writeFileSync(
    credsFile,
    `-----BEGIN NATS USER JWT-----\n${userJwt}\n------END NATS USER JWT------\n\n` +
      `-----BEGIN USER NKEY SEED-----\n${seed}\n------END USER NKEY SEED------\n`,
    { mode: 0o600 },
  );
  return { configFile, credsFile };
}

/** A JWT about `subject`, issued (signed) by `issuer`; `jti` is a hash of the claims, as nsc makes it. */
function sign(issuer: KeyPair, subject: string, name: string, nats: Record<string, unknown>): string {
  const claims: Record<string, unknown> = {
    iat: Math.floor(Date.now() / 1000),
    iss: issuer.getPublicKey(),
    name,
    sub: subject,
    nats: { ...nats, version: 2 },
  };
  claims.jti = base32(createHash('sha256').update(JSON.stringify(claims)).digest());
  const body = base64url(JSON.stringify(claims));
  const signature = issuer.sign(new TextEncoder().encode(`${HEADER}.${body}`));
  return `${HEADER}.${body}.${base64url(signature)}`;
}

function base64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString('base64url');
}

/** RFC 4648 base32, no padding. */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
