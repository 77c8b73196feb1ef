// beforeSubmitPrompt: a prompt that carries a credential is not sent (continue: false).
import { answer, readInput } from './read-input.mjs';

const { prompt = '' } = readInput();
const secret = /(api[_-]?key|secret|token|password)\s*[:=]\s*\S+|sk-[A-Za-z0-9-]{6,}|AKIA[0-9A-Z]{16}/i;
if (secret.test(prompt)) {
  answer({
    continue: false,
    user_message: 'Your prompt contains what looks like a credential; it was not sent.',
  });
} else {
  answer({ continue: true });
}
