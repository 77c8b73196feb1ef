// SPEC §14.6, its first rows: the guard layer's in-process cost, against baselines in the same run.
//
//   action view   actionView() of a typical 120-character Bash command line (a cd, a pipeline,
//                 a redirect, a git commit; its paths resolved on a real project folder) vs the
//                 shell lexer alone on the same line: what the view adds to reading the text
//   permissions   decide('PreToolUse') of a Bash call (the same line) through a policy of 30
//                 permission rules (deny, ask and allow; Bash, Read, Edit, WebFetch, mcp; none
//                 matching, so every rule is tried), p50 of single awaited calls, vs the same
//                 engine with a policy without permissions (the engine's own decide, same input).
//                 Guards and CEL rules join this row when they exist (G-LIB, G-CEL).
//   guards        the same decide through the same 30 rules and every shipped guard turned on
//                 (G-LIB-1; none objects to the line, so each reads it), p50, vs the 30 rules alone
//                 in the same run: what the guards add.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { actionView } from '../dist/action/action-view.js';
import { lexShell } from '../dist/core/shell-lexer.js';
import { GUARD_TABLE } from '../dist/guards/guard-table.js';
import { createHookEngine } from '../dist/index.js';
import { CEL_RULES } from './decide.js';
import {
  fmtRatio,
  fmtUs,
  median,
  nowUs,
  progress,
  quantile,
  quietLogger,
  timeBatches,
  verdict,
} from './lib.js';

/** 120 characters, as an agent writes them. */
export const LINE =
  'cd src && grep -rn "TODO" --include="*.ts" . | sort -ru | head -20 > /tmp/todo.txt && git commit -am "chore: list todos"';

const RULES = {
  deny: [
    'Bash(rm -rf *)',
    'Bash(git push --force *)',
    'Bash(git push -d *)',
    'Bash(git reset --hard *)',
    'Bash(curl * | sh)',
    'Bash(sudo *)',
    'Bash(chmod -R 777 *)',
    'Bash(dd of=/dev/*)',
    'Read(.env)',
    'Read(~/.ssh/**)',
    'Read(*.pem)',
    'Edit(.git/**)',
    'Edit(/.hookwerk/**)',
    'WebFetch(domain:evil.example)',
    'mcp__github__delete_repo',
  ],
  ask: ['Bash(npm publish *)', 'Bash(docker push *)', 'Bash(git push *)', 'Edit(package.json)', 'mcp__notes'],
  allow: [
    'Bash(npm test)',
    'Bash(npm run lint *)',
    'Bash(ls *)',
    'Bash(cat *)',
    'Bash(git status *)',
    'Bash(git diff *)',
    'Read(src/**)',
    'Edit(src/**)',
    'WebFetch(domain:docs.example.com)',
    'Bash(echo *)',
  ],
};

