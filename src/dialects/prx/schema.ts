import { z } from 'zod';
import { isCodeInjectingEnv } from '../../core/env-policy.ts';
import { PRX_EVENT_NAMES } from '../../events/prx-events.ts';
import type { PrxActionSettings } from '../../registry/hook-definition.ts';

/** Hard limits on a hooks.json; beyond them the file is rejected, not truncated. */
export const PRX_LIMITS = {
  maxFileBytes: 1024 * 1024,
  maxActions: 1000,
  maxTimeoutMs: 3_600_000,
  defaultTimeoutMs: 30_000,
  maxCommandLength: 4096,
} as const;

/**
 * [P-SEC-2] Why `env` may not set `key` (compared case-insensitively), or `undefined`: PATH and
 * HOME are hookwerk's, and names that choose code for a loader, shell or interpreter
 * (`LD_*`, `NODE_OPTIONS`, `BASH_ENV`…, see env-policy.ts) would run code the command never names.
 */
function blockedEnvReason(key: string): string | undefined {
  const upper = key.toUpperCase();
  if (upper === 'PATH' || upper === 'HOME') return `env may not set ${key} (blocked for security)`;
  if (isCodeInjectingEnv(key))
    return `env may not set ${key} (blocked for security: it makes a loader, shell or interpreter run code it names)`;
  return undefined;
}

/** [P-SEC-4] Characters that would mean something to a shell; hooks never run through one. */
const SHELL_META = /[;|&`$()<>\n\r]/;

const noNul = (what: string) => [(s: string) => !s.includes('\0'), `${what} contains a NUL byte`] as const;

const command = z
  .string()
  .min(1, 'command must not be empty')
  .max(PRX_LIMITS.maxCommandLength, `command is longer than ${PRX_LIMITS.maxCommandLength} characters`)
  .check((ctx) => {
    const s = ctx.value;
    if (s.includes('\0'))
      ctx.issues.push({ code: 'custom', input: s, message: 'command contains a NUL byte' });
    const meta = SHELL_META.exec(s);
    if (meta) {
      ctx.issues.push({
        code: 'custom',
        input: s,
        message: `command contains the shell metacharacter ${JSON.stringify(meta[0])}; put shell logic in a script and point command at it`,
      });
    }
  });

/** Checks names on the whole map so each issue points at its own key. */
const envMap = z.record(z.string(), z.string().refine(...noNul('env value'))).check((ctx) => {
  for (const key of Object.keys(ctx.value)) {
    const fail = (message: string) => ctx.issues.push({ code: 'custom', input: key, path: [key], message });
    if (key.includes('\0')) fail('env name contains a NUL byte');
    else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      fail(`env name ${JSON.stringify(key)} is not a valid variable name`);
    else if (key.toUpperCase().startsWith('ZERO_HOOK_'))
      fail(`env may not set ${key}: ZERO_HOOK_* are set by hookwerk`);
    else {
      const blocked = blockedEnvReason(key);
      if (blocked !== undefined) fail(blocked);
    }
  }
});

const isoTime = z.iso.datetime({ offset: true });

// --- sandbox [P-SEC-7] -------------------------------------------------------------------------
const sandboxSetting = z.enum(['none', 'bwrap'], { error: 'sandbox must be "none" or "bwrap"' });
const SANDBOX_HELP =
  '"none" (default) or "bwrap": bubblewrap with no network, a read-only root, a private /tmp and the workspace writable.';
const sandboxWorkspaceSetting = z
  .enum(['rw', 'ro'], { error: 'sandbox_workspace must be "rw" or "ro"' })
  .describe(
    'Under sandbox "bwrap": the workspace is writable ("rw", default) or read-only ("ro"). An error without a sandbox.',
  );
// --- end sandbox ---------------------------------------------------------------------------------

export const prxActionSchema = z
  .strictObject({
    command: command.describe(
      'Absolute path, a command name looked up in /usr/local/bin:/usr/bin:/bin, or a path relative to the workspace. No shell.',
    ),
    args: z
      .array(z.string().refine(...noNul('argument')))
      .default([])
      .describe('Arguments, passed as-is (no shell).'),
    env: envMap.default({}).describe('Extra variables added to the sanitized environment.'),
    cwd: z
      .string()
      .min(1)
      .refine(...noNul('cwd'))
      .optional()
      .describe('Working directory; relative values resolve against the workspace and must stay inside it.'),
    timeout_ms: z
      .number()
      .int('timeout_ms must be a whole number')
      .min(1, 'timeout_ms must be at least 1')
      .max(PRX_LIMITS.maxTimeoutMs, `timeout_ms must be at most ${PRX_LIMITS.maxTimeoutMs}`)
      .default(PRX_LIMITS.defaultTimeoutMs)
      .describe('After this many ms the whole process group gets SIGTERM, SIGKILL 5 s later.'),
    stdin_json: z.boolean().default(false).describe('Also write the envelope to stdin as one line of JSON.'),
    keep_children: z
      .boolean()
      .optional()
      .describe(
        'Leave processes the hook starts running after it exits (default: they are killed with it). They survive close().',
      ),
    sandbox: sandboxSetting // [P-SEC-7]
      .optional()
      .describe(`Sandbox for this action, overriding the file-level one: ${SANDBOX_HELP}`),
    sandbox_workspace: sandboxWorkspaceSetting.optional(), // [P-SEC-7]
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'id must be 1-64 characters of A-Z a-z 0-9 _ . -')
      .optional(),
    enabled: z.boolean().default(true),
    created_at: isoTime.optional(),
    updated_at: isoTime.optional(),
  })
  .meta({ id: 'PrxAction', description: 'One shell hook action.' });

const eventMapShape = Object.fromEntries(
  PRX_EVENT_NAMES.map((e) => [e, z.array(prxActionSchema).optional()]),
);

export const prxHooksFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    sandbox: sandboxSetting // [P-SEC-7]
      .optional()
      .describe(`Sandbox for every action that does not set its own: ${SANDBOX_HELP}`),
    hooks: z
      .strictObject(eventMapShape)
      .describe('Event name → actions, run concurrently when the event fires.'),
  })
  .describe('hookwerk PRX hooks.json');

export type PrxActionConfig = z.output<typeof prxActionSchema>;
/** The hook model's view of an action: what this schema produces (checked when this compiles). */
export function actionSettings(config: PrxActionConfig): PrxActionSettings {
  return config;
}
export type PrxHooksFile = z.output<typeof prxHooksFileSchema>;
