// beforeReadFile and preToolUse (Write|Delete): .env files are neither read nor written by the agent.
import path from 'node:path';
import { answer, readInput } from './read-input.mjs';

const input = readInput();
const file = input.file_path ?? input.tool_input?.file_path ?? input.tool_input?.path ?? '';
if (/^\.env(\..*)?$/.test(path.basename(file))) {
  answer({
    permission: 'deny',
    user_message: `${path.basename(file)} is protected`,
    agent_message: `Do not touch ${file}: it holds secrets. Use .env.example instead.`,
  });
} else {
  answer({ permission: 'allow' });
}
