// stop: while TODO.md still lists open items, send the agent a follow-up (Cursor caps it by loop_limit).
import { existsSync, readFileSync } from 'node:fs';
import { answer, readInput } from './read-input.mjs';

const input = readInput();
const open = existsSync('TODO.md')
  ? readFileSync('TODO.md', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- [ ]'))
  : [];
if (input.status === 'completed' && open.length > 0) {
  answer({
    followup_message: `TODO.md still has ${open.length} open item(s): ${open[0].slice(6)}. Continue.`,
  });
} else {
  answer({});
}
