import { HookwerkError } from '../core/errors.ts';

/**
 * [R-INST-1] An agent's hook file that `install` / `uninstall` will not change: unreadable, not
 * JSON, or not shaped as the agent reads it. Nothing was written. The message is one line:
 * file, JSON path, reason.
 */
export class HookFileError extends HookwerkError {
  readonly file: string;
  readonly path: string;
  readonly reason: string;
  constructor(file: string, at: string, reason: string) {
    super('HOOK_FILE', `${file}: ${at}: ${reason}; nothing was written`);
    this.file = file;
    this.path = at;
    this.reason = reason;
  }
}