function world(policy) {
  const root = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-guard-'));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  writeFileSync(path.join(home, '.hookwerk', 'policy.json'), JSON.stringify(policy));
  return { root, home, project, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Single awaited calls of `fn`, each timed; `warmup` first. */
async function eachCall(fn, { n = 20_000, warmup = 20_000 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = nowUs();
    await fn();
    times[i] = nowUs() - t0;
  }
  return times;
}

async function policyEngine(w) {
  return createHookEngine({
    projectDir: w.project,
    home: w.home,
    env: { ...process.env, HOME: w.home },
    gateDialect: 'policy',
    watch: false,
    plugins: false,
    logger: quietLogger,
  });
}

export async function run() {
  const rows = [];
  if (LINE.length !== 120) throw new Error(`the line is ${LINE.length} characters`);

  // The action view vs the lexer alone, on the same line, batches interleaved.
  {
    const w = world({});
    try {
      const ctx = { projectDir: w.project, home: w.home };
      const input = (i) => ({ tool_name: 'Bash', tool_input: { command: LINE }, cwd: w.project, i });
      const v = actionView(input(0), ctx);
      if (v.commands.length !== 5 || v.unreadable)
        throw new Error(`view: ${JSON.stringify(v.commands.map((c) => c.name))}`);
      const views = [];
      const lexes = [];
      for (let round = 0; round < 5; round++) {
        views.push(
          ...timeBatches((i) => actionView(input(i), ctx), { batchSize: 500, batches: 11, warmup: 2000 }),
        );
        lexes.push(...timeBatches(() => lexShell(LINE), { batchSize: 500, batches: 11, warmup: 2000 }));
      }
      const view = median(views);
      const lex = median(lexes);
      progress(`guard/view: ${fmtUs(view)} per view, ${fmtUs(lex)} per lex`);
      rows.push({
        benchmark: `action view of a typical 120-character command line (${v.commands.length} commands, ${v.paths.length} paths resolved)`,
        hookwerk: fmtUs(view),
        baseline: `${fmtUs(lex)} (the shell lexer alone on the same line)`,
        ratio: fmtRatio(view / lex),
        target: '≤ 20 µs',
        verdict: verdict(view <= 20),
      });
    } finally {
      w.cleanup();
    }
  }

  // 30 permission rules decided in-process, p50, vs the same engine without permissions.
  {
    const ruled = world({ permissions: RULES });
    const bare = world({});
    const withRules = await policyEngine(ruled);
    const without = await policyEngine(bare);
    try {
      const count = RULES.deny.length + RULES.ask.length + RULES.allow.length;
      if (count !== 30) throw new Error(`${count} rules`);
      const call = (w) => ({
        session_id: 's',
        cwd: w.project,
        tool_name: 'Bash',
        tool_input: { command: LINE },
      });
      const d = await withRules.decide('PreToolUse', call(ruled));
      if (d.blocked || d.decision !== 'allow' || d.runs.some((r) => r.outcome !== 'ok'))
        throw new Error(`the bench line was decided: ${JSON.stringify(d)}`);
      const a = [];
      const b = [];
      for (let round = 0; round < 4; round++) {
        a.push(
          ...(await eachCall(() => withRules.decide('PreToolUse', call(ruled)), {
            n: 5000,
            warmup: round === 0 ? 20_000 : 1000,
          })),
        );
        b.push(
          ...(await eachCall(() => without.decide('PreToolUse', call(bare)), {
            n: 5000,
            warmup: round === 0 ? 20_000 : 1000,
          })),
        );
      }
      const p50 = quantile(a, 0.5);
      const base = quantile(b, 0.5);
      progress(
        `guard/permissions: p50 ${fmtUs(p50)} (p90 ${fmtUs(quantile(a, 0.9))}), without ${fmtUs(base)}`,
      );
      rows.push({
        benchmark: `a policy of ${count} permission rules decided in-process (Bash call of the line above; p50 of single awaited decide() calls)`,
        hookwerk: fmtUs(p50),
        baseline: `${fmtUs(base)} (the same decide() with a policy without permissions)`,
        ratio: fmtRatio(p50 / base),
        target: '≤ 50 µs p50',
        verdict: verdict(p50 <= 50),
      });
    } finally {
      await withRules.close();
      await without.close();
      ruled.cleanup();
      bare.cleanup();
    }
  }
  rows.push(...(await guardRows()));
  return rows;
}

/**
 * [G-PERF-1] The whole policy of SPEC §14.6: 30 rules, every shipped guard, and 5 CEL rules
 * (also what bench/hook.js runs through the daemon and cold).
 */
export function gPerfPolicy() {
  return {
    permissions: RULES,
    guards: Object.fromEntries(GUARD_TABLE.map((g) => [g.name, true])),
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: CEL_RULES.map((r) => ({ type: 'rule', ...r })) }] },
  };
}

/** [G-LIB-1] (SPEC §14.6) 30 rules + every shipped guard, p50, vs the 30 rules alone. */
export async function guardRows() {
  const names = GUARD_TABLE.map((g) => g.name);
  const guarded = world(gPerfPolicy());
  const rulesOnly = world({ permissions: RULES });
  const withGuards = await policyEngine(guarded);
  const without = await policyEngine(rulesOnly);
  try {
    const call = (w) => ({
      session_id: 's',
      cwd: w.project,
      tool_name: 'Bash',
      tool_input: { command: LINE },
    });
    const d = await withGuards.decide('PreToolUse', call(guarded));
    if (d.blocked || d.decision !== 'allow' || d.runs.some((r) => r.outcome !== 'ok'))
      throw new Error(`the bench line was objected to: ${JSON.stringify(d)}`);
    const a = [];
    const b = [];
    for (let round = 0; round < 4; round++) {
      const warmup = round === 0 ? 20_000 : 1000;
      a.push(...(await eachCall(() => withGuards.decide('PreToolUse', call(guarded)), { n: 5000, warmup })));
      b.push(...(await eachCall(() => without.decide('PreToolUse', call(rulesOnly)), { n: 5000, warmup })));
    }
    const p50 = quantile(a, 0.5);
    const base = quantile(b, 0.5);
    progress(`guard/guards: p50 ${fmtUs(p50)} (p90 ${fmtUs(quantile(a, 0.9))}), rules alone ${fmtUs(base)}`);
    return [
      {
        benchmark: `30 permission rules + the ${names.length} shipped guards (${names.join(', ')}) + 5 CEL rules decided in-process (the line above; p50)`,
        hookwerk: fmtUs(p50),
        baseline: `${fmtUs(base)} (the same decide with the 30 rules alone)`,
        ratio: fmtRatio(p50 / base),
        target: '≤ 50 µs p50 [G-PERF-1]',
        verdict: verdict(p50 <= 50),
      },
    ];
  } finally {
    await withGuards.close();
    await without.close();
    guarded.cleanup();
    rulesOnly.cleanup();
  }
}
