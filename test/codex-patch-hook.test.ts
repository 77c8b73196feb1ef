/**
 * [R-MAP-1, R-HOOK-1] `hookwerk hook --agent codex` judges **every** file of an
 * `apply_patch` (issue 28 item 9): the patch is read as Codex reads it and each file it touches is
 * its own Claude `Edit`/`Write` call, decided by the policy; one deny denies the patch, naming the
 * file. Real `hookwerk hook` processes with a temp HOME holding `~/.hookwerk/policy.json`, and the
 * same call in-process with the cold decider (real engine, real guard processes) for the other
 * forms a guard takes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coldDecider } from '../src/hook/cold-decider.ts';
import { answerHookCall } from '../src/hook/hook-call.ts';
import { runCli } from './cli-runner.ts';
import { tempDir, writeScript } from './helpers.ts';

const patch = (...lines: string[]) => `${['*** Begin Patch', ...lines, '*** End Patch'].join('\n')}\n`;
const edit = (file: string) => [`*** Update File: ${file}`, '@@', '-a', '+b'];

/** Patches that reach `.env` past the first file, each as Codex's parser would apply it. */
const ATTACKS: Record<string, string> = {
  'the 2nd file is .env': patch(...edit('src/a.ts'), ...edit('.env')),
  'the 2nd file is sub/../.env': patch(...edit('src/a.ts'), ...edit('sub/../.env')),
  '*** Move to: .env': patch('*** Update File: src/a.ts', '*** Move to: .env', '@@', '-a', '+b'),
  'an indented header, first': patch('   *** Update File: .env', '@@', '-a', '+b'),
  'an indented header after an add': patch(
    '*** Add File: notes.txt',
    '+hi',
    '\t*** Update File: .env',
    '@@',
    '-a',
    '+b',
  ),
  'a delete of .env': patch(...edit('src/a.ts'), '*** Delete File: .env'),
  'an add of .env': patch(...edit('src/a.ts'), '*** Add File: .env', '+TOKEN=x'),
};

/** Everyday patches: several files, a move, an add — none of them `.env`. */
const EVERYDAY: Record<string, string> = {
  'one update': patch(...edit('src/a.ts')),
  'add, update, delete': patch(
    '*** Add File: src/new.ts',
    '+export {}',
    ...edit('src/a.ts'),
    '*** Delete File: old.ts',
  ),
  'a move': patch('*** Update File: src/a.ts', '*** Move to: src/b.ts', '@@', '-a', '+b'),
  'a file named like .env but not it': patch(...edit('.env.example'), ...edit('docs/env.md')),
};

