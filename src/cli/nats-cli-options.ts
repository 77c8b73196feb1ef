import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { errorCode } from '../core/errno.ts';
import type { NatsSecurity } from '../nats/nats-options.ts';
import { CliError } from './cli-error.ts';

/** [N-SEC-1] The connection flags every command with `--nats` takes, as commander hands them over. */
export interface NatsSecurityFlags {
  natsCreds?: string;
  natsNkey?: string;
  natsUser?: string;
  natsPasswordFile?: string;
  natsTokenFile?: string;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  natsInboxPrefix?: string;
}

/**
 * [N-SEC-1] Declares the credential and TLS flags on a command that takes `--nats`. Secrets come
 * from files only: a command line is readable by every user of the machine (`ps`,
 * `/proc/<pid>/cmdline`), so there is no `--nats-password`. (A password in the `--nats` URL
 * works, and is just as visible there.)
 */
export function withNatsSecurityFlags(command: Command): Command {
  return command
    .option('--nats-creds <file>', 'NATS .creds file (user JWT + NKey seed; servers in operator mode)')
    .option('--nats-nkey <file>', 'file holding an NKey user seed (SU…)')
    .option('--nats-user <name>', 'NATS user (with --nats-password-file)')
    .option('--nats-password-file <file>', "file holding the NATS user's password")
    .option('--nats-token-file <file>', 'file holding a NATS token')
    .option(
      '--tls-ca <file>',
      "CA certificate the NATS server's certificate is checked against (implies TLS)",
    )
    .option('--tls-cert <file>', 'client certificate for NATS servers that verify clients (with --tls-key)')
    .option('--tls-key <file>', 'private key of --tls-cert')
    .option(
      '--nats-inbox-prefix <prefix>',
      'subject prefix of reply inboxes (default _INBOX), as the server permits',
    );
}

/** The NATS security options the flags give (files read here; their content never printed). */
export function natsSecurityFromFlags(flags: NatsSecurityFlags): NatsSecurity {
  if ((flags.natsUser === undefined) !== (flags.natsPasswordFile === undefined))
    throw new CliError('--nats-user and --nats-password-file go together');
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined))
    throw new CliError('--tls-cert and --tls-key go together');
  const out: NatsSecurity = {};
  if (flags.natsUser !== undefined) out.user = flags.natsUser;
  if (flags.natsPasswordFile !== undefined)
    out.pass = secretFile('--nats-password-file', flags.natsPasswordFile);
  if (flags.natsTokenFile !== undefined) out.token = secretFile('--nats-token-file', flags.natsTokenFile);
  if (flags.natsNkey !== undefined) out.nkeySeedFile = flags.natsNkey;
  if (flags.natsCreds !== undefined) out.credsFile = flags.natsCreds;
  if (flags.tlsCa !== undefined || flags.tlsCert !== undefined) {
    out.tls = {
      ...(flags.tlsCa !== undefined ? { caFile: flags.tlsCa } : {}),
      ...(flags.tlsCert !== undefined ? { certFile: flags.tlsCert } : {}),
      ...(flags.tlsKey !== undefined ? { keyFile: flags.tlsKey } : {}),
    };
  }
  if (flags.natsInboxPrefix !== undefined) out.inboxPrefix = flags.natsInboxPrefix;
  return out;
}

const FLAG_KEYS = [
  'natsCreds',
  'natsNkey',
  'natsUser',
  'natsPasswordFile',
  'natsTokenFile',
  'tlsCa',
  'tlsCert',
  'tlsKey',
  'natsInboxPrefix',
] as const satisfies ReadonlyArray<keyof NatsSecurityFlags>;

/** True when any of the flags was given (they mean nothing without `--nats`). */
export function anyNatsSecurityFlag(flags: NatsSecurityFlags): boolean {
  return FLAG_KEYS.some((k) => flags[k] !== undefined);
}

/** A secret from a file: its text without the line break editors and `echo` put at the end. */
function secretFile(flag: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${flag}: cannot read ${file} (${errorCode(err) ?? 'error'})`);
  }
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw new CliError(`${flag}: ${file} is empty`);
  return secret;
}
