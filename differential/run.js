// `npm run differential [-- claude|gemini|codex …] [--case TEXT]`: hookwerk against the real Claude
// Code, Gemini CLI and Codex CLI, case by case (SPEC D-DIFF-1). It is a report: it exits 0 whenever it ran, and
// non-zero only when a tool could not be installed or started. See docs/differential.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLAUDE_CASES } from './claude-cases.js';
import { CODEX_CASES } from './codex-cases.js';
import { COPILOT_CASES } from './copilot-cases.js';
import { GEMINI_CASES } from './gemini-cases.js';
import { HOOKWERK_ROOT } from './hookwerk-side.js';
import { ensureTool, TOOLS } from './install.js';
import { installStepTable, runInstallSuite } from './install-run.js';
import { killAllRuns } from './processes.js';
import { caseLine, tally, writeReport } from './report.js';
import { runCase } from './run-case.js';

const TOOL_TIMEOUT_MS = 90_000;
const DECIDE_TIMEOUT_MS = 60_000;
const CASE_TIMEOUT_MS = 300_000;
const CASES = { claude: CLAUDE_CASES, gemini: GEMINI_CASES, codex: CODEX_CASES, copilot: COPILOT_CASES };

const args = process.argv.slice(2);
/** `--case TEXT` (repeatable): the cases whose name contains one of the texts. */
const only = args.flatMap((a, i) => (args[i - 1] === '--case' ? [a] : []));
const picked = args.filter((a, i) => (a in CASES || a === 'install') && args[i - 1] !== '--case');
const dialects = picked.length > 0 ? picked : ['claude', 'gemini', 'codex', 'copilot'];

if (args.includes('--list')) {
  // The case tables as markdown, for docs/differential.md.
  for (const dialect of dialects) {
    if (dialect === 'install') {
      console.log(`\n${installStepTable().join('\n')}`);
      continue;
    }
    console.log(`\n| ${TOOLS[dialect].label} case | what it checks |\n|---|---|`);
    for (const c of CASES[dialect])
      console.log(
        `| \`${c.name}\`${c.deliberate ? ' (deliberate)' : ''} | ${c.about.replaceAll('|', '\\|')} |`,
      );
  }
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAllRuns();
    process.exit(130);
  });
}

// A minimal environment for the tools: nothing of the caller's own (tokens, proxies, agent
// variables) leaks into them or into the hooks; HOME is set per case.
const baseEnv = {
  PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  LANG: 'C.UTF-8',
  TERM: 'dumb',
  NO_COLOR: '1',
  TZ: 'UTC',
};

const outDir = mkdtempSync(path.join(realpathSync(tmpdir()), 'hookwerk-differential-'));
const commit = git(['rev-parse', 'HEAD']);
const dirty = git(['status', '--porcelain', '--', 'src', 'bin']) !== '';
const report = {
  hookwerk: HOOKWERK_ROOT,
  commit,
  dirty,
  started: new Date().toISOString(),
  outDir,
  tools: {},
};
console.log(
  `differential: hookwerk ${HOOKWERK_ROOT} at ${commit.slice(0, 12)}${dirty ? ' (src changed)' : ''}, artifacts in ${outDir}`,
);

const totals = { agree: 0, total: 0 };
let failed = false;
for (const dialect of dialects) {
  if (dialect === 'install') {
    // Its own flow (install-run.js): one guard installed into every agent; --case picks agents.
    const agents = Object.keys(CASES).filter((a) => only.length === 0 || only.some((t) => a.includes(t)));
    const r = await runInstallSuite({ outDir, baseEnv, agents, toolTimeoutMs: TOOL_TIMEOUT_MS });
    console.log(`install: ${r.agree}/${r.total} agree`);
    report.tools.install = r;
    totals.agree += r.agree;
    totals.total += r.total;
    failed ||= r.failed;
    continue;
  }
  const cases = CASES[dialect].filter((c) => only.length === 0 || only.some((t) => c.name.includes(t)));
  let tool;
  try {
    tool = await ensureTool(dialect);
  } catch (e) {
    console.log(`${TOOLS[dialect].label}: cannot install: ${e.message}`);
    failed = true;
    continue;
  }
  const label = `${tool.label}@${tool.version}`;
  console.log(
    `${label}: ${tool.installed ? 'installed into' : 'from the cache'} ${tool.dir}; ${cases.length} cases`,
  );
  const started = Date.now();
  const results = [];
  for (const kase of cases) {
    const root = path.join(outDir, dialect, kase.name);
    mkdirSync(root, { recursive: true });
    let r;
    try {
      r = await runCase({
        dialect,
        tool,
        kase,
        root,
        baseEnv,
        toolTimeoutMs: TOOL_TIMEOUT_MS,
        decideTimeoutMs: DECIDE_TIMEOUT_MS,
        caseTimeoutMs: CASE_TIMEOUT_MS,
      });
    } catch (e) {
      r = { name: kase.name, deliberate: kase.deliberate, agree: false, error: e.message };
      if (/did not start/.test(e.message)) failed = true;
    }
    results.push(r);
    console.log(caseLine(r));
  }
  const t = tally(results);
  const seconds = Math.round((Date.now() - started) / 1000);
  const deliberate = t.deliberate > 0 ? `, ${t.deliberate} deliberate differences not counted` : '';
  console.log(`${label}: ${t.agree}/${t.total} agree${deliberate} (${seconds} s)`);
  report.tools[dialect] = { tool: label, ...t, seconds, results };
  totals.agree += t.agree;
  totals.total += t.total;
}
const file = path.join(outDir, 'report.json');
writeReport(file, { ...report, finished: new Date().toISOString() });
console.log(`report: ${file}`);
console.log(`${totals.agree}/${totals.total} agree`);
process.exitCode = failed ? 1 : 0;

function git(argv) {
  try {
    return execFileSync('git', ['-C', HOOKWERK_ROOT, ...argv], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
