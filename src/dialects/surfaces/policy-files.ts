/** [R-POL-1, T-MGD-1] Where the policy lives: `<dir>/.hookwerk/policy.json`, and the managed one under /etc. */
import path from 'node:path';

export function policyFile(dir: string): string {
  return path.join(dir, '.hookwerk', 'policy.json');
}

/**
 * [T-MGD-1] The managed policy's folder and file. Fixed on purpose: no variable or flag moves
 * them, or the agent could point hookwerk at a folder of its own and leave managed mode.
 */
export const MANAGED_POLICY_DIR = '/etc/hookwerk';
export const MANAGED_POLICY_FILE = '/etc/hookwerk/policy.json';

/**
 * [F-BUN-2] The policy of the fleet bundle in force for this home (`hookwerk daemon --fleet`
 * keeps it there): read where the user's policy is, before it, so the cold path enforces it too.
 */
export function fleetPolicyFile(home: string): string {
  return path.join(home, '.hookwerk', 'fleet', 'policy.json');
}
