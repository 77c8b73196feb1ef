// sessionStart: tell the model what is left to do (additionalContext reaches it as a user message).
import { existsSync, readFileSync } from 'node:fs';

const todo = existsSync('TODO.md') ? readFileSync('TODO.md', 'utf8') : '';
const open = todo.split('\n').filter((l) => l.startsWith('- [ ]')).length;
process.stdout.write(JSON.stringify({ additionalContext: `Open TODO items: ${open}` }));
