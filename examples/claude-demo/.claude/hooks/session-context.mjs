// SessionStart: plain stdout becomes context; lines written to $CLAUDE_ENV_FILE set variables.
import { appendFileSync } from 'node:fs';
import { readInput } from './read-input.mjs';

const input = readInput();
if (process.env.CLAUDE_ENV_FILE) appendFileSync(process.env.CLAUDE_ENV_FILE, 'export DEMO_PROFILE=strict\n');
console.log(`Session ${input.source}: this project forbids rm -rf, sudo and edits to .env files.`);
