// Stop: while TODO.md still lists open items, ask the agent to continue (once: stop_hook_active ends the loop).
import { existsSync, readFileSync } from 'node:fs';
import { readInput } from './read-input.mjs';

const input = readInput();
const open = existsSync('TODO.md')
  ? readFileSync('TODO.md', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- [ ]'))
  : [];
if (open.length > 0 && input.stop_hook_active !== true) {
  console.log(
    JSON.stringify({
      decision: 'block',
      reason: `TODO.md still has ${open.length} open item(s): ${open[0].slice(6)}`,
    }),
  );
}
