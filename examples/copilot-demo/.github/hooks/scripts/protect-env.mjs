// preToolUse on edit/create: never touch .env files (Copilot's camelCase input on stdin).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const input = JSON.parse(readFileSync(0, 'utf8') || '{}');
const args = typeof input.toolArgs === 'string' ? JSON.parse(input.toolArgs) : (input.toolArgs ?? {});
const file = String(args.path ?? '');
if (/^\.env(\..*)?$/.test(path.basename(file))) {
  process.stdout.write(
    JSON.stringify({
      permissionDecision: 'deny',
      permissionDecisionReason: `${file} holds secrets: edit it by hand`,
    }),
  );
}
