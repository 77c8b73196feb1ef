import { Command, CommanderError } from 'commander';
import { demoCommand } from './demo.ts';
import { emitCommand } from './emit.ts';
import { CliError } from './errors.ts';
import { validateCommand } from './validate.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);

function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('hookwerk')
    .description('Hooks engine for AI agent runtimes (prx observe + lurus gate dialects).')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');

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
    .addOption(hidden('--timestamp <iso>', 'envelope timestamp (used by the background runner)'))
    .addOption(hidden('--depth <n>', 'event depth (used by the background runner)'))
    .action(async (event: string, opts) => setExit(await emitCommand(event, opts, out)));

  program
    .command('validate')
    .description('check hooks.json: every problem with file, JSON path and reason (exit 1 on any)')
    .option('--workspace <dir>', 'PRX workspace folder', '.')
    .action((opts) => setExit(validateCommand(opts, out)));

  program
    .command('demo')
    .description('run a scripted agent session against the bundled example workspace')
    .option('--no-keep', 'delete the demo workspace afterwards')
    .action(async (opts) => setExit(await demoCommand(opts, out)));

  return program;
}

function hidden(flags: string, description: string) {
  return new Command().createOption(flags, description).hideHelp();
}

/** Runs the CLI; resolves with the exit code. Errors become one line on stderr, never a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
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
    process.stderr.write(`hookwerk: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.HOOKWERK_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}
