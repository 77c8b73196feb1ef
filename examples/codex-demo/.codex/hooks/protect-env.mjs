// PreToolUse on Edit|Write: Codex's apply_patch arrives as {command: <patch text>}; a patch that
// touches a secrets file is denied (JSON answer form: deny needs a reason in Codex).
import path from 'node:path';
import { readInput } from './read-input.mjs';

const input = readInput();
const patch = String(input.tool_input?.command ?? '');
const files = [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1].trim());
const secret = files
  .map((f) => path.basename(f))
  .find((n) => n === '.env' || n.startsWith('.env.') || n.endsWith('.pem'));
if (secret !== undefined) {
  console.log(
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: `${secret} holds secrets; edit it by hand`,
      },
    }),
  );
}
