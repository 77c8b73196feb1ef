// PreToolUse on Bash: refuse destructive commands. Exit 2 with a reason on stderr blocks
// (Codex needs the stderr: exit 2 with nothing on it blocks nothing).
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
    process.stderr.write(`Blocked: ${why}\n`);
    process.exit(2);
  }
}
