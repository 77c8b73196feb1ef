/**
 * [F-BUN-1, F-BUN-2] The `hookwerk policy …` commands as commander declares them, kept out of
 * main.ts: each action loads its module on use (`publish` alone loads NATS).
 */
import type { Command } from 'commander';
import { withNatsSecurityFlags } from './nats-cli-options.ts';

type Say = (line: string) => void;
type SetExit = (code: number) => void;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function addPolicyCommand(program: Command, setExit: SetExit, out: Say, err: Say): void {
  const policy = program
    .command('policy')
    .description('signed policy bundles for a team: bundle, keygen, sign, verify, publish (docs/team.md)');
  policy
    .command('bundle')
    .description('make a bundle: the policy, its test files, a version and the SHA-256 of all of them')
    .requiredOption('--policy <file>', 'the policy file')
    .option('--tests <dir>', 'its test files (default: the tests/ folder beside the policy)')
    .option('--version <n>', "the bundle's version (default: the previous bundle's + 1, else 1)")
    .requiredOption('-o, --output <bundle>', 'the bundle file to write')
    .action(async (opts) => {
      const { policyBundleCommand } = await import('./policy.ts');
      setExit(policyBundleCommand(opts, out));
    });
  policy
    .command('keygen')
    .description('write an Ed25519 key pair: PREFIX.key (secret, 0600) and PREFIX.pub')
    .requiredOption('-o, --output <prefix>', 'the files PREFIX.key and PREFIX.pub')
    .action(async (opts) => {
      const { policyKeygenCommand } = await import('./policy.ts');
      setExit(policyKeygenCommand(opts, out));
    });
  policy
    .command('sign')
    .description('add the signature of KEY to the bundle file')
    .requiredOption('--key <file>', 'the private key (PREFIX.key)')
    .argument('<bundle>', 'the bundle file')
    .action(async (file: string, opts) => {
      const { policySignCommand } = await import('./policy.ts');
      setExit(policySignCommand(opts, file, out));
    });
  policy
    .command('verify')
    .description('exit 0 when a trusted key signed the unchanged bundle, else 1 with the reason')
    .requiredOption('--pub <file>', 'a trusted public key (PREFIX.pub; repeatable)', collect, [])
    .argument('<bundle>', 'the bundle file')
    .action(async (file: string, opts) => {
      const { policyVerifyCommand } = await import('./policy.ts');
      setExit(policyVerifyCommand(opts, file, out));
    });
  withNatsSecurityFlags(
    policy
      .command('publish')
      .description('put a signed bundle in the JetStream key-value bucket hookwerk-policy (key: the group)')
      .requiredOption('--nats <url>', 'NATS server URL')
      .option('--group <name>', 'the group of daemons it is for', 'default')
      .argument('<bundle>', 'the signed bundle file'),
  ).action(async (file: string, opts) => {
    const { policyPublishCommand } = await import('./policy-publish.ts');
    setExit(await policyPublishCommand(opts, file, out, err));
  });
}
