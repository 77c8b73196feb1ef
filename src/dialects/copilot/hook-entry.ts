/**
 * One entry of a Copilot CLI hook file [A-COP-1]: its fields (validated with zod), what it runs —
 * a shell command, or a program with its arguments and no shell — and its matchers. The loader
 * (`source.ts`) turns it into a hook.
 */
import { z } from 'zod';
import type { CompiledMatcher } from '../../registry/matcher.ts';
import type { RawHandler } from '../../sources/agent-settings.ts';
import { type CopilotEventName, type CopilotForm, copilotMatchField } from './events.ts';
import { compileAnchoredMatcher } from './matcher.ts';
import { vscodeToolName } from './payload.ts';

const noNul = (what: string) => z.string().refine((s) => !s.includes('\0'), `${what} contains a NUL byte`);

export const entrySchema = z.object({
  type: z.literal('command'),
  bash: noNul('bash').optional(),
  command: noNul('command').optional(),
  powershell: z.string().optional(),
  exec: noNul('exec').min(1, 'exec must not be empty').optional(),
  args: z.array(noNul('an argument')).optional(),
  cwd: noNul('cwd').optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutSec: z.number().positive('timeoutSec must be a positive number of seconds').optional(),
  timeout: z.number().positive('timeout must be a positive number of seconds').optional(),
  matcher: z.string().optional(),
  failMode: z.enum(['open', 'closed']).optional(),
  keepChildren: z.boolean().optional(),
});
/** The fields it reads: any other is an unknown field (validate warns). */
export const ENTRY_FIELDS: ReadonlySet<string> = new Set(Object.keys(entrySchema.shape));

type Entry = z.infer<typeof entrySchema>;

/**
 * What an entry runs, from its bare JSON (nothing validated): `bash`, else the program of `exec`
 * or `command` with its `args` — the whole line, as the compiled hook is named.
 */
export function bareLineOf(entry: object): string | undefined {
  const bash: unknown = Reflect.get(entry, 'bash');
  if (typeof bash === 'string') return bash;
  const exec: unknown = Reflect.get(entry, 'exec');
  const command: unknown = Reflect.get(entry, 'command');
  const program = typeof exec === 'string' ? exec : typeof command === 'string' ? command : undefined;
  const args: unknown = Reflect.get(entry, 'args');
  if (program === undefined || !Array.isArray(args)) return program;
  return [program, ...args.filter((a): a is string => typeof a === 'string')].join(' ');
}
export type Warn = (message: string, at?: PropertyKey[], level?: 'warning') => void;

/**
 * What an entry runs [A-COP-1]: `bash` (or `command`) through the shell, or a program with its
 * arguments and no shell — `exec` + `args`, or `command` + `args` as Claude Code's exec form
 * writes it (issue 31: such a hook ran as the bare program, its arguments dropped).
 */
export function runsOf(
  h: Entry,
  raw: RawHandler,
  warn: Warn,
): { command: string; exec?: { program: string; args: readonly string[] } } | undefined {
  const shellCommand = h.bash ?? h.command;
  if (h.exec !== undefined && (shellCommand !== undefined || h.powershell !== undefined)) {
    warn(
      "specify either 'exec' (native executable) or 'bash'/'powershell'/'command' (shell), not both; skipped",
    );
    return undefined;
  }
  if (h.exec === undefined && shellCommand === undefined) {
    warn(
      h.powershell !== undefined
        ? 'only "powershell" is given: on Linux and macOS Copilot CLI runs "bash"; skipped'
        : 'no "bash", "command" or "exec" to run; skipped',
    );
    return undefined;
  }
  if (shellCommand !== undefined && shellCommand.trim() === '') {
    warn('the command is empty; skipped');
    return undefined;
  }
  const program = h.exec ?? (h.bash === undefined && h.args !== undefined ? h.command : undefined);
  if (program !== undefined) return { command: program, exec: { program, args: h.args ?? [] } };
  if (h.args !== undefined)
    warn('"args" goes with "exec" or "command", not with "bash"; ignored', [...raw.at, 'args'], 'warning');
  return { command: shellCommand ?? '' };
}

/**
 * [A-COP-1] The group's and the entry's matchers (both must match), anchored regexes on the
 * event's matched field — for the VS Code form, on the PascalCased tool name its hooks see
 * (`Bash`). On an event without a matched field Copilot CLI has nothing to test: all run.
 */
export function matcherOf(
  event: CopilotEventName,
  form: CopilotForm,
  patterns: readonly string[],
  warn: (message: string) => void,
): CompiledMatcher {
  const field = copilotMatchField(event);
  if (patterns.length === 0) return compileAnchoredMatcher(undefined);
  const source = patterns.join(' & ');
  if (field === null) return { source, test: () => true };
  const compiled = patterns.map(compileAnchoredMatcher);
  for (const m of compiled) if (m.error !== undefined) warn(m.error);
  const shown = (v: string | undefined) =>
    v !== undefined && form === 'vscode' && field === 'toolName' ? vscodeToolName(v) : v;
  return { source, test: (value) => compiled.every((m) => m.test(shown(value))) };
}
