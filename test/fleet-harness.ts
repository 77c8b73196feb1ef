/**
 * Shared by the fleet tests [F-BUN-2, F-SEC-1]: signing keys and bundles made with the library
 * (the CLI that makes them is tested in policy-bundle.test.ts), fleet daemons as real processes
 * in their own homes, and what `hookwerk hook` answers there. Not a test file.
 */
import { createPrivateKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { z } from 'zod';
import { type Bundle, bundleText, newBundle } from '../src/fleet/bundle.ts';
import { generateKeyPair, signBundle } from '../src/fleet/bundle-keys.ts';
import { claudeVerdict } from './claude-verdict.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import { runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

export interface KeyFiles {
  key: string;
  pub: string;
  privatePem: string;
}

export function keyFiles(dir: string, name: string): KeyFiles {
  const pair = generateKeyPair();
  const key = path.join(dir, `${name}.key`);
  const pub = path.join(dir, `${name}.pub`);
  writeFileSync(key, pair.privatePem, { mode: 0o600 });
  writeFileSync(pub, pair.publicPem);
  return { key, pub, privatePem: pair.privatePem };
}

/** A policy that denies Bash commands starting with `word` (a permission rule: no process to run). */
export function denying(word: string): string {
  return JSON.stringify({ permissions: { deny: [`Bash(${word} *)`] } });
}

/** A test file: `command` must get `expect` from the policy. */
export function testFile(name: string, command: string, expect: 'deny' | 'none') {
  return {
    name,
    text: JSON.stringify({
      cases: [
        { name: `${command} → ${expect}`, input: { tool_name: 'Bash', tool_input: { command } }, expect },
      ],
    }),
  };
}

export function bundle(version: number, policy: string, tests: Bundle['tests'] = []): Bundle {
  return newBundle({ version, createdAt: new Date().toISOString(), policy, tests });
}

export function signed(b: Bundle, keys: KeyFiles): Bundle {
  return signBundle(b, createPrivateKey(keys.privatePem));
}

export function writeBundle(dir: string, name: string, b: Bundle): string {
  const file = path.join(dir, name);
  writeFileSync(file, bundleText(b));
  return file;
}

/** A fleet daemon in a home of its own; `ready` awaited. */
export async function fleetDaemon(
  url: string,
  trust: readonly string[],
  opts: { home?: string; group?: string; extra?: string[] } = {},
): Promise<{ home: string; daemon: CliProcess }> {
  const home = opts.home ?? tempDir('hw-fleet-home-');
  const args = ['daemon', '--fleet', url, '--group', opts.group ?? 'default', ...(opts.extra ?? [])];
  for (const pub of trust) args.push('--trust-key', pub);
  const daemon = startCli(args, { home });
  await daemon.waitForOutput(/^ready$/m);
  return { home, daemon };
}

/** What Claude Code would be told for `command` in `home` (a cold `hookwerk hook`: HOOKWERK_DAEMON=off). */
export async function verdictFor(home: string, command: string): Promise<string> {
  const input = {
    session_id: 's',
    hook_event_name: 'PreToolUse',
    cwd: home,
    tool_name: 'Bash',
    tool_input: { command },
  };
  const r = await runCli(['hook', '--agent', 'claude'], {
    home,
    cwd: home,
    stdin: { text: JSON.stringify(input) },
  });
  return claudeVerdict(r).decision;
}

const statusSchema = z.object({
  fleet: z.object({
    version: z.number().nullable(),
    connected: z.boolean(),
    group: z.string(),
    lastRefusal: z.object({ version: z.number().nullable(), reason: z.string() }).nullable(),
  }),
});

/** `hookwerk daemon status --json` of the daemon in `home`: its fleet part. */
export async function fleetStatus(home: string): Promise<z.infer<typeof statusSchema>['fleet']> {
  const r = await runCli(['daemon', 'status', '--json'], { home });
  expect(r.code, r.stderr).toBe(0);
  return statusSchema.parse(JSON.parse(r.stdout)).fleet;
}
