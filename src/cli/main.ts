import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { z } from 'zod';
import { errorCode, errorMessage } from '../core/errno.ts';
import { GATE_DIALECTS } from '../dialects/gate-dialects.ts';
import { CliError } from './cli-error.ts';
import { createHookCommand } from './create-hook.ts';
import { decideCommand } from './decide.ts';
import { demoCommand } from './demo.ts';
import { agentDemoCommand, demoDialects } from './demo-agent.ts';
import { emitCommand } from './emit.ts';
import { explainCommand } from './explain.ts';
import { withFleetOptions } from './fleet-cli-options.ts';
import { withNatsSecurityFlags } from './nats-cli-options.ts';
import { addPolicyCommand } from './policy-command.ts';
import { askOnTerminal, trustCommand } from './trust.ts';
import { validateCommand } from './validate.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

type SetExit = (code: number) => void;

/** The CLI: one `add…Command` per command, each a thin shell that parses, calls and prints. */
function buildProgram(setExit: SetExit): Command {
  const program = new Command('hookwerk')
    .description(
      `Hooks engine for AI agent runtimes: observe (prx) and gate (${Object.keys(GATE_DIALECTS).join(', ')}) dialects.`,
    )
    .version(packageVersion(), '-v, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  addEmitCommand(program, setExit);
  addDecideCommand(program, setExit);
  addValidateCommand(program, setExit);
  addExplainCommand(program, setExit);
  addCreateHookCommand(program, setExit);
  addTrustCommand(program, setExit);
  addServeCommand(program, setExit);
  addWorkerCommand(program, setExit);
  addDemoCommand(program, setExit);
  addHookCommand(program, setExit);
  addRunsCommand(program, setExit);
  addTestCommand(program, setExit);
  addInstallCommand(program, setExit);
  addMcpProxyCommand(program, setExit);
  addDaemonCommand(program, setExit);
  addSetupSystemCommand(program, setExit);
  addPolicyCommand(program, setExit, out, err);
  // [F-BUN-1] `-v, --version` is the program's only before a command (`policy bundle --version N`
  // is the bundle's); set last, so the commands themselves keep reading options anywhere.
  program.enablePositionalOptions();
  return program;
}

function addEmitCommand(program: Command, setExit: SetExit): void {
  withNatsSecurityFlags(
    program
      .command('emit')
      .description('emit a PRX lifecycle event to the hooks of a workspace')
      .argument(
        '<event>',
        'agent_start, agent_end, llm_request, llm_response, tool_call_start, tool_call, turn_complete, error',
      )
      .option('--workspace <dir>', 'folder holding hooks.json', '.')
      .option('--session <id>', 'session id of the event')
      .option('--payload <json>', 'event payload as a JSON object', '{}')
      .option('--wait', 'run the hooks now, wait, and print one line per run')
      .option('--json', 'with --wait: print run records as JSON lines')
      .option(
        '--shutdown-grace-ms <ms>',
        'on SIGINT/SIGTERM: how long running hooks may finish before they are stopped (default 5000)',
      )
      .option(
        '--nats <url>',
        'publish the event to NATS (workers run the hooks); exit 0 once the server has it',
      )
      .option('--durable', 'with --nats: through the JetStream stream; exit 0 once it acknowledged')
      .option('--event-id <id>', 'with --durable: the Nats-Msg-Id (the same id within 2 minutes runs once)'),
  )
    .addOption(hidden('--timestamp <iso>', 'envelope timestamp (used by the background runner)'))
    .addOption(hidden('--depth <n>', 'event depth (used by the background runner)'))
    .action(async (event: string, opts) => setExit(await emitCommand(event, opts, out, err)));
}

function addDecideCommand(program: Command, setExit: SetExit): void {
  program
    .command('decide')
    .description('run the gate hooks of an event; prints the decision JSON, exit 2 when it blocks')
    .argument('<event>', 'PreToolUse, PostToolUse, UserPromptSubmit, Stop, … (Gemini: BeforeTool, …)')
    .addOption(dialectOption())
    .option('--project <dir>', 'project folder (default: the current folder)')
    .option('--context <json>', 'lurus: event context, e.g. {"toolName":"Write","toolInput":{}}', '{}')
    .option(
      '--input <json>',
      'agent dialects (claude, gemini, …): the input object (default: read from stdin)',
    )
    .option(
      '--session <id>',
      'agent dialects: session_id of an input that gives none (default: one per project folder)',
    )
    .option(
      '--plugin-dir <dir>',
      'agent dialects with plugins (claude): a plugin folder whose hooks/hooks.json is read (repeatable)',
      collect,
      [],
    )
    .option(
      '--shutdown-grace-ms <ms>',
      'on SIGINT/SIGTERM: how long running hooks may finish before they are stopped (default 5000)',
    )
    .action(async (event: string, opts) => setExit(await decideCommand(event, opts, out, err)));
}

function addValidateCommand(program: Command, setExit: SetExit): void {
  program
    .command('validate')
    .description('check every hook source: each problem with file, JSON path and reason (exit 1 on any)')
    .option('--workspace <dir>', 'PRX workspace folder (alone: check only the PRX side)')
    .option(
      '--project <dir>',
      "project folder (alone: its gate sources — Lurus, the policy, every agent's files — plus the home's)",
    )
    .addOption(dialectOption())
    .option(
      '--plugin-dir <dir>',
      'agent dialects with plugins: a plugin folder to check too (repeatable)',
      collect,
      [],
    )
    .action(async (opts) => setExit(await validateCommand(opts, out, err)));
}

function addExplainCommand(program: Command, setExit: SetExit): void {
  program
    .command('explain')
    .description(
      'list every hook configured for an event, in run order, with its if, failMode and timeout, and whether it would run, and if not, why',
    )
    .argument('<event>', 'a gate event (PreToolUse…) or an observe event (tool_call…)')
    .option('--tool <name>', "the tool name to match against (lurus toolName, the agent dialects' tool_name)")
    .option(
      '--input <json>',
      'with --tool: the tool\'s input (tool_input), e.g. {"command":"rm -rf x"}, against which each if rule is tested',
    )
    .option(
      '--trigger <value>',
      "the trigger to match against (lurus trigger; agent dialects: the event's matched field)",
    )
    .addOption(dialectOption())
    .option('--plugin-dir <dir>', 'agent dialects with plugins: a plugin folder (repeatable)', collect, [])
    .option('--project <dir>', 'project folder', '.')
    .option('--workspace <dir>', 'PRX workspace folder', '.')
    .action(async (event: string, opts) => setExit(await explainCommand(event, opts, out, err)));
}

function addCreateHookCommand(program: Command, setExit: SetExit): void {
  program
    .command('create-hook')
    .description('generate .lurus/hooks/NAME.sh (or .ts) from the event template and register it')
    .argument('<event>', 'gate event, case-insensitive')
    .argument('<name>', 'file name stem')
    .option('--ts', 'TypeScript template, run with npx tsx')
    .option('--project <dir>', 'project folder (default: the current folder)')
    .option('--force', 'overwrite an existing script')
    .action((event: string, name: string, opts) => setExit(createHookCommand(event, name, opts, out)));
}

function addTrustCommand(program: Command, setExit: SetExit): void {
  program
    .command('trust')
    .description('review the project hooks (what runs, where data goes) and approve them')
    .option('--project <dir>', 'project folder', '.')
    .option('--yes', 'approve without asking')
    .option(
      '--plugin-dir <dir>',
      'an agent plugin folder (Claude Code) to approve with the project (repeatable)',
      collect,
      [],
    )
    .option('--list', 'list every approval in the trust store')
    .option('--revoke', "remove the project's approval (its hooks are skipped again)")
    .action(async (opts) =>
      setExit(
        await trustCommand(opts, { out, err, ask: askOnTerminal, interactive: process.stdin.isTTY === true }),
      ),
    );
}

function addServeCommand(program: Command, setExit: SetExit): void {
  program
    .command('serve')
    .description('run the HTTP management API: hooks CRUD, events, decide, runs, event stream, metrics')
    .option('--workspace <dir>', 'folder holding hooks.json', '.')
    .option('--project <dir>', 'project folder whose gate sources /api/decide runs', '.')
    .addOption(dialectOption())
    .option('--host <host>', 'address to bind (only loopback unless you say otherwise)', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: any free port)', '7070')
    .option(
      '--shutdown-grace-ms <ms>',
      'on SIGINT/SIGTERM: how long running hooks may finish before they are stopped (default 5000)',
    )
    .option(
      '--max-connections <n>',
      'open connections at most (default 1024; lowered to the open-file limit minus 512 kept for hooks)',
    )
    .option(
      '--headers-timeout-ms <ms>',
      'close a connection whose request headers take longer (default 20000)',
    )
    .option(
      '--request-timeout-ms <ms>',
      'close a connection whose whole request takes longer (default 60000)',
    )
    .action(async (opts) => {
      // Loaded on use: the HTTP stack stays out of every other command's start-up.
      const { serveCommand } = await import('./serve.ts');
      setExit(await serveCommand(opts, out, err));
    });
}

function addWorkerCommand(program: Command, setExit: SetExit): void {
  withNatsSecurityFlags(
    program
      .command('worker')
      .description("run a workspace's hooks for events from NATS (a worker fleet), or answer gate requests")
      .requiredOption(
        '--nats <url>',
        'NATS server URL, e.g. nats://127.0.0.1:4222 (nats://user:pass@host: credentials)',
      ),
  )
    .option('--workspace <dir>', 'folder holding hooks.json (and plugins/) whose hooks this worker runs')
    .option('--queue <name>', 'queue group: each event runs once per group', 'hookwerk')
    .option('--name <name>', 'name in run records and metrics (default <hostname>:<pid>)')
    .option('--max-concurrent <n>', 'hook runs at once (default 2 × cores, at least 4)')
    .option('--max-queue <n>', 'runs waiting behind them (default 10000)')
    .option('--durable', 'JetStream: acknowledge after the runs are recorded, redeliver otherwise')
    .option('--ack-wait-ms <ms>', 'durable: redeliver an event not acknowledged within this (default 30000)')
    .option('--max-deliver <n>', 'durable: deliveries before hookwerk.dead.<event> (default 5)')
    .option(
      '--stream-max-bytes <n>',
      'durable: the stream HOOKWERK_EVENTS keeps at most this many bytes (default 1 GiB)',
    )
    .option('--stream-max-age-ms <ms>', 'durable: …and events at most this long (default 86400000, 24 h)')
    .option('--gate', 'answer hookwerk.decide.<event> with the gate hooks of --project')
    .option('--project <dir>', 'with --gate: the Lurus project folder')
    .option('--metrics-port <n>', 'serve /metrics on 127.0.0.1 (label worker="NAME")')
    .option(
      '--shutdown-grace-ms <ms>',
      'on SIGINT/SIGTERM: how long running hooks may finish before they are stopped (default 5000)',
    )
    .action(async (opts) => {
      const { workerCommand } = await import('./worker.ts');
      setExit(await workerCommand(opts, out, err));
    });
}

function addDemoCommand(program: Command, setExit: SetExit): void {
  program
    .command('demo')
    .description('run a scripted agent session against the bundled example workspace')
    .option('--no-keep', 'delete the demo workspace afterwards')
    .addOption(
      new Command()
        .createOption(
          '--dialect <dialect>',
          `prx (default), or an agent's own hook files guarded by hookwerk: ${demoDialects().join(', ')}`,
        )
        .choices(['prx', ...demoDialects()]),
    )
    .action(async (opts) => {
      const agent = demoDialects().find((name) => name === opts.dialect);
      setExit(agent !== undefined ? await agentDemoCommand(agent, opts, out) : await demoCommand(opts, out));
    });
}

function addHookCommand(program: Command, setExit: SetExit): void {
  program
    .command('hook')
    .description("what an agent's hook file calls: runs the policy, answers in that agent's protocol")
    .allowUnknownOption()
    .helpOption(false)
    .argument(
      '[args...]',
      '--agent claude|gemini|codex|copilot|cursor [--event EVENT] [--project DIR] [--timeout SECONDS]',
    )
    .action(async (args: string[]) => {
      // `bin/hookwerk.js` comes here only when `hook` is not the first word (`hookwerk -v hook`…).
      const { hookMain } = await import('./hook.ts');
      setExit(await hookMain(args));
    });
}

function addRunsCommand(program: Command, setExit: SetExit): void {
  program
    .command('runs')
    .description("list the agents' hook runs from the journal (~/.hookwerk/records/), newest first")
    .option('--agent <name>', 'only this agent: claude, gemini, codex, copilot, cursor, mcp')
    .option('--since <time>', 'only runs since an ISO time or a span back from now (10m, 2h, 1d)')
    .option('--limit <n>', 'the newest N at most (default 100)')
    .option('--json', 'one JSON record per line instead of the table')
    .option('--verify', "check the journal's hash chain: one line per break, exit 1 when broken")
    .option(
      '--system',
      'the managed journal /var/lib/hookwerk/records/ of the system daemon (root or its account)',
    )
    .action(async (opts) => {
      const { runsCommand } = await import('./runs.ts');
      setExit(runsCommand(opts, out, err));
    });
}

function addTestCommand(program: Command, setExit: SetExit): void {
  program
    .command('test')
    .description(
      'run policy test files through exactly what `hookwerk hook` runs (default: .hookwerk/tests/*.json, ~/.hookwerk/tests/*.json)',
    )
    .argument('[paths...]', 'test files, or folders of them (a folder with a tests/ folder: its tests)')
    .option(
      '--policy <file>',
      'the policy file to test instead of the user and project policy (a file under edit)',
    )
    .option('--agent <agent>', "every case is this agent's: claude, gemini, codex, copilot or cursor")
    .option('--project <dir>', 'the project the cases run in (default: the current folder)')
    .option('--json', 'one JSON object per case, then a summary object')
    .option('--record <n>', 'write the last N journal entries out as cases (expect: what happened)')
    .option('-o, --output <file>', 'with --record: the test file to write (default: stdout)')
    .action(async (paths: string[], opts) => {
      // Loaded on use: no other command pays for it.
      const { testCommand } = await import('./test.ts');
      setExit(await testCommand(paths, opts, out, err));
    });
}

function addInstallCommand(program: Command, setExit: SetExit): void {
  const verbs = {
    install: "add hookwerk's hook entries to an agent's own hook file (they run the policy)",
    uninstall: 'remove exactly what install added',
  } as const;
  for (const [verb, description] of Object.entries(verbs)) {
    program
      .command(verb)
      .description(description)
      .requiredOption('--agent <agent>', 'claude, gemini, codex, copilot or cursor')
      .option('--project <dir>', 'the project whose hook file is meant (default: the current folder)')
      .option('--user', "the agent's hook file in your home folder instead")
      .option(
        '--system',
        "the agent's administrator-owned hook file under /etc instead (as root; docs/managed.md)",
      )
      .option('--dry-run', 'print the change, write nothing')
      .option('--force', 'install even when the policy has errors (install only)')
      .action(async (opts) => {
        // Loaded on use: no other command pays for it.
        const { installCommand } = await import('./install.ts');
        setExit(installCommand(verb === 'install' ? 'install' : 'uninstall', opts, out, err));
      });
  }
}

function addMcpProxyCommand(program: Command, setExit: SetExit): void {
  program
    .command('mcp-proxy')
    .description("an MCP server in front of another that gates its tool calls with the project's hooks")
    .allowUnknownOption()
    .helpOption(false)
    .argument(
      '[args...]',
      '[--name NAME] [--project DIR] [--dialect claude|lurus] [--mode enforce|audit] (-- COMMAND [ARGS...] | --url URL)',
    )
    .action(async (args: string[]) => {
      // Loaded on use: the MCP SDK stays out of every other command's start-up.
      const { mcpProxyCommand } = await import('./mcp-proxy.ts');
      setExit(await mcpProxyCommand(args));
    });
}

function addSetupSystemCommand(program: Command, setExit: SetExit): void {
  program
    .command('setup-system')
    .description(
      "as root: the system daemon's account, /run/hookwerk and the managed journal /var/lib/hookwerk/records (idempotent; docs/managed.md)",
    )
    .option('--user <name>', 'an existing account for the daemon instead of creating "hookwerk"')
    .action(async (opts) => {
      const { setupSystemCommand } = await import('./setup-system.ts');
      setExit(setupSystemCommand(opts, out));
    });
}

function addDaemonCommand(program: Command, setExit: SetExit): void {
  const daemon = withFleetOptions(
    program
      .command('daemon')
      .description(
        'keep the policy engines warm for `hookwerk hook` on a Unix socket (foreground; prints ready); a hook call starts one when none runs',
      ),
  )
    .option('--socket <path>', 'the socket (default: $HOOKWERK_DAEMON_SOCKET, else ~/.hookwerk/daemon.sock)')
    .option(
      '--idle <minutes>',
      'exit after this many minutes without a call (fractions allowed; 0: never; default $HOOKWERK_DAEMON_IDLE, else 30)',
    )
    .option(
      '--log <file>',
      'write its lines to this file, bounded at 1 MiB (what a hook call starts it with)',
    )
    .option(
      '--shutdown-grace-ms <ms>',
      'on SIGINT/SIGTERM: how long running calls may finish before they are dropped (default 5000)',
    )
    .option(
      '--system',
      'the managed layer for every user on /run/hookwerk/daemon.sock (as root; drops to its account; docs/managed.md)',
    )
    .option('--user <name>', 'with --system: the account to run as (default hookwerk)')
    .action(async (opts) => {
      if (opts.system === true) {
        const { systemDaemonCommand } = await import('./system-daemon.ts');
        setExit(await systemDaemonCommand(opts, out, err));
        return;
      }
      if (opts.user !== undefined) throw new CliError('--user goes with --system');
      // Loaded on use: the socket server stays out of every other command's start-up.
      const { daemonCommand } = await import('./daemon.ts');
      setExit(await daemonCommand(opts, out, err));
    });
  daemon
    .command('status')
    .description('whether a daemon runs (exit 0; 1 when none): its pid, socket, start, calls and engines')
    .option('--json', 'one JSON object: {running, pid, socket, since, calls, idleExitMinutes, engines}')
    .option('--system', 'the system daemon (/run/hookwerk/daemon.sock)')
    .action(async (_opts, cmd: Command) => {
      // `--socket` is the daemon's own option, wherever it is given.
      const { daemonStatusCommand } = await import('./daemon-status.ts');
      setExit(await daemonStatusCommand(cmd.optsWithGlobals(), out));
    });
  daemon
    .command('stop')
    .description('stop the running daemon: running calls finish, the socket goes; waits until it exited')
    .option('--system', 'the system daemon (as root or its account)')
    .action(async (_opts, cmd: Command) => {
      const { daemonStopCommand } = await import('./daemon-status.ts');
      setExit(await daemonStopCommand(cmd.optsWithGlobals(), out));
    });
}

function dialectOption() {
  const names = Object.keys(GATE_DIALECTS);
  return new Command()
    .createOption('--dialect <dialect>', `gate dialect: ${names.join(', ')} (default lurus)`)
    .choices(names);
}

/** The version in our package.json (two folders up from `src/cli/` and `dist/cli/`). */
function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return z.object({ version: z.string() }).parse(JSON.parse(text)).version;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function hidden(flags: string, description: string) {
  return new Command().createOption(flags, description).hideHelp();
}

/** Runs the CLI; resolves with the exit code. Errors become one line on stderr, never a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
  // `hookwerk … | head`: a closed stdout ends the command quietly, never with a stack trace.
  process.stdout.on('error', (e) => {
    if (errorCode(e) === 'EPIPE') process.exit(0);
  });
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv]);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander already printed its message (or the help).
      return err.exitCode === 0 ? 0 : 1;
    }
    if (err instanceof CliError) {
      process.stderr.write(err.message.includes('\n') ? `${err.message}\n` : `hookwerk: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`hookwerk: ${errorMessage(err)}\n`);
    if (process.env.HOOKWERK_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}
