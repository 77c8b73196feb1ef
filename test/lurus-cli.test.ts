import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, REPO, runCli, STACK } from './cli-runner.ts';
import { tempDir, writeScript } from './helpers.ts';

// §2 (gate dialect) and §3 (command line), run for real: `node bin/hookwerk.js …` as a child
// process in a temp project, with HOME pointed at a temp folder (never the real ~).
const EVENT_NAMES = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'PreCompact',
  'Notification',
];
const DENY_LINE = `printf '%s\\n' '{"decision":"deny","reason":"Write is blocked by this project hook."}'`;
const ALLOW_LINE = `printf '%s\\n' '{"decision":"allow"}'`;

/** Runs the CLI to completion with `HOME` = a temp folder; inherited hookwerk variables are removed. */
const cli = (args: string[], opts: { cwd: string; home: string; stdin?: 'ignore' | { text: string } }) =>
  runCli(args, opts);

/** A temp project folder and a temp HOME, both by their real paths (the CLI reports real paths). */
function setup(): { project: string; home: string; run: (args: string[]) => Promise<CliResult> } {
  const project = realpathSync(tempDir('hw-lproj-'));
  const home = realpathSync(tempDir('hw-lhome-'));
  return { project, home, run: (args) => cli(args, { cwd: project, home }) };
}

function writeJson(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

const lurus = (base: string, name: string) => path.join(base, '.lurus', name);
const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

interface RunRecordJson {
  hook: string;
  source: string;
  event: string;
  outcome: string;
  durationMs: number;
  reason?: string;
  cause?: string;
}

interface DecisionJson {
  decision: 'allow' | 'deny';
  blocked: boolean;
  reason?: string;
  additionalContext?: string;
  runs: RunRecordJson[];
}

/** [L-ANS-4] stdout of `decide` is exactly one line of JSON holding the decision. */
function decisionOf(r: CliResult): DecisionJson {
  expect(r.stdout.endsWith('\n'), r.stdout).toBe(true);
  expect(r.stdout.split('\n'), r.stdout).toHaveLength(2);
  const d = JSON.parse(r.stdout) as DecisionJson;
  expect(['allow', 'deny']).toContain(d.decision);
  expect(typeof d.blocked).toBe('boolean');
  expect(Array.isArray(d.runs)).toBe(true);
  for (const run of d.runs) {
    expect(typeof run.hook).toBe('string');
    expect(typeof run.outcome).toBe('string');
    expect(typeof run.durationMs).toBe('number');
  }
  return d;
}

/** A user-facing error: exit 1, exactly one line on stderr, no stack trace. */
function expectOneLineFailure(r: CliResult): string {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr).not.toMatch(/node:internal|Unhandled/);
  const err = lines(r.stderr);
  expect(err, r.stderr).toHaveLength(1);
  return err[0]!;
}

/** `file: $.json.path: reason` lines of `validate`, parsed. */
function problemsOf(stderr: string): Array<{ file: string; path: string; reason: string }> {
  const shape = /^(\/[^:]+): (\$[^ ]*): (\S.*)$/;
  return lines(stderr).map((line) => {
    const m = shape.exec(line);
    expect(m, `not a "file: path: reason" line: ${line}`).not.toBeNull();
    return { file: m![1]!, path: m![2]!, reason: m![3]! };
  });
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  }
});

