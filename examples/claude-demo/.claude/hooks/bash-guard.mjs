// PreToolUse on Bash: refuse destructive commands. Exit 2 blocks; stderr is the reason the agent reads.
import { readInput } from './read-input.mjs';

const input = readInput();
const command = String(input.tool_input?.command ?? '');
const rules = [
  [/\brm\s+-[a-z]*r[a-z]*f|\brm\s+-[a-z]*f[a-z]*r/, 'recursive force delete (rm -rf) is not allowed here'],
  [/\bsudo\b/, 'sudo is not allowed in this project'],
  [/\bgit\s+push\s+.*--force\b/, 'force-pushing is not allowed'],
];
for (const [pattern, why] of rules) {
  if (pattern.test(command)) {
    process.stderr.write(`Blocked: ${why} (${command})\n`);
    process.exit(2);
  }
}
