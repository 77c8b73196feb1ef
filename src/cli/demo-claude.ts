import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { approveProject } from '../consent/project-consent.ts';
import { loadClaudeConfig } from '../dialects/claude/source.ts';
import { createHookEngine } from '../engine.ts';
import type { GateDecision } from '../engine-api.ts';
import { silentLogger } from '../records/logger.ts';

const SESSION = 'sess_claude_demo';

/** A scripted Claude Code session: each step is what the agent would ask the gate. */
const STEPS: ReadonlyArray<[string, Record<string, unknown>, string]> = [
  ['SessionStart', { source: 'startup' }, 'session opens'],
  ['UserPromptSubmit', { prompt: 'Add a parser test' }, 'a normal prompt'],
  ['UserPromptSubmit', { prompt: 'use api_key=sk-live-123 for the test' }, 'a prompt with a secret'],
  ['PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' } }, 'Bash: npm test'],
  [
    'PreToolUse',
    { tool_name: 'Bash', tool_input: { command: 'rm -rf build && rm -rf /' } },
    'Bash: rm -rf /',
  ],
  [
    'PreToolUse',
    { tool_name: 'Write', tool_input: { file_path: 'src/parser.test.ts', content: '…' } },
    'Write a test',
  ],
  [
    'PreToolUse',
    { tool_name: 'Edit', tool_input: { file_path: '.env', old_string: 'a', new_string: 'b' } },
    'Edit .env',
  ],
  [
    'PostToolUse',
    { tool_name: 'Write', tool_input: { file_path: 'src/parser.test.ts' }, tool_response: {} },
    'after Write',
  ],
  ['Stop', { stop_hook_active: false }, 'the agent wants to stop'],
  ['Stop', { stop_hook_active: true }, 'it stops again after continuing'],
];

function claudeDemoSource(): string {
  return fileURLToPath(new URL('../../examples/claude-demo/', import.meta.url));
}

/**
 * `hookwerk demo --dialect claude`: a project guarded by its `.claude/settings.json` and hook
 * scripts written for Claude Code, run unchanged: before consent, the review and approval, then a
 * scripted session. The trust store lives in a temp HOME: the demo never touches yours.
 */
export async function claudeDemoCommand(
  opts: { keep?: boolean },
  out: (line: string) => void,
): Promise<number> {
  const project = mkdtempSync(path.join(tmpdir(), 'hookwerk-claude-demo-'));
  const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-claude-demo-home-'));
  cpSync(claudeDemoSource(), project, { recursive: true });
  const engine = await createHookEngine({
    projectDir: project,
    home,
    gateDialect: 'claude',
    sessionId: SESSION,
    watch: false,
    logger: silentLogger,
  });
  try {
    out(`hookwerk demo (Claude Code dialect): project ${project}`);
    out(
      `.claude/settings.json: ${engine.gate.config.entries.length} hooks; their scripts in .claude/hooks/ are written for Claude Code\n`,
    );
    out('Before consent, project hooks never run (nothing of them is evaluated):');
    out(
      `  ${line('PreToolUse', 'Bash: ls', await engine.decide('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }))}`,
    );

    const review = loadClaudeConfig({ projectDir: project, home });
    const approval = approveProject(review);
    engine.gate.reload();
    out(
      `\nApproved (as \`hookwerk trust --yes\` does): ${Object.keys(approval.entry.files).length} paths pinned by sha-256 in ${approval.file}\n`,
    );
    out('A scripted session:');
    for (const [event, input, what] of STEPS)
      out(`  ${line(event, what, await engine.decide(event, input))}`);
  } finally {
    await engine.close();
  }
  const audit = path.join(project, 'logs', 'tool-audit.jsonl');
  const lines = existsSync(audit) ? readFileSync(audit, 'utf8').trim().split('\n').length : 0;
  out(`\nThe async PostToolUse hook wrote ${lines} line(s) to logs/tool-audit.jsonl (it never decides).`);
  out(
    `Try it yourself: cd ${project} && echo '{"tool_name":"Bash","tool_input":{"command":"sudo ls"}}' | HOME=${home} npx hookwerk decide PreToolUse --dialect claude`,
  );
  if (opts.keep === false) {
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  return 0;
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