describe('[L-GEN-1] [L-TRUST-1] §3 the walkthrough, as a new user does it', () => {
  it('[L-GEN-1] [L-TRUST-1] [L-ANS-4] create-hook → untrusted → edit to deny → trust → blocked → edit → voided → trust → blocked', async () => {
    const { project, home, run } = setup();
    const script = lurus(project, 'hooks/block-write.sh');
    const hooksJson = lurus(project, 'hooks.json');
    const write = ['decide', 'PreToolUse', '--context', '{"toolName":"Write"}'];

    // 1. Generate the hook.
    const created = await run(['create-hook', 'PreToolUse', 'block-write']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    expect(statSync(script).mode & 0o111).not.toBe(0);
    expect(JSON.parse(readFileSync(hooksJson, 'utf8'))).toEqual({
      PreToolUse: [
        { hooks: [{ type: 'command', command: 'sh .lurus/hooks/block-write.sh', timeout: 30000 }] },
      ],
    });

    // 2. Not approved yet: listed as skipped_untrusted, never run; allow, exit 0.
    const before = await run(write);
    expect(before.code, before.stderr).toBe(0);
    const d1 = decisionOf(before);
    expect(d1).toMatchObject({ decision: 'allow', blocked: false });
    expect(d1.runs).toHaveLength(1);
    expect(d1.runs[0]).toMatchObject({
      hook: 'sh .lurus/hooks/block-write.sh',
      event: 'PreToolUse',
      outcome: 'skipped_untrusted',
    });
    expect(d1.runs[0]!.source).toBe(`${hooksJson}#/PreToolUse/0/hooks/0`);

    // 3. Edit: the script denies, the definition matches only Write.
    const text = readFileSync(script, 'utf8');
    expect(text.trimEnd().endsWith(ALLOW_LINE)).toBe(true);
    writeFileSync(script, text.replace(ALLOW_LINE, DENY_LINE));
    const defs = JSON.parse(readFileSync(hooksJson, 'utf8')) as {
      PreToolUse: Array<Record<string, unknown>>;
    };
    defs.PreToolUse[0] = { matcher: '^Write$', ...defs.PreToolUse[0] };
    writeJson(hooksJson, defs);

    // 4. Approve.
    const trusted = await run(['trust', '--yes']);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toMatch(/^approved: 1 project hook of /m);
    expect(existsSync(lurus(home, 'trust.json'))).toBe(true);

    // 5. Write is blocked: exit 2, the script's reason.
    const blocked = await run(write);
    expect(blocked.code, blocked.stderr).toBe(2);
    const d2 = decisionOf(blocked);
    expect(d2).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'Write is blocked by this project hook.',
    });
    expect(d2.runs).toHaveLength(1);
    expect(d2.runs[0]).toMatchObject({ hook: 'sh .lurus/hooks/block-write.sh', outcome: 'deny' });

    // 6. Edit does not match the matcher: allow, no runs.
    const edit = await run(['decide', 'PreToolUse', '--context', '{"toolName":"Edit"}']);
    expect(edit.code, edit.stderr).toBe(0);
    expect(decisionOf(edit)).toEqual({ decision: 'allow', blocked: false, runs: [] });

    // 7. A one-byte edit of the script (same size) voids the consent.
    const approvedText = readFileSync(script, 'utf8');
    const edited = approvedText.replace('# block-write:', '# block_write:');
    expect(edited).not.toBe(approvedText);
    expect(edited.length).toBe(approvedText.length);
    writeFileSync(script, edited);
    const voided = await run(write);
    expect(voided.code, voided.stderr).toBe(0);
    const d3 = decisionOf(voided);
    expect(d3).toMatchObject({ decision: 'allow', blocked: false });
    expect(d3.runs.map((r) => r.outcome)).toEqual(['skipped_untrusted']);

    // 8. Approve again: blocked again.
    const again = await run(['trust', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('.lurus/hooks/block-write.sh (modified)');
    const reblocked = await run(write);
    expect(reblocked.code, reblocked.stderr).toBe(2);
    expect(decisionOf(reblocked)).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'Write is blocked by this project hook.',
    });
  });
});

