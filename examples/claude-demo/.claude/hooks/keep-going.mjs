// Stop: while TODO.md still lists open items, ask the agent to continue (once: stop_hook_active ends the loop).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readInput } from './read-input.mjs';

const input = readInput();
const todo = path.join(process.env.CLAUDE_PROJECT_DIR ?? '.', 'TODO.md');
const open = existsSync(todo)
  ? readFileSync(todo, 'utf8')
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
