// sessionStart: tell the agent where it is, and hand later hooks a variable (Cursor's `env`).
import { answer, readInput } from './read-input.mjs';

const input = readInput();
const root = input.workspace_roots?.[0] ?? process.env.CURSOR_PROJECT_DIR;
answer({
  additional_context: `Project ${root}: run \`npm test\` before you stop; never print secrets.`,
  env: { DEMO_SESSION: input.session_id ?? 'unknown' },
});