function writePolicy(home: string, policy: unknown): void {
  const file = path.join(home, '.hookwerk', 'policy.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(policy));
}

/** A `.env` guard on `Edit|Write`, as Claude Code users write one: an `if` rule before an exit 2. */
const ifGuard = (rule: string) => ({
  hooks: {
    PreToolUse: [
      {
        matcher: 'Edit|Write',
        hooks: [{ type: 'command', if: rule, command: "echo '.env holds secrets' >&2; exit 2" }],
      },
    ],
  },
});

function codexInput(cwd: string, text: string, event = 'PreToolUse'): string {
  return JSON.stringify({
    hook_event_name: event,
    session_id: 's-1',
    turn_id: 't-1',
    cwd,
    tool_name: 'apply_patch',
    tool_use_id: 'u-1',
    tool_input: { command: text },
  });
}

const codexReply = z.strictObject({
  hookSpecificOutput: z
    .strictObject({
      hookEventName: z.string(),
      permissionDecision: z.enum(['allow', 'deny']).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

/** What Codex reads from the reply: the deny's reason, or none. */
function denial(stdout: string): string | undefined {
  const specific = codexReply.parse(JSON.parse(stdout)).hookSpecificOutput;
  if (specific?.permissionDecision !== 'deny') return undefined;
  expect(specific.hookEventName).toBe('PreToolUse');
  return specific.permissionDecisionReason;
}

describe('[R-MAP-1] hookwerk hook --agent codex: every file of a patch (a real process)', () => {
  it('an if: "Edit(.env)" guard denies each patch that reaches .env past its first file, naming the file', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    writePolicy(home, ifGuard('Edit(.env)'));
    const results = await Promise.all(
      Object.entries(ATTACKS).map(async ([name, text]) => {
        const r = await runCli(['hook', '--agent', 'codex'], {
          home,
          cwd: project,
          stdin: { text: codexInput(project, text) },
        });
        expect(r.code, r.stderr).toBe(0);
        return [name, denial(r.stdout)] as const;
      }),
    );
    for (const [name, reason] of results) {
      // A patch of one file is one call: the guard's own reason. Past one file, the file is named.
      if (name === 'an indented header, first') expect(reason).toBe('.env holds secrets');
      else
        expect(reason, name).toMatch(
          /^apply_patch (update|move to|delete|add) (sub\/\.\.\/)?\.env: \.env holds secrets$/,
        );
    }
  });

  it('everyday patches (several files, a move, an add) pass: no objection, as Codex reads it', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    writePolicy(home, ifGuard('Edit(.env)'));
    const results = await Promise.all(
      Object.entries(EVERYDAY).map(async ([name, text]) => {
        const r = await runCli(['hook', '--agent', 'codex'], {
          home,
          cwd: project,
          stdin: { text: codexInput(project, text) },
        });
        return [name, r] as const;
      }),
    );
    for (const [name, r] of results) {
      expect(r.stdout, name).toBe('{}\n');
      expect(r.stderr, name).toBe('');
    }
  });

  it('a Write-only guard sees the added file of a patch whose first file is an update (the pre-scan asks for every part)', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    writePolicy(home, {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Write',
            hooks: [{ type: 'command', command: 'grep -q "\\.env\\"" && { echo no >&2; exit 2; }; exit 0' }],
          },
        ],
      },
    });
    const r = await runCli(['hook', '--agent', 'codex'], {
      home,
      cwd: project,
      stdin: { text: codexInput(project, ATTACKS['an add of .env']!) },
    });
    expect(denial(r.stdout)).toBe('apply_patch add .env: no');
  });
});

