/** [R-POL-1] Where the policy lives: `<dir>/.hookwerk/policy.json`, for a project and for the home. */
import path from 'node:path';

export function policyFile(dir: string): string {
  return path.join(dir, '.hookwerk', 'policy.json');
}
