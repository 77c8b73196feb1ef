/**
 * The shipped secure server config (examples/nats-secure/server.conf) started for the fleet tests
 * [F-SEC-1]: each role's password made up for this run, and the CLI arguments that log in as the
 * publisher, daemon or audit reader (password from a 0600 file, the role's own inbox prefix).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './cli-runner.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const SECURE_CONF = path.join(REPO, 'examples', 'nats-secure', 'server.conf');
const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;

export type FleetRole = 'publisher' | 'daemon' | 'audit';

export interface SecureFleetServer {
  server: NatsServer;
  password(role: FleetRole): string;
  /** `--nats-user`, `--nats-password-file`, `--nats-inbox-prefix` for `role`. */
  cliArgs(role: FleetRole): string[];
}

/** Starts the server; `dir` holds the password files (the caller removes it). */
export async function startSecureFleetServer(dir: string): Promise<SecureFleetServer> {
  const passwords: Record<FleetRole, string> = {
    publisher: secret('publisher-pw'),
    daemon: secret('daemon-pw'),
    audit: secret('audit-pw'),
  };
  const server = await startNatsServer({
    configFile: SECURE_CONF,
    env: {
      HOOKWERK_AGENT_PASSWORD: secret('agent-pw'),
      HOOKWERK_WORKER_PASSWORD: secret('worker-pw'),
      HOOKWERK_OBSERVER_PASSWORD: secret('observer-pw'),
      HOOKWERK_GATE_NKEY: 'UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4',
      HOOKWERK_PUBLISHER_PASSWORD: passwords.publisher,
      HOOKWERK_DAEMON_PASSWORD: passwords.daemon,
      HOOKWERK_AUDIT_PASSWORD: passwords.audit,
    },
  });
  return {
    server,
    password: (role) => passwords[role],
    cliArgs: (role) => {
      const file = path.join(dir, `${role}.pw`);
      writeFileSync(file, `${passwords[role]}\n`, { mode: 0o600 });
      return ['--nats-user', role, '--nats-password-file', file, '--nats-inbox-prefix', `_INBOX_${role}`];
    },
  };
}
