// beforeShellExecution: refuse destructive commands, ask before a force push, allow the rest.
import { answer, readInput } from './read-input.mjs';

const { command = '' } = readInput();
if (/\brm\s+-[a-z]*r[a-z]*f[a-z]*\s+(\/|~|\*)(\s|$)/.test(command) || /\bsudo\b/.test(command)) {
  answer({
    permission: 'deny',
    user_message: `Blocked: ${command}`,
    agent_message: 'This command is destructive or needs root; find another way.',
  });
} else if (/\bgit\s+push\b.*(--force|-f\b)/.test(command)) {
  answer({
    permission: 'ask',
    user_message: 'Force push: confirm?',
    agent_message: 'A force push needs the user.',
  });
} else {
  answer({ permission: 'allow' });
}