describe('[R-MAP-1] each file as its own call: absolute file_path, the whole patch kept', () => {
  async function decide(home: string, project: string, text: string, event?: string) {
    return answerHookCall(
      { agent: 'codex', stdin: codexInput(project, text, event), cwd: project, env: { HOME: home }, home },
      { decider: coldDecider },
    );
  }

  it('if: "Edit(**/.env)" matches the resolved path of the 2nd file, sub/../.env included', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    writePolicy(home, ifGuard('Edit(**/.env)'));
    for (const name of [
      'the 2nd file is .env',
      'the 2nd file is sub/../.env',
      '*** Move to: .env',
      'a delete of .env',
    ])
      expect(denial((await decide(home, project, ATTACKS[name]!)).stdout), name).toContain(
        '.env holds secrets',
      );
    expect((await decide(home, project, EVERYDAY['add, update, delete']!)).stdout).toBe('{}\n');
  });

  it('a guard script sees each file: its absolute file_path, Write with the content for an add, and the whole patch in command', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    const seen = path.join(home, 'seen.jsonl');
    const script = writeScript(
      home,
      'guard.mjs',
      `#!/usr/bin/env node
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const t = input.tool_input;
appendFileSync(${JSON.stringify(seen)}, JSON.stringify({ tool: input.tool_name, file: t.file_path, content: t.content, whole: t.command.includes('*** End Patch') }) + '\\n');
if (t.file_path.endsWith('/.env')) { process.stderr.write('no secrets'); process.exit(2); }
`,
    );
    writePolicy(home, {
      hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: script }] }] },
    });
    const text = patch(
      '*** Add File: n.txt',
      '+hi',
      ...edit('src/../a.ts'),
      '*** Delete File: gone.ts',
      ...edit('.env'),
    );
    expect(denial((await decide(home, project, text)).stdout)).toBe('apply_patch update .env: no secrets');
    const lines = readFileSync(seen, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { tool: 'Write', file: path.join(project, 'n.txt'), content: 'hi\n', whole: true },
      { tool: 'Edit', file: path.join(project, 'a.ts'), whole: true },
      { tool: 'Edit', file: path.join(project, 'gone.ts'), whole: true },
      { tool: 'Write', file: path.join(project, 'gone.ts'), whole: true },
      { tool: 'Edit', file: path.join(project, '.env'), whole: true },
    ]);
  });

  it('a rewrite of the patch text is kept when every file gives the same; a rewrite of some files only, or of file_path alone, denies', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    const rewrite = (matcher: string, field: string) => ({
      matcher,
      hooks: [
        {
          type: 'command',
          command: `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:{...t,${field}}}}))})'`,
        },
      ],
    });
    const text = patch(...edit('src/a.ts'), '*** Add File: src/n.ts', '+x');
    writePolicy(home, {
      hooks: { PreToolUse: [rewrite('Edit|Write', 'command:t.command.replace("+b","+c")')] },
    });
    const whole = JSON.parse((await decide(home, project, text)).stdout);
    expect(whole.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: text.replace('+b', '+c') },
    });
    writePolicy(home, { hooks: { PreToolUse: [rewrite('Write', 'command:t.command.replace("+x","+y")')] } });
    expect(denial((await decide(home, project, text)).stdout)).toMatch(/cannot be rewritten in part/);
    writePolicy(home, { hooks: { PreToolUse: [rewrite('Edit|Write', 'file_path:"/tmp/elsewhere"')] } });
    expect(denial((await decide(home, project, patch(...edit('src/a.ts')))).stdout)).toMatch(
      /rewrote file_path of this patch but not its text/,
    );
  });

  it('a shell command that runs apply_patch <<EOF (after cd DIR && too) is judged file by file beside its Bash call', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    writePolicy(home, ifGuard('Edit(.env)'));
    const bash = async (command: string) =>
      answerHookCall(
        {
          agent: 'codex',
          stdin: JSON.stringify({
            hook_event_name: 'PreToolUse',
            cwd: project,
            tool_name: 'Bash',
            tool_input: { command },
          }),
          cwd: project,
          env: { HOME: home },
          home,
        },
        { decider: coldDecider },
      );
    const heredoc = (text: string) => `apply_patch <<'EOF'\n${text}EOF\n`;
    expect(denial((await bash(heredoc(ATTACKS['the 2nd file is .env']!))).stdout)).toBe(
      'apply_patch update .env: .env holds secrets',
    );
    expect(
      denial((await bash(`cd sub && ${heredoc(patch(...edit('a.ts'), ...edit('../.env')))}`)).stdout),
    ).toBe('apply_patch update ../.env: .env holds secrets');
    expect((await bash(heredoc(EVERYDAY['add, update, delete']!))).stdout).toBe('{}\n');
    expect((await bash('cat .env.example')).stdout).toBe('{}\n');
  });

  it('PostToolUse hooks see each file too, and their context reaches Codex once', async () => {
    const home = tempDir('hw-patch-home-');
    const project = tempDir('hw-patch-proj-');
    writePolicy(home, {
      hooks: {
        PostToolUse: [
          {
            matcher: 'Edit',
            hooks: [
              {
                type: 'command',
                command: `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PostToolUse",additionalContext:"formatted "+JSON.parse(s).tool_input.file_path.split("/").pop()}}))})'`,
              },
            ],
          },
        ],
      },
    });
    const r = await decide(home, project, patch(...edit('a.ts'), ...edit('b.ts')), 'PostToolUse');
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: 'formatted a.ts\nformatted b.ts',
      },
    });
  });
});
