import { z } from 'zod';
import type { LurusEventName } from '../../events/lurus-events.ts';

export const LURUS_LIMITS = {
  defaultTimeoutMs: 30_000,
  maxTimeoutMs: 3_600_000,
  maxFileBytes: 1024 * 1024,
} as const;

const timeout = z
  .number()
  .int('timeout must be a whole number of milliseconds')
  .min(1, 'timeout must be at least 1 ms')
  .max(LURUS_LIMITS.maxTimeoutMs, `timeout must be at most ${LURUS_LIMITS.maxTimeoutMs} ms`)
  .default(LURUS_LIMITS.defaultTimeoutMs)
  .describe('Milliseconds; at the limit the hook fails (open, unless failMode is "closed").');

const failMode = z
  .enum(['open', 'closed'])
  .default('open')
  .describe(
    'What a failure (error, timeout, invalid answer) means: "open" = allow (default), "closed" = deny.',
  );

const lurusCommandHookSchema = z
  .strictObject({
    type: z.literal('command'),
    command: z
      .string()
      .min(1, 'command must not be empty')
      .refine((s) => !s.includes('\0'), 'command contains a NUL byte')
      .describe('Run through /bin/sh -c in the project folder; the event JSON arrives on stdin.'),
    timeout,
    failMode,
    keepChildren: z
      .boolean()
      .optional()
      .describe(
        'Leave processes the command starts running after it exits (default: they are killed with it).',
      ),
  })
  .meta({ id: 'LurusCommandHook' });

const lurusHttpHookSchema = z
  .strictObject({
    type: z.literal('http'),
    url: z.string().min(1).describe('http(s) URL that receives the event JSON as the body.'),
    method: z.string().default('POST').describe('POST (default), PUT or PATCH.'),
    headers: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        'Extra request headers (no secrets: Authorization, Cookie, Proxy-Authorization, X-API-Key and any name with auth, token, secret, password, credential, cookie, jwt, api-key, access-key or private-key in it are refused).',
      ),
    timeout,
    failMode,
    allowLinkLocal: z
      .boolean()
      .optional()
      .describe(
        'Allow link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254…), as the URL host or what its name resolves to. Refused by default.',
      ),
  })
  .meta({ id: 'LurusHttpHook' });

const lurusHookSchema = z.discriminatedUnion('type', [lurusCommandHookSchema, lurusHttpHookSchema]);

const lurusDefinitionSchema = z
  .strictObject({
    matcher: z
      .string()
      .optional()
      .describe('Tested against context.toolName, else context.trigger. "", "*" or missing: always.'),
    hooks: z.array(lurusHookSchema),
  })
  .meta({ id: 'LurusDefinition' });

/** [L-DEF-1] The event map: `.lurus/hooks.json` holds it directly, settings files under `hooks`/`globalHooks`/`projectHooks`. */
export const lurusEventMapSchema = z.strictObject(eventShape());

/**
 * One optional list of definitions per event, keyed by the event names themselves (not by
 * `string`: an index signature would clash with `$schema` in the shipped `.d.ts`).
 */
function eventShape(): Record<LurusEventName, z.ZodOptional<z.ZodArray<typeof lurusDefinitionSchema>>> {
  const list = () => z.array(lurusDefinitionSchema).optional();
  return {
    SessionStart: list(),
    SessionEnd: list(),
    UserPromptSubmit: list(),
    PreToolUse: list(),
    PostToolUse: list(),
    PostToolUseFailure: list(),
    SubagentStart: list(),
    SubagentStop: list(),
    Stop: list(),
    PreCompact: list(),
    Notification: list(),
  };
}

/** `.lurus/hooks.json`: the event map itself, plus an optional `$schema` for editors. */
export const lurusHooksFileSchema = lurusEventMapSchema
  .extend({ $schema: z.string().optional() })
  .describe('hookwerk Lurus .lurus/hooks.json');

export type LurusHookConfig = z.output<typeof lurusHookSchema>;
export type LurusEventMap = z.output<typeof lurusEventMapSchema>;
