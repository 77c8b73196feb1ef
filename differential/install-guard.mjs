// The one guard of the install suite, a Claude Code PreToolUse hook as a team would write it: it
// reads the call on stdin and exits 2 with the reason on stderr when the command holds `rm -rf`.
// `allow` as argv[2]: every other command gets an explicit allow (the control run that shows an
// allow would be seen). Each call is logged next to the script, so the report shows what the
// policy was given under each agent.
import { appendFileSync, readFileSync } from 'node:fs';

const stdin = readFileSync(0, 'utf8');
let input;
try {
  input = JSON.parse(stdin);
} catch {
  input = undefined;
}
const command = typeof input?.tool_input?.command === 'string' ? input.tool_input.command : '';
const blocked = command.includes('rm -rf');
appendFileSync(
  new URL('./guard-log.jsonl', import.meta.url),
  `${JSON.stringify({ t: Date.now(), command, blocked, input: input ?? stdin })}\n`,
);
if (blocked) {
  process.stderr.write('rm -rf is blocked by policy\n');
  process.exit(2);
}
if (process.argv[2] === 'allow')
  process.stdout.write(
    JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }),
  );
