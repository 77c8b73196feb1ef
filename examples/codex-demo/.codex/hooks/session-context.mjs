// SessionStart: plain stdout becomes a developer message before the first prompt.
import { readInput } from './read-input.mjs';

const input = readInput();
console.log(`Session ${input.source}: this project forbids rm -rf, sudo and edits to .env files.`);
