/**
 * [F-BUN-2] The daemon's fleet flags as commander declares them: kept apart from
 * `daemon-fleet.ts` so that main.ts declares them without loading the fleet's code.
 */
import type { Command } from 'commander';
import { type NatsSecurityFlags, withNatsSecurityFlags } from './nats-cli-options.ts';

export interface FleetCliOptions extends NatsSecurityFlags {
  fleet?: string;
  group?: string;
  trustKey?: string[];
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function withFleetOptions(command: Command): Command {
  return withNatsSecurityFlags(
    command
      .option('--fleet <url>', 'follow the team policy published to this NATS server (docs/team.md)')
      .option(
        '--group <name>',
        'with --fleet: the group whose bundles this machine takes (default "default")',
      )
      .option(
        '--trust-key <pub>',
        'with --fleet: a public key whose signed bundles are applied (repeatable)',
        collect,
        [],
      ),
  );
}
