// agentStop: while TODO.md has open items, block the stop once; the reason becomes the next prompt.
import { existsSync, readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8') || '{}');
if (input.stop_hook_active === true) process.exit(0);
const todo = existsSync('TODO.md') ? readFileSync('TODO.md', 'utf8') : '';
const open = todo.split('\n').filter((l) => l.startsWith('- [ ]'));
if (open.length > 0) {
  process.stdout.write(JSON.stringify({ decision: 'block', reason: `Not done yet: ${open[0].slice(6)}` }));
}
