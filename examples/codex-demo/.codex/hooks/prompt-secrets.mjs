// UserPromptSubmit: a prompt that pastes a secret is stopped before the model sees it.
import { readInput } from './read-input.mjs';

const input = readInput();
const prompt = String(input.prompt ?? '');
if (/(api[_-]?key|password|secret)\s*[:=]\s*\S+/i.test(prompt)) {
  console.log(
    JSON.stringify({ decision: 'block', reason: 'The prompt seems to contain a secret; it was not sent.' }),
  );
} else {
  // Plain text on UserPromptSubmit becomes a developer message for the model.
  console.log('Project convention: run npm test before you commit.');
}
