// PreToolUse on Edit|MultiEdit|Write: keep secrets files out of the agent's reach (JSON answer form).
import path from 'node:path';
import { readInput } from './read-input.mjs';

const input = readInput();
const file = String(input.tool_input?.file_path ?? '');
const name = path.basename(file);
if (name === '.env' || name.startsWith('.env.') || name.endsWith('.pem')) {
  console.log(
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: `${name} holds secrets; edit it by hand`,
      },
    }),
  );
}