describe('§3 hookwerk decide [L-ANS-4]', () => {
  /** A trusted (global) hook in the temp HOME for `event` that runs `command`. */
  function globalHook(home: string, event: string, command: string, matcher?: string) {
    const file = lurus(home, 'hooks.json');
    const map = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown[]>) : {};
    map[event] = [
      ...(map[event] ?? []),
      { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command }] },
    ];
    writeJson(file, map);
  }

  const say = (answer: object) => `printf '%s\\n' '${JSON.stringify(answer)}'`;

  it('[L-ANS-4] stdout is exactly one JSON line, even with multi-line contexts and hook stderr noise', async () => {
    const { home, run } = setup();
    globalHook(
      home,
      'UserPromptSubmit',
      `echo 'noise on stderr' >&2; ${say({ decision: 'allow', additionalContext: 'line one\nline two' })}`,
    );
    globalHook(home, 'UserPromptSubmit', say({ decision: 'allow', additionalContext: 'third' }));
    const r = await run(['decide', 'UserPromptSubmit', '--context', '{"prompt":"hi"}']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const d = decisionOf(r);
    expect(d).toMatchObject({
      decision: 'allow',
      blocked: false,
      additionalContext: 'line one\nline two\nthird',
    });
    expect(d.runs.map((x) => x.outcome)).toEqual(['ok', 'ok']);
  });

  it('[L-ANS-4] [L-EV-2] deny on a blocking event → exit 2; on PostToolUse → decision deny, blocked false, exit 0', async () => {
    const { home, run } = setup();
    globalHook(home, 'PreToolUse', say({ decision: 'deny', reason: 'no' }));
    globalHook(home, 'PostToolUse', say({ decision: 'deny', reason: 'too late' }));
    globalHook(home, 'PostToolUse', 'touch "$HOME/second-ran"');

    const pre = await run(['decide', 'PreToolUse', '--context', '{"toolName":"Write"}']);
    expect(pre.code, pre.stderr).toBe(2);
    expect(decisionOf(pre)).toMatchObject({ decision: 'deny', blocked: true, reason: 'no' });

    const post = await run(['decide', 'PostToolUse', '--context', '{"toolName":"Write"}']);
    expect(post.code, post.stderr).toBe(0);
    const d = decisionOf(post);
    expect(d).toMatchObject({ decision: 'deny', blocked: false, reason: 'too late' });
    // The deny still stops the rest [L-EV-2].
    expect(d.runs.map((x) => x.outcome)).toEqual(['deny']);
    expect(existsSync(path.join(home, 'second-ran'))).toBe(false);
  });

  it('[L-ANS-2] exit 2 of a hook is a deny with the reason from stderr; decide exits 2', async () => {
    const { home, run } = setup();
    globalHook(home, 'Stop', "echo 'keep going: tests fail' >&2; exit 2");
    const r = await run(['decide', 'Stop', '--context', '{"trigger":"end_turn"}']);
    expect(r.code, r.stderr).toBe(2);
    expect(decisionOf(r)).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'keep going: tests fail',
    });
  });

  it.each([
    {
      what: 'global deny',
      answer: { decision: 'deny', reason: 'global says no' },
      code: 2,
      decision: 'deny',
    },
    { what: 'global allow', answer: { decision: 'allow' }, code: 0, decision: 'allow' },
  ])(
    '§3 an invalid project source is reported on stderr and skipped; the global hooks still decide ($what)',
    async ({ answer, code, decision }) => {
      const { project, home, run } = setup();
      globalHook(home, 'PreToolUse', say(answer));
      const bad = writeJson(lurus(project, 'hooks.json'), '{ "PreToolUse": [ \n');
      const r = await run(['decide', 'PreToolUse', '--context', '{"toolName":"Write"}']);
      expect(r.code, r.stderr).toBe(code);
      const err = lines(r.stderr);
      expect(err).toHaveLength(1);
      expect(err[0]).toContain(`${bad}: $: invalid JSON`);
      expect(r.stderr).not.toMatch(STACK);
      const d = decisionOf(r);
      expect(d.decision).toBe(decision);
      expect(d.runs).toHaveLength(1);
      expect(d.runs[0]!.source.startsWith(lurus(home, 'hooks.json'))).toBe(true);
    },
  );

  it('§3 an invalid global settings.json is skipped; the global hooks.json and the approved project hooks still run', async () => {
    const { project, home, run } = setup();
    globalHook(home, 'PreToolUse', say({ decision: 'allow', additionalContext: 'global' }));
    writeJson(lurus(project, 'hooks.json'), {
      PreToolUse: [{ hooks: [{ type: 'command', command: say({ decision: 'deny', reason: 'project' }) }] }],
    });
    const bad = writeJson(lurus(home, 'settings.json'), { globalHooks: { NoSuchEvent: [] } });
    expect((await run(['trust', '--yes'])).code).toBe(0);
    const r = await run(['decide', 'PreToolUse', '--context', '{"toolName":"Write"}']);
    expect(r.code, r.stderr).toBe(2);
    // [G-FAIL-5] The file under the home folder is named with `~`.
    expect(bad.startsWith(`${home}/`)).toBe(true);
    expect(lines(r.stderr)).toEqual([
      expect.stringContaining('~/.lurus/settings.json: $.globalHooks.NoSuchEvent: unknown event'),
    ]);
    const d = decisionOf(r);
    expect(d).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'project',
      additionalContext: 'global',
    });
    expect(d.runs.map((x) => x.outcome)).toEqual(['ok', 'deny']);
  });

  it('§3 [L-TRUST-6] an invalid project settings.json written after approval changes nothing that runs; stderr says a newer version waits', async () => {
    const { project, run } = setup();
    writeJson(lurus(project, 'hooks.json'), {
      PreToolUse: [{ hooks: [{ type: 'command', command: say({ decision: 'deny', reason: 'project' }) }] }],
    });
    expect((await run(['trust', '--yes'])).code).toBe(0);
    const bad = writeJson(lurus(project, 'settings.json'), { projectHooks: { NoSuchEvent: [] } });
    const r = await run(['decide', 'PreToolUse', '--context', '{"toolName":"Write"}']);
    expect(r.code, r.stderr).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringContaining(`${realpathSync(path.dirname(bad))}`)]);
    expect(r.stderr).toMatch(/changed since approval: the approved version runs/);
    expect(decisionOf(r)).toMatchObject({ decision: 'deny', reason: 'project' });
    // And trust refuses to approve the broken file.
    const t = await run(['trust', '--yes']);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain(`${bad}: $.projectHooks.NoSuchEvent: unknown event`);
  });

  it.each([
    { what: 'an unknown event', args: ['decide', 'PreToolUsed'], match: /unknown event "PreToolUsed"/ },
    {
      what: 'a lower-case event (JSON-side names are exact)',
      args: ['decide', 'pretooluse'],
      match: /unknown event/,
    },
    {
      what: '--context not JSON',
      args: ['decide', 'PreToolUse', '--context', '{toolName:'],
      match: /--context is not valid JSON/,
    },
    {
      what: '--context an array',
      args: ['decide', 'PreToolUse', '--context', '[{"toolName":"Write"}]'],
      match: /--context must be a JSON object/,
    },
    {
      what: '--context null',
      args: ['decide', 'PreToolUse', '--context', 'null'],
      match: /must be a JSON object/,
    },
  ])(
    '§3 bad arguments ($what) → exit 1, one line, no stack trace, nothing on stdout, no hook run',
    async ({ args, match }) => {
      const { home, run } = setup();
      globalHook(home, 'PreToolUse', 'touch "$HOME/ran"');
      const r = await run(args);
      expect(expectOneLineFailure(r)).toMatch(match);
      expect(r.stdout).toBe('');
      expect(existsSync(path.join(home, 'ran'))).toBe(false);
    },
  );
});

