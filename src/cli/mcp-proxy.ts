/**
 * `hookwerk mcp-proxy [--name NAME] [--project DIR] [--dialect policy|claude|lurus] [--mode
 * enforce|audit] (--url URL | -- COMMAND [ARGS…])` [AD-MCP-1]: an MCP server on stdio that stands
 * in front of the real one (a process it starts, or a streamable-HTTP server) and gates its tool
 * calls. By default it reads the hookwerk policy — the user's and the approved project's, what
 * `hookwerk hook` reads for every agent [R-POL-1, G-PERM-1] — with the agent `mcp`. stdout
 * carries MCP messages only; everything else goes to stderr.
 *
 * It ends when its client goes (stdin closed: the server is stopped with everything it started,
 * exit 0), when the server goes (exit 1, one line saying how), or on SIGINT / SIGTERM.
 */
import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { errorMessage } from '../core/errno.ts';
import { homeFolder } from '../core/home.ts';
import { createHookEngine } from '../engine.ts';
import type { HookEngine } from '../engine-api.ts';
import { createMcpGate, type McpGateMode } from '../mcp/mcp-gate.ts';
import { McpProxy } from '../mcp/mcp-proxy.ts';
import { isMcpGateDialect, type McpGateDialect } from '../mcp/tool-events.ts';
import { UpstreamProcess } from '../mcp/upstream-process.ts';
import { appendJournal } from '../records/journal-append.ts';
import { journalDir } from '../records/journal-segments.ts';
import type { Logger } from '../records/logger.ts';
import { claudeHooksLeftOut } from './claude-hooks-left-out.ts';
import { CliError, resolveWorkspace } from './cli-error.ts';

export const MCP_PROXY_USAGE = `usage: hookwerk mcp-proxy [--name NAME] [--project DIR] [--dialect policy|claude|lurus] [--mode enforce|audit] -- COMMAND [ARGS...]
       hookwerk mcp-proxy [options] --url URL
  An MCP server on stdio in front of the MCP server COMMAND starts (or the streamable-HTTP server at
  URL): every message passes unchanged, except tools/call, which the policy's permission rules and
  PreToolUse hooks gate first (tool_name "mcp__NAME__TOOL"), and PostToolUse hooks see after.
  --name NAME       the server's name in tool names (default: the serverInfo.name it gives)
  --project DIR     the project whose policy and hooks run (default: the current folder)
  --dialect D       policy (default: ~/.hookwerk/policy.json and the project's .hookwerk/policy.json,
                    as hookwerk hook reads them), claude (.claude/settings.json) or lurus (.lurus/hooks.json)
  --mode M          enforce (default) or audit (hooks run and are recorded, nothing is blocked)
  --url URL         the server is a streamable-HTTP endpoint instead of a command`;

export interface McpProxyArgs {
  name?: string;
  project?: string;
  /** `--dialect`, when given; the policy otherwise [G-PERM-1]. */
  dialect?: McpGateDialect;
  mode: McpGateMode;
  upstream: { url: URL } | { command: string; args: string[] };
}

const VALUE_OPTIONS = new Set(['name', 'project', 'dialect', 'mode', 'url']);

/**
 * The flags, up to `--` or the first word that is not one (the server's command line, whose own
 * flags are its own); `help` for --help.
 */
export function parseMcpProxyArgs(args: readonly string[]): McpProxyArgs | { help: true } {
  const values = new Map<string, string>();
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      i++;
      break;
    }
    if (arg === '--help' || arg === '-h') return { help: true };
    if (!arg.startsWith('-')) break;
    const eq = arg.indexOf('=');
    const key = arg.slice(2, eq < 0 ? undefined : eq);
    if (!arg.startsWith('--') || !VALUE_OPTIONS.has(key))
      throw new CliError(`mcp-proxy: unknown option ${arg}`);
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new CliError(`mcp-proxy: --${key} needs a value`);
    if (values.has(key)) throw new CliError(`mcp-proxy: --${key} is given twice`);
    values.set(key, value);
  }
  const command = args.slice(i);
  const dialect = values.get('dialect');
  if (dialect !== undefined && !isMcpGateDialect(dialect))
    throw new CliError(`mcp-proxy: --dialect must be policy, claude or lurus, got "${dialect}"`);
  const mode = values.get('mode') ?? 'enforce';
  if (mode !== 'enforce' && mode !== 'audit')
    throw new CliError(`mcp-proxy: --mode must be enforce or audit, got "${mode}"`);
  const name = values.get('name');
  if (name === '') throw new CliError('mcp-proxy: --name must not be empty');
  const url = values.get('url');
  const [program, ...rest] = command;
  let upstream: McpProxyArgs['upstream'];
  if (url !== undefined) {
    if (program !== undefined) throw new CliError('mcp-proxy: give either --url or a command, not both');
    upstream = { url: httpUrl(url) };
  } else {
    if (program === undefined || program === '')
      throw new CliError('mcp-proxy: give the MCP server to start after --, or --url URL');
    upstream = { command: program, args: rest };
  }
  const out: McpProxyArgs = { mode, upstream };
  if (dialect !== undefined) out.dialect = dialect;
  if (name !== undefined) out.name = name;
  const project = values.get('project');
  if (project !== undefined) out.project = project;
  return out;
}

function httpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`mcp-proxy: --url is not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`mcp-proxy: --url must be an http or https URL, got ${url.protocol}`);
  return url;
}

export interface McpProxyIo {
  stdin: Readable;
  stdout: Writable;
  /** One line on stderr. */
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

const processIo = (): McpProxyIo => ({
  stdin: process.stdin,
  stdout: process.stdout,
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
});

/** Why the proxy stops. */
type Ending = { by: 'client' } | { by: 'server'; how: string } | { by: 'signal'; signal: NodeJS.Signals };

/** Runs the proxy until its client or its server goes; resolves with the exit code. */
export async function mcpProxyCommand(
  args: readonly string[],
  io: McpProxyIo = processIo(),
): Promise<number> {
  const parsed = parseMcpProxyArgs(args);
  if ('help' in parsed) {
    io.stdout.write(`${MCP_PROXY_USAGE}\n`);
    return 0;
  }
  const say = (line: string) => io.err(`hookwerk mcp-proxy: ${line}`);
  const projectDir = resolveWorkspace(parsed.project);
  let home: string;
  try {
    home = homeFolder(undefined, io.env);
  } catch (e) {
    throw new CliError(`mcp-proxy: ${errorMessage(e)}`);
  }
  // [R-HOOK-3] Every call's runs, as the agent "mcp"; a failed write is a line on stderr (the gate's).
  const journal = journalDir(home);
  const logger: Logger = { info() {}, warn: say, error: say };
  const engine = await createHookEngine({
    projectDir,
    home,
    // [G-PERM-1] The policy every agent gets, unless another dialect is asked for by name.
    gateDialect: parsed.dialect ?? 'policy',
    // [R-POL-1] The agent asking is no Claude Code: a policy's `include: ["claude"]` runs its files.
    policy: { agent: 'mcp' },
    env: io.env,
    watch: false,
    plugins: false,
    logger,
  });
  tellConsent(engine, say);
  if (parsed.dialect === undefined) {
    const leftOut = claudeHooksLeftOut(engine.gate.config, io.env);
    if (leftOut !== undefined) say(leftOut);
  }

  const upstream =
    'url' in parsed.upstream
      ? new StreamableHTTPClientTransport(parsed.upstream.url)
      : new UpstreamProcess({ command: parsed.upstream.command, args: parsed.upstream.args, env: io.env });
  let end: (ending: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => {
    end = resolve;
  });
  const proxy = new McpProxy({
    client: new StdioServerTransport(io.stdin, io.stdout),
    upstream,
    gate: (name) =>
      createMcpGate(engine, {
        name,
        mode: parsed.mode,
        notify: say,
        record: (runs) => {
          for (const note of appendJournal(journal, runs)) say(note);
        },
      }),
    ...(parsed.name !== undefined ? { name: parsed.name } : {}),
    mode: parsed.mode,
    log: say,
    onUpstreamClose: () =>
      end({ by: 'server', how: upstream instanceof UpstreamProcess ? exitText(upstream) : 'closed' }),
  });
  // The client hung up (stdin at its end) or stopped reading (stdout closed): either way, it is gone.
  io.stdin.once('end', () => end({ by: 'client' }));
  io.stdin.once('error', () => end({ by: 'client' }));
  io.stdout.once('error', () => end({ by: 'client' }));
  const onSignal = (signal: NodeJS.Signals) => end({ by: 'signal', signal });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    try {
      await proxy.start();
    } catch (e) {
      throw new CliError(`mcp-proxy: ${errorMessage(e)}`);
    }
    const ending = await ended;
    if (upstream instanceof StreamableHTTPClientTransport)
      await upstream.terminateSession().catch(() => {
        // A server that ends no sessions, or is gone already: nothing is left to end.
      });
    await proxy.close();
    if (ending.by === 'server') throw new CliError(`mcp-proxy: the MCP server ${ending.how}`);
    return ending.by === 'signal' ? (ending.signal === 'SIGINT' ? 130 : 143) : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await proxy.close().catch(() => {});
    await engine.close();
  }
}

/**
 * [L-TRUST-11] Once at start: project hooks that will not run. The engine's own lines (sources
 * that could not be read, a policy file that denies [G-FAIL-1], a project policy not approved,
 * newer versions waiting) reach stderr through its logger already.
 */
function tellConsent(engine: HookEngine, say: (line: string) => void): void {
  const { config } = engine.gate;
  const { consent } = config;
  const toldAlready = 'unapproved' in config && config.unapproved !== undefined;
  if (!consent.trusted && !toldAlready)
    say(
      `the project hooks of ${config.projectDir} are ${consent.reason} and do not run: ` +
        `review them with \`hookwerk trust --project ${config.projectDir}\``,
    );
}

function exitText(upstream: UpstreamProcess): string {
  const exit = upstream.exit;
  if (exit?.signal != null) return `was killed by ${exit.signal}`;
  return `exited with code ${exit?.code ?? 'unknown'}`;
}
