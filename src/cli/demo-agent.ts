import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { approveProject } from '../consent/project-consent.ts';
import type { AgentGateEntry, DemoStep, DialectDemo } from '../dialects/agent/gate-dialect.ts';
import { type AgentGateDialect, GATE_DIALECTS } from '../dialects/gate-dialects.ts';
import { createHookEngine } from '../engine.ts';
import type { GateDecision } from '../engine-api.ts';
import { packageRoot, shellQuote } from '../install/hook-command.ts';
import { silentLogger } from '../records/logger.ts';
import { CliError } from './cli-error.ts';

/** The dialects that bring a demo, for `demo --dialect`. */
export function demoDialects(): AgentGateDialect[] {
  return Object.keys(GATE_DIALECTS).filter(
    (name): name is AgentGateDialect => name !== 'lurus' && demoOf(name) !== undefined,
  );
}

function demoOf(name: string): { entry: AgentGateEntry; demo: DialectDemo } | undefined {
  if (name === 'lurus' || !Object.hasOwn(GATE_DIALECTS, name)) return undefined;
  const entry: AgentGateEntry = Reflect.get(GATE_DIALECTS, name);
  return entry.demo === undefined ? undefined : { entry, demo: entry.demo };
}

/**
 * `hookwerk demo --dialect NAME`: a project guarded by hook files and scripts written for that
 * agent, run unchanged: before consent, the review and approval, then a scripted session. The
 * trust store lives in a temp HOME: the demo never touches yours.
 */
export async function agentDemoCommand(
  dialect: AgentGateDialect,
  opts: { keep?: boolean },
  out: (line: string) => void,
): Promise<number> {
  const found = demoOf(dialect);
  if (found === undefined) throw new CliError(`no demo for ${dialect}`);
  const { entry, demo } = found;
  const plugin = await entry.load();
  const project = mkdtempSync(path.join(tmpdir(), `hookwerk-${dialect}-demo-`));
  const home = mkdtempSync(path.join(tmpdir(), `hookwerk-${dialect}-demo-home-`));
  cpSync(fileURLToPath(new URL(`../../examples/${demo.example}/`, import.meta.url)), project, {
    recursive: true,
  });
  const engine = await createHookEngine({
    projectDir: project,
    home,
    gateDialect: dialect,
    sessionId: `sess_${dialect}_demo`,
    watch: false,
    logger: silentLogger,
  });
  try {
    out(`hookwerk demo (${plugin.label} dialect): project ${project}`);
    out(`${engine.gate.config.entries.length} hooks in ${demo.files}\n`);
    out('Before consent, project hooks never run (nothing of them is evaluated):');
    out(`  ${await ask(demo.before)}`);

    const approval = approveProject(plugin.load({ projectDir: project, home }, {}));
    engine.gate.reload();
    out(
      `\nApproved (as \`hookwerk trust --yes\` does): ${Object.keys(approval.entry.files).length} paths pinned by sha-256 in ${approval.file}\n`,
    );
    out('A scripted session:');
    for (const step of demo.steps) out(`  ${await ask(step)}`);
  } finally {
    await engine.close();
  }
  if (demo.log !== undefined) {
    const log = path.join(project, demo.log.file);
    const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0;
    out(`\n${demo.log.what} wrote ${lines} line(s) to ${demo.log.file} (it never decides).`);
  }
  const [event, input] = demo.tryIt;
  if (opts.keep === false)
    out('Try it yourself: run the demo without --no-keep, it keeps the project for you.');
  else {
    // (issue 31) This very hookwerk by path, not `npx hookwerk`: from a checkout or an unpublished
    // tarball, npx would look the name up in the registry (E404).
    const bin = shellQuote(path.join(packageRoot(), 'bin', 'hookwerk.js'));
    out(
      `Try it yourself: cd ${shellQuote(project)} && echo ${shellQuote(JSON.stringify(input))} | HOME=${shellQuote(home)} node ${bin} decide ${event} --dialect ${dialect}`,
    );
  }
  if (opts.keep === false) {
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  return 0;

  async function ask([event, input, what]: DemoStep): Promise<string> {
    return line(event, what, await engine.decide(event, input));
  }
}

/** One decision as a line: what was asked, what the gate said, and why. */
function line(event: string, what: string, d: GateDecision): string {
  const verdict = d.blocked ? 'BLOCKED (exit 2)' : d.decision === 'allow' ? 'allowed' : d.decision;
  const why =
    d.reason ??
    d.additionalContext ??
    d.runs.find((r) => r.outcome === 'skipped_untrusted')?.reason ??
    (d.runs.length === 0 ? 'no hook decides' : '');
  const env = 'env' in d && d.env !== undefined ? `; env ${JSON.stringify(d.env)}` : '';
  return `${event.padEnd(16)} ${what.padEnd(32)} → ${verdict}${why !== '' ? `: ${why}` : ''}${env}`;
}