describe('§3 hookwerk validate [L-VAL-1]', () => {
  /** One project hooks.json definition per case; `validate --project` must report exactly that. */
  const CASES: Array<{
    what: string;
    file: 'hooks.json' | 'settings.json';
    content: unknown;
    path: RegExp;
    reason: RegExp;
  }> = [
    {
      what: 'a JSON syntax error in settings.json',
      file: 'settings.json',
      content: '{\n  "projectHooks": {\n    "PreToolUse": [,]\n  }\n}\n',
      path: /^\$$/,
      reason: /^invalid JSON: .*line 3, column 20/,
    },
    {
      what: 'an unknown event name',
      file: 'hooks.json',
      content: { preToolUse: [] },
      path: /^\$\.preToolUse$/,
      reason: /unknown event "preToolUse"/,
    },
    {
      what: 'a wrong hook type',
      file: 'hooks.json',
      content: { PreToolUse: [{ hooks: [{ type: 'script', command: 'true' }] }] },
      path: /^\$\.PreToolUse\[0\]\.hooks\[0\]\.type$/,
      reason: /command.*http|http.*command/,
    },
    {
      what: 'an invalid matcher regex',
      file: 'hooks.json',
      content: { PreToolUse: [{ matcher: '(Write', hooks: [{ type: 'command', command: 'true' }] }] },
      path: /^\$\.PreToolUse\[0\]\.matcher$/,
      reason: /"\(Write" is not a valid regular expression/,
    },
    {
      what: 'a negative timeout',
      file: 'hooks.json',
      content: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true', timeout: -5 }] }] },
      path: /^\$\.PreToolUse\[0\]\.hooks\[0\]\.timeout$/,
      reason: /timeout/,
    },
    {
      what: 'an ftp URL',
      file: 'hooks.json',
      content: { PreToolUse: [{ hooks: [{ type: 'http', url: 'ftp://x' }] }] },
      path: /^\$\.PreToolUse\[0\]\.hooks\[0\]\.url$/,
      reason: /ftp:/,
    },
    {
      what: 'method GET',
      file: 'hooks.json',
      content: { PreToolUse: [{ hooks: [{ type: 'http', url: 'https://h.example/x', method: 'GET' }] }] },
      path: /^\$\.PreToolUse\[0\]\.hooks\[0\]\.method$/,
      reason: /"GET" is not allowed/,
    },
    {
      what: 'an Authorization header',
      file: 'hooks.json',
      content: {
        PreToolUse: [
          {
            hooks: [{ type: 'http', url: 'https://h.example/x', headers: { Authorization: 'Bearer t0k3n' } }],
          },
        ],
      },
      path: /^\$\.PreToolUse\[0\]\.hooks\[0\]\.headers(\.Authorization)?$/,
      reason: /"Authorization" is not allowed/,
    },
    {
      what: 'CRLF in a header value',
      file: 'hooks.json',
      content: {
        PreToolUse: [
          { hooks: [{ type: 'http', url: 'https://h.example/x', headers: { 'X-Note': 'a\r\nX-Evil: 1' } }] },
        ],
      },
      path: /^\$\.PreToolUse\[0\]\.hooks\[0\]\.headers(\["X-Note"\])?$/,
      reason: /CR or LF/,
    },
    {
      what: 'a missing script',
      file: 'hooks.json',
      content: { PreToolUse: [{ hooks: [{ type: 'command', command: 'sh .lurus/hooks/missing.sh' }] }] },
      path: /^\$\.PreToolUse\[0\]\.hooks\[0\]\.command$/,
      reason: /missing\.sh does not exist/,
    },
  ];

  it.each(CASES)(
    '[L-VAL-1] $what → `file: path: reason`, exit 1',
    async ({ file, content, path: p, reason }) => {
      const { project, run } = setup();
      const target = writeJson(lurus(project, file), content);
      const r = await run(['validate', '--project', project]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(STACK);
      const problems = problemsOf(r.stderr);
      expect(problems, r.stderr).toHaveLength(1);
      expect(problems[0]!.file).toBe(target);
      expect(problems[0]!.path).toMatch(p);
      expect(problems[0]!.reason).toMatch(reason);
    },
  );

  it('[L-VAL-1] a project with every kind of problem → every one reported in one run (a schema error must not hide the rest)', async () => {
    // Today a source that fails the schema (unknown event, wrong type, bad timeout) is rejected
    // before its HTTP settings and matchers are checked, and a source with an HTTP problem has no
    // loaded hooks, so its missing scripts are never looked for: 6 of the 10 problems below go
    // unreported and the user finds them one fix at a time.
    const { project, run } = setup();
    const settings = writeJson(lurus(project, 'settings.json'), '{ "projectHooks": ');
    const hooks = writeJson(lurus(project, 'hooks.json'), {
      preToolUse: [],
      PreToolUse: [
        { matcher: '(Write', hooks: [{ type: 'command', command: 'sh .lurus/hooks/missing.sh' }] },
        { hooks: [{ type: 'script', command: 'true' }] },
        { hooks: [{ type: 'command', command: 'true', timeout: -5 }] },
        {
          hooks: [
            {
              type: 'http',
              url: 'ftp://x',
              method: 'GET',
              headers: { Authorization: 'Bearer t0k3n', 'X-Note': 'a\r\nb' },
            },
          ],
        },
      ],
    });
    const r = await run(['validate', '--project', project]);
    expect(r.code, r.stderr).toBe(1);
    const problems = problemsOf(r.stderr);
    const at = (file: string, p: string) =>
      problems
        .filter((x) => x.file === file && x.path === p)
        .map((x) => x.reason)
        .join(' | ');
    const found = {
      syntax: at(settings, '$'),
      event: at(hooks, '$.preToolUse'),
      type: at(hooks, '$.PreToolUse[1].hooks[0].type'),
      timeout: at(hooks, '$.PreToolUse[2].hooks[0].timeout'),
      matcher: at(hooks, '$.PreToolUse[0].matcher'),
      url: at(hooks, '$.PreToolUse[3].hooks[0].url'),
      method: at(hooks, '$.PreToolUse[3].hooks[0].method'),
      headers: problems
        .filter((x) => x.file === hooks && x.path.startsWith('$.PreToolUse[3].hooks[0].headers'))
        .map((x) => x.reason)
        .join(' | '),
      script: at(hooks, '$.PreToolUse[0].hooks[0].command'),
    };
    expect(found).toEqual({
      syntax: expect.stringMatching(/invalid JSON/),
      event: expect.stringMatching(/unknown event "preToolUse"/),
      type: expect.stringMatching(/\S/),
      timeout: expect.stringMatching(/timeout/),
      matcher: expect.stringMatching(/not a valid regular expression/),
      url: expect.stringMatching(/ftp:/),
      method: expect.stringMatching(/GET/),
      headers: expect.stringMatching(/Authorization.*CR or LF|CR or LF.*Authorization/),
      script: expect.stringMatching(/missing\.sh does not exist/),
    });
  });

  it('[L-VAL-1] an HTTP problem in a file must not hide a missing script of the same file', async () => {
    // Today lurusProblems() looks for missing scripts only among loaded hooks, and a file with an
    // HTTP problem loads none: the missing script shows up only after the HTTP hook is fixed.
    const { project, run } = setup();
    const hooks = writeJson(lurus(project, 'hooks.json'), {
      PreToolUse: [
        { hooks: [{ type: 'command', command: 'sh .lurus/hooks/missing.sh' }] },
        { hooks: [{ type: 'http', url: 'https://h.example/x', method: 'GET' }] },
      ],
    });
    const r = await run(['validate', '--project', project]);
    expect(r.code, r.stderr).toBe(1);
    const paths = problemsOf(r.stderr).map((x) => `${x.file}: ${x.path}`);
    expect(paths).toContain(`${hooks}: $.PreToolUse[1].hooks[0].method`);
    expect(paths).toContain(`${hooks}: $.PreToolUse[0].hooks[0].command`);
  });

  it('[L-VAL-1] a clean project (all six sources) → exit 0, nothing on stderr, one ok: line per source', async () => {
    const { project, home, run } = setup();
    writeScript(project, '.lurus/hooks/guard.sh', ALLOW_LINE);
    writeScript(home, '.lurus/hooks/audit.sh', ALLOW_LINE);
    const ph = writeJson(lurus(project, 'hooks.json'), {
      $schema: 'https://example.invalid/lurus.json',
      PreToolUse: [
        {
          matcher: 'Write|Edit',
          hooks: [{ type: 'command', command: 'sh .lurus/hooks/guard.sh', timeout: 5000 }],
        },
        {
          matcher: 'mcp__*',
          hooks: [
            {
              type: 'http',
              url: 'https://hooks.example.com/gate',
              method: 'put',
              headers: { 'X-Team': 'red' },
              failMode: 'closed',
            },
          ],
        },
      ],
    });
    const ps = writeJson(lurus(project, 'settings.json'), {
      theme: 'dark',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
      projectHooks: { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const gh = writeJson(lurus(home, 'hooks.json'), {
      PostToolUse: [{ hooks: [{ type: 'command', command: 'sh ~/.lurus/hooks/audit.sh' }] }],
    });
    const gs = writeJson(lurus(home, 'settings.json'), {
      hooks: { Notification: [{ hooks: [{ type: 'command', command: 'true' }] }] },
      globalHooks: { PreCompact: [{ matcher: '*', hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const r = await run(['validate', '--project', project]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const out = lines(r.stdout);
    expect(out).toEqual(
      expect.arrayContaining([
        `ok: ${gh}: 1 hooks (global)`,
        `ok: ${gs} (hooks): 1 hooks (global)`,
        `ok: ${gs} (globalHooks): 1 hooks (global)`,
        `ok: ${ph}: 2 hooks (project)`,
        `ok: ${ps} (hooks): 1 hooks (project)`,
        `ok: ${ps} (projectHooks): 1 hooks (project)`,
      ]),
    );
    for (const line of out) expect(line).toMatch(/^(ok|note): /);
    // --project alone checks only the Lurus side.
    expect(r.stdout).not.toContain(path.join(project, 'hooks.json:'));
  });

  it('[L-VAL-1] global sources under HOME are checked too, each problem named with its file', async () => {
    const { project, home, run } = setup();
    writeJson(lurus(project, 'hooks.json'), { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] });
    const gh = writeJson(lurus(home, 'hooks.json'), {
      PreToolUse: [{ hooks: [{ type: 'command', command: 'true', timeout: 1.5 }] }],
    });
    // One settings file, two sources: `globalHooks` is invalid (skipped), `hooks` loads but its `~/` script is missing.
    const gs = writeJson(lurus(home, 'settings.json'), {
      globalHooks: { Bogus: [] },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sh ~/.lurus/hooks/gone.sh' }] }] },
    });
    const r = await run(['validate', '--project', project]);
    expect(r.code, r.stderr).toBe(1);
    const problems = problemsOf(r.stderr);
    expect(problems).toContainEqual({
      file: gh,
      path: '$.PreToolUse[0].hooks[0].timeout',
      reason: expect.stringMatching(/whole number/),
    });
    expect(problems).toContainEqual({
      file: gs,
      path: '$.globalHooks.Bogus',
      reason: expect.stringMatching(/unknown event "Bogus"/),
    });
    expect(problems).toContainEqual({
      file: gs,
      path: '$.hooks.Stop[0].hooks[0].command',
      reason: `script file ${lurus(home, 'hooks/gone.sh')} does not exist`,
    });
    // The valid project source is still ok.
    expect(r.stdout).toContain(`ok: ${lurus(project, 'hooks.json')}: 1 hooks (project)`);
  });

  it('[L-VAL-1] [P-CFG-4] `validate` with no flags checks the folder as PRX workspace and as Lurus project, plus HOME', async () => {
    const { project, home, run } = setup();
    const prx = writeJson(path.join(project, 'hooks.json'), { hooks: { tool_cal: [] } });
    const lp = writeJson(lurus(project, 'hooks.json'), { PreToolUse: [{ matcher: '[', hooks: [] }] });
    const lg = writeJson(lurus(home, 'hooks.json'), {
      Stop: [{ hooks: [{ type: 'http', url: 'ftp://x' }] }],
    });
    const r = await run(['validate']);
    expect(r.code, r.stderr).toBe(1);
    const problems = problemsOf(r.stderr);
    expect(problems.map((x) => `${x.file}: ${x.path}`).sort()).toEqual(
      [`${prx}: $.hooks.tool_cal`, `${lp}: $.PreToolUse[0].matcher`, `${lg}: $.Stop[0].hooks[0].url`].sort(),
    );

    // Both sides clean → exit 0 with an ok: line for each.
    writeJson(prx, { hooks: { tool_call: [{ command: '/bin/true' }] } });
    writeJson(lp, { PreToolUse: [{ matcher: 'Write', hooks: [] }] });
    writeJson(lg, { Stop: [{ hooks: [{ type: 'http', url: 'https://h.example/stop' }] }] });
    const ok = await run(['validate']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain(`ok: ${prx}: 1 actions (1 enabled)`);
    expect(ok.stdout).toContain(`ok: ${lp}: 0 hooks (project)`);
    expect(ok.stdout).toContain(`ok: ${lg}: 1 hooks (global)`);
  });

  it('[L-VAL-1] unapproved project hooks are a note, not an error (exit 0); approved ones are ok', async () => {
    const { project, run } = setup();
    writeJson(lurus(project, 'hooks.json'), { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] });
    const r = await run(['validate', '--project', project]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^note: project hooks in .*: not approved \(run `hookwerk trust`\)$/m);
    expect((await run(['trust', '--yes'])).code).toBe(0);
    const after = await run(['validate', '--project', project]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/^ok: project hooks in .*: approved /m);
  });
});

describe('§3 hookwerk explain', () => {
  it('[L-MATCH-1] [L-TRUST-1] [L-TRUST-3] lists every configured hook: RUNS, no match (with the matcher), untrusted (matcher never tested), invalid', async () => {
    const { project, home, run } = setup();
    const gh = writeJson(lurus(home, 'hooks.json'), {
      PreToolUse: [
        { hooks: [{ type: 'command', command: 'echo global-all' }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo global-bash' }] },
      ],
    });
    const ph = writeJson(lurus(project, 'hooks.json'), {
      PreToolUse: [
        { matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'echo project-write' }] },
        { matcher: '^Read$', hooks: [{ type: 'http', url: 'https://h.example/read' }] },
      ],
    });
    const bad = writeJson(lurus(project, 'settings.json'), '{ "hooks": ');

    const r = await run(['explain', 'PreToolUse', '--tool', 'Write']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('PreToolUse with toolName "Write":');
    // Each entry: its label and hook, the reason, [G-FAIL-5] the handler as it runs (for a hook
    // that was read), and where it comes from.
    const entries: Array<{ label: string; hook: string; detail: string; handler?: string; from: string }> =
      [];
    for (let i = 1; i < out.length && out[i] !== ''; ) {
      const m = /^\s+\d+\. (\S+(?: match)?)\s+(.*)$/.exec(out[i]!);
      expect(m, out[i]).not.toBeNull();
      const block = [out[i + 1]!.trim()];
      for (i += 2; !/^\s+from /.test(out[i]!); i++) block.push(out[i]!.trim());
      entries.push({
        label: m![1]!,
        hook: m![2]!,
        detail: block[0]!,
        ...(block[1] !== undefined ? { handler: block[1] } : {}),
        from: out[i++]!.trim(),
      });
    }
    expect(entries.map((e) => [e.label, e.hook])).toEqual([
      ['RUNS', 'echo global-all'],
      ['no match', 'echo global-bash'],
      ['untrusted', 'echo project-write'],
      // [L-TRUST-3] An unapproved source is listed, never evaluated: its matcher is not tested.
      ['untrusted', 'POST https://h.example/read'],
      ['invalid', '(source skipped)'],
    ]);
    expect(entries[0]!.handler).toBe('command, failMode open, timeout 30 s');
    expect(entries[2]!.handler).toBeUndefined();
    // [G-FAIL-5] Paths under the home folder are shown with `~`.
    expect(gh.startsWith(`${home}/`)).toBe(true);
    expect(entries[0]!.from).toBe('from ~/.lurus/hooks.json#/PreToolUse/0/hooks/0');
    expect(entries[1]!.detail).toBe('matcher "Bash" does not match "Write"');
    expect(entries[2]!.detail).toMatch(/hookwerk trust/);
    expect(entries[2]!.from).toBe(`from ${ph}#/PreToolUse/0/hooks/0`);
    expect(entries[3]!.detail).toMatch(/not approved/);
    expect(entries[4]!.detail).toMatch(new RegExp(`^${bad.replaceAll('.', '\\.')}: \\$: invalid JSON`));

    // After approval the project hook RUNS.
    writeJson(bad, { hooks: {} });
    expect((await run(['trust', '--yes'])).code).toBe(0);
    const after = await run(['explain', 'PreToolUse', '--tool', 'Write']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/^\s+3\. RUNS\s+echo project-write$/m);
    expect(after.stdout).toMatch(/^\s+4\. no match\s+POST https:\/\/h\.example\/read$/m);
    expect(after.stdout).toContain('matcher "^Read$" does not match "Write"');
    expect(after.stdout).not.toMatch(/untrusted|invalid/);
  });

  it('explain --trigger matches against context.trigger; no hooks says so', async () => {
    const { home, run } = setup();
    writeJson(lurus(home, 'hooks.json'), {
      SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'true' }] }],
    });
    const r = await run(['explain', 'SessionStart', '--trigger', 'resume']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^SessionStart with trigger "resume":$/m);
    expect(r.stdout).toMatch(/^\s+1\. no match\s+true$/m);
    expect(r.stdout).toContain('matcher "startup" does not match "resume"');
    const none = await run(['explain', 'Stop']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('no hooks are configured for this event');
  });

  it('[P-CFG-2] for a PRX event it lists enabled (RUNS) and disabled ("enabled": false) actions', async () => {
    const { project, run } = setup();
    const ws = realpathSync(tempDir('hw-lws-'));
    const file = writeJson(path.join(ws, 'hooks.json'), {
      hooks: {
        tool_call: [
          { id: 'audit', command: '/bin/true', timeout_ms: 1500 },
          { id: 'off', command: '/bin/echo', args: ['x'], enabled: false },
        ],
        agent_start: [{ id: 'other', command: '/bin/true' }],
      },
    });
    const r = await run(['explain', 'tool_call', '--workspace', ws]);
    expect(r.code, r.stderr).toBe(0);
    expect(project).not.toBe(ws);
    expect(r.stdout).toMatch(/^tool_call \(observe/m);
    expect(r.stdout).toMatch(/^\s+1\. RUNS\s+audit$/m);
    expect(r.stdout).toContain('/bin/true, timeout 1500 ms');
    expect(r.stdout).toMatch(/^\s+2\. disabled\s+off$/m);
    expect(r.stdout).toContain('"enabled": false');
    expect(r.stdout).toContain(`from ${file}#/hooks/tool_call/1`);
    expect(r.stdout).not.toContain('other');
  });

  it.each([
    { what: 'an unknown event', args: ['explain', 'Nope'], match: /unknown event "Nope"/ },
    {
      what: '--tool and --trigger',
      args: ['explain', 'PreToolUse', '--tool', 'a', '--trigger', 'b'],
      match: /--tool or --trigger/,
    },
  ])('explain with $what → exit 1, one line', async ({ args, match }) => {
    const { run } = setup();
    expect(expectOneLineFailure(await run(args))).toMatch(match);
  });
});

describe('[L-TRUST-2] §3 hookwerk trust', () => {
  function reviewProject(project: string) {
    writeScript(project, '.lurus/hooks/guard.sh', ALLOW_LINE);
    writeJson(lurus(project, 'hooks.json'), {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'sh .lurus/hooks/guard.sh --strict' }] },
        {
          matcher: 'Write|Edit',
          hooks: [
            {
              type: 'http',
              url: 'https://hooks.example.com:8443/gate',
              method: 'PATCH',
              headers: { 'X-Team': 'red-team-value' },
            },
          ],
        },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'true' }] }],
    });
  }

  it.each([
    { what: 'stdin ignored', stdin: 'ignore' as const },
    { what: 'stdin piped, "y" typed', stdin: { text: 'y\n' } },
    { what: 'stdin piped, empty', stdin: { text: '' } },
  ])(
    '[L-TRUST-2] without --yes and without a TTY ($what) → exit 1, told to use --yes, not approved',
    async ({ stdin }) => {
      const { project, home } = setup();
      reviewProject(project);
      const r = await cli(['trust'], { cwd: project, home, stdin });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/not approved/);
      expect(r.stderr).toContain('--yes');
      expect(r.stderr).not.toMatch(STACK);
      expect(existsSync(lurus(home, 'trust.json'))).toBe(false);
      const d = await cli(['decide', 'Stop'], { cwd: project, home });
      expect(decisionOf(d).runs.map((x) => x.outcome)).toEqual(['skipped_untrusted']);
    },
  );

  it('[L-TRUST-2] the review shows event, matcher, command, script path, and for HTTP method, URL and host', async () => {
    const { project, run } = setup();
    reviewProject(project);
    const r = await run(['trust']);
    expect(r.code).toBe(1);
    const text = r.stdout;
    expect(text).toContain(`project hooks of ${project}:`);
    expect(text).toMatch(/^\s+1\. PreToolUse, matcher "Bash"$/m);
    expect(text).toContain('runs:  sh .lurus/hooks/guard.sh --strict');
    expect(text).toMatch(/^\s+file:\s+\.lurus\/hooks\/guard\.sh$/m);
    expect(text).toContain('the event context on stdin');
    expect(text).toMatch(/^\s+2\. PreToolUse, matcher "Write\|Edit"$/m);
    expect(text).toContain('runs:  PATCH https://hooks.example.com:8443/gate');
    expect(text).toContain('sends: the event context to host hooks.example.com:8443');
    expect(text).toContain('headers: X-Team');
    expect(text).not.toContain('red-team-value');
    expect(text).toMatch(/^\s+3\. Stop, matcher \(all\)$/m);
    expect(text).toMatch(/^not approved yet$/m);
  });

  it('[L-TRUST-2] an http: URL is flagged as unencrypted; --yes approves; a second run has nothing to do', async () => {
    const { project, home, run } = setup();
    writeJson(lurus(project, 'hooks.json'), {
      Stop: [{ hooks: [{ type: 'http', url: 'http://10.0.0.7:9000/stop' }] }],
    });
    const first = await run(['trust', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('sends: the event context to host 10.0.0.7:9000 (unencrypted http)');
    expect(first.stdout).toMatch(/^approved: 1 project hook of /m);
    const store = JSON.parse(readFileSync(lurus(home, 'trust.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(store)).toEqual([project]);
    const second = await cli(['trust'], { cwd: project, home });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/already approved .* nothing to do/);
  });

  it('[L-TRUST-2] no project hooks → exit 0, nothing to approve, no store written', async () => {
    const { home, run } = setup();
    const r = await run(['trust']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/nothing to approve/);
    expect(existsSync(lurus(home, 'trust.json'))).toBe(false);
  });
});

describe('[L-GEN-1] §3 hookwerk create-hook', () => {
  it('[L-GEN-1] an unknown event → exit 1 listing every event; nothing written', async () => {
    const { project, run } = setup();
    const r = await run(['create-hook', 'PreToolUsed', 'x']);
    const line = expectOneLineFailure(r);
    expect(line).toMatch(/unknown event "PreToolUsed"/);
    for (const event of EVENT_NAMES) expect(line).toContain(event);
    expect(existsSync(path.join(project, '.lurus'))).toBe(false);
  });

  it('[L-GEN-1] the event is matched case-insensitively and written exactly', async () => {
    const { project, run } = setup();
    const r = await run(['create-hook', 'pretooluse', 'guard']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(lurus(project, 'hooks.json'), 'utf8')))).toEqual([
      'PreToolUse',
    ]);
  });

  it('[L-GEN-1] an existing script without --force → exit 1, script and hooks.json unchanged; --force overwrites', async () => {
    const { project, run } = setup();
    expect((await run(['create-hook', 'Stop', 'check'])).code).toBe(0);
    const script = lurus(project, 'hooks/check.sh');
    writeFileSync(script, '#!/bin/sh\necho my own logic\n');
    const hooksBefore = readFileSync(lurus(project, 'hooks.json'), 'utf8');

    const r = await run(['create-hook', 'Stop', 'check']);
    expect(expectOneLineFailure(r)).toMatch(/already exists; use --force/);
    expect(r.stdout).toBe('');
    expect(readFileSync(script, 'utf8')).toBe('#!/bin/sh\necho my own logic\n');
    expect(readFileSync(lurus(project, 'hooks.json'), 'utf8')).toBe(hooksBefore);

    const forced = await run(['create-hook', 'Stop', 'check', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(script, 'utf8')).toContain('hookwerk gate hook for Stop');
    // The definition is not duplicated.
    expect(readFileSync(lurus(project, 'hooks.json'), 'utf8')).toBe(hooksBefore);
  });

  it('[L-GEN-1] --ts writes .lurus/hooks/NAME.ts and registers `npx tsx .lurus/hooks/NAME.ts`', async () => {
    const { project, run } = setup();
    const r = await run(['create-hook', 'UserPromptSubmit', 'prompt-guard', '--ts']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(lurus(project, 'hooks/prompt-guard.ts'))).toBe(true);
    expect(existsSync(lurus(project, 'hooks/prompt-guard.sh'))).toBe(false);
    expect(JSON.parse(readFileSync(lurus(project, 'hooks.json'), 'utf8'))).toEqual({
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: 'npx tsx .lurus/hooks/prompt-guard.ts', timeout: 30000 }] },
      ],
    });
    expect(r.stdout).toContain('npx tsx');
    // A second hook for another event is appended to the same file.
    expect((await run(['create-hook', 'Stop', 'stop-check'])).code).toBe(0);
    const map = JSON.parse(readFileSync(lurus(project, 'hooks.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(map)).toEqual(['UserPromptSubmit', 'Stop']);
    // And validate accepts what was generated.
    const v = await run(['validate', '--project', project]);
    expect(v.code, v.stderr).toBe(0);
  });

  it('[L-GEN-1] an invalid hook name → exit 1, nothing written', async () => {
    const { project, run } = setup();
    const r = await run(['create-hook', 'Stop', '../escape']);
    expect(expectOneLineFailure(r)).toMatch(/invalid hook name/);
    expect(existsSync(path.join(project, '.lurus'))).toBe(false);
  });
});
