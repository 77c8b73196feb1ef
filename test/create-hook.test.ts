import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/cli/cli-error.ts';
import { createHookCommand } from '../src/cli/create-hook.ts';
import { loadLurusConfig } from '../src/dialects/lurus/source.ts';
import { tempDir } from './helpers.ts';

// [L-GEN-1] `create-hook`: real files in a temp project, generated hooks run for real through
// /bin/sh as the gate engine runs them [L-RUN-2], answers read per [L-ANS-1..2].
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/** The 11 events of §2.2, each with a context such as the runtime sends [L-EV-1]. */
const EVENTS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['SessionStart', { trigger: 'startup' }],
  ['SessionEnd', { trigger: 'exit' }],
  ['UserPromptSubmit', { prompt: 'Add a test for the "parser"; it\'s broken' }],
  ['PreToolUse', { toolName: 'Write', toolInput: { path: 'example.txt', content: 'a\nb' } }],
  ['PostToolUse', { toolName: 'Edit', toolInput: { path: 'a.ts' }, isError: false }],
  ['PostToolUseFailure', { toolName: 'Bash', toolInput: { command: 'npm test' } }],
  ['SubagentStart', { toolName: 'reviewer' }],
  ['SubagentStop', { toolName: 'reviewer' }],
  ['Stop', { trigger: 'end_turn' }],
  ['PreCompact', { trigger: 'auto' }],
  ['Notification', { trigger: 'idle' }],
];

interface Created {
  code: number;
  lines: string[];
}

function create(
  event: string,
  name: string,
  project: string,
  opts: { ts?: boolean; force?: boolean } = {},
): Created {
  const lines: string[] = [];
  const code = createHookCommand(event, name, { project, ...opts }, (l) => lines.push(l));
  return { code, lines };
}

/** Calls `fn`, expecting a CliError; returns it. */
function cliError(fn: () => unknown): CliError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    return err as CliError;
  }
  throw new Error('expected a CliError');
}

const hooksJsonOf = (project: string) => path.join(project, '.lurus', 'hooks.json');
const readHooksJson = (project: string): Record<string, unknown> =>
  JSON.parse(readFileSync(hooksJsonOf(project), 'utf8'));

/** [L-RUN-2] As the engine runs a command hook: /bin/sh -c, cwd = project, one JSON line + "\n", minimal env. */
function runHook(command: string, project: string, event: string, context: Record<string, unknown>) {
  const r = spawnSync('/bin/sh', ['-c', command], {
    cwd: project,
    input: `${JSON.stringify({ event, context, cwd: project })}\n`,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The commands hooks.json runs for one event, in order. */
function commandsOf(project: string, event: string): string[] {
  const defs = readHooksJson(project)[event] as Array<{ hooks: Array<{ command?: string }> }>;
  return defs.flatMap((d) => d.hooks.map((h) => h.command ?? ''));
}

describe('[L-GEN-1] create-hook: a template for every event that runs and allows as generated', () => {
  it.each(EVENTS)(
    '%s: shell hook, run through /bin/sh -c, exits 0 with {"decision":"allow"}',
    (event, context) => {
      const project = tempDir();
      const name = `check-${event.toLowerCase()}`;
      const { code, lines } = create(event, name, project);
      expect(code).toBe(0);

      const script = path.join(project, '.lurus', 'hooks', `${name}.sh`);
      expect(statSync(script).mode & 0o777).toBe(0o755);
      const text = readFileSync(script, 'utf8');
      expect(text.startsWith('#!/bin/sh\n')).toBe(true);
      expect(text).toContain(event);

      // [L-DEF-1] One definition, no matcher (matches all), the default timeout.
      expect(readHooksJson(project)).toEqual({
        [event]: [{ hooks: [{ type: 'command', command: `sh .lurus/hooks/${name}.sh`, timeout: 30000 }] }],
      });

      const r = runHook(`sh .lurus/hooks/${name}.sh`, project, event, context);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ decision: 'allow' });
      expect(r.stderr).toBe('');

      // The loader accepts what the generator wrote.
      const config = loadLurusConfig({ projectDir: project, home: tempDir() });
      expect(config.issues).toEqual([]);
      expect(config.warnings).toEqual([]);
      expect(config.hooks.filter((h) => h.event === event).map((h) => h.name)).toEqual([
        `sh .lurus/hooks/${name}.sh`,
      ]);

      expect(lines.join('\n')).toContain(script);
      expect(lines.some((l) => l.includes('hookwerk trust'))).toBe(true);
      expect(lines.some((l) => l.includes('hookwerk validate'))).toBe(true);
      expect(lines.every((l) => !l.includes('\n'))).toBe(true);
    },
  );

  it('all 11 events in one project: one hooks.json the loader reads with no issues, every hook allows', () => {
    const project = tempDir();
    for (const [event] of EVENTS) expect(create(event, `h-${event}`, project).code).toBe(0);

    const file = readHooksJson(project);
    expect(Object.keys(file)).toEqual(EVENTS.map(([e]) => e));
    const config = loadLurusConfig({ projectDir: project, home: tempDir() });
    expect(config.issues).toEqual([]);
    expect(config.hooks).toHaveLength(EVENTS.length);
    for (const [event, context] of EVENTS) {
      const [command] = commandsOf(project, event);
      const r = runHook(command!, project, event, context);
      expect(r.code, `${event}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout), event).toEqual({ decision: 'allow' });
    }
    // Written by temp file + rename: nothing else is left behind.
    expect(readdirSync(path.join(project, '.lurus')).sort()).toEqual(['hooks', 'hooks.json']);
    expect(readdirSync(path.join(project, '.lurus', 'hooks')).sort()).toEqual(
      EVENTS.map(([e]) => `h-${e}.sh`).sort(),
    );
  });

  it('--ts writes NAME.ts and a `npx tsx` definition', () => {
    const project = tempDir();
    const { code, lines } = create('PostToolUse', 'log-tool', project, { ts: true });
    expect(code).toBe(0);
    const file = path.join(project, '.lurus', 'hooks', 'log-tool.ts');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain("event: 'PostToolUse'");
    expect(text).toContain('interface HookInput');
    expect(existsSync(path.join(project, '.lurus', 'hooks', 'log-tool.sh'))).toBe(false);
    expect(commandsOf(project, 'PostToolUse')).toEqual(['npx tsx .lurus/hooks/log-tool.ts']);
    expect(loadLurusConfig({ projectDir: project, home: tempDir() }).issues).toEqual([]);
    expect(lines.some((l) => l.includes('tsx'))).toBe(true);
  });

  it('--ts templates type-check under --strict, and their JavaScript runs and allows', {
    timeout: 120_000,
  }, () => {
    // tsx is not installed here: tsc checks the TypeScript, node runs what it emits (CommonJS,
    // as tsx runs a .ts file in a project without "type": "module").
    const project = tempDir();
    const events: ReadonlyArray<[string, Record<string, unknown>]> = [EVENTS[3]!, EVENTS[8]!]; // PreToolUse, Stop
    for (const [event] of events) create(event, `t-${event}`, project, { ts: true });
    const outDir = path.join(tempDir(), 'out');
    const files = events.map(([e]) => path.join(project, '.lurus', 'hooks', `t-${e}.ts`));
    const tsc = spawnSync(
      process.execPath,
      [
        TSC,
        '--ignoreConfig',
        '--skipLibCheck',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        '--outDir',
        outDir,
        ...files,
      ],
      { cwd: REPO, encoding: 'utf8' },
    );
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    for (const [event, context] of events) {
      const js = path.join(outDir, `t-${event}.js`);
      const r = runHook(`"${process.execPath}" "${js}"`, project, event, context);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ decision: 'allow' });
    }
  });
});

describe('[L-GEN-1] create-hook: event and name', () => {
  it('matches the event case-insensitively and writes it exactly', () => {
    const project = tempDir();
    create('pretooluse', 'guard', project);
    create('STOP', 'keep-going', project);
    expect(Object.keys(readHooksJson(project))).toEqual(['PreToolUse', 'Stop']);
    expect(readFileSync(path.join(project, '.lurus', 'hooks', 'guard.sh'), 'utf8')).toContain(
      'for PreToolUse.',
    );
    expect(loadLurusConfig({ projectDir: project, home: tempDir() }).issues).toEqual([]);
  });

  it('refuses an unknown event with exit code 1, listing the valid events, and writes nothing', () => {
    const project = tempDir();
    const err = cliError(() => create('PreToolCall', 'x', project));
    expect(err.exitCode).toBe(1);
    for (const [event] of EVENTS) expect(err.message).toContain(event);
    expect(existsSync(path.join(project, '.lurus'))).toBe(false);
  });

  it.each(['../x', 'a/b', '', '.hidden', '-rf', 'a b', 'a;b', 'x'.repeat(65)])(
    'refuses the unsafe name %j and writes nothing',
    (name) => {
      const project = tempDir();
      const err = cliError(() => create('PreToolUse', name, project));
      expect(err.exitCode).toBe(1);
      expect(existsSync(path.join(project, '.lurus'))).toBe(false);
      expect(existsSync(path.join(project, '..', 'x.sh'))).toBe(false);
    },
  );

  it('refuses a project folder that does not exist', () => {
    const missing = path.join(tempDir(), 'nope');
    expect(cliError(() => create('Stop', 'x', missing)).message).toContain(missing);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('[L-GEN-1] create-hook: never overwrites without --force', () => {
  it('refuses an existing script: script and hooks.json stay byte for byte', () => {
    const project = tempDir();
    create('PreToolUse', 'guard', project);
    const script = path.join(project, '.lurus', 'hooks', 'guard.sh');
    writeFileSync(script, '#!/bin/sh\necho mine\n');
    const before = readFileSync(hooksJsonOf(project), 'utf8');

    const err = cliError(() => create('PreToolUse', 'guard', project));
    expect(err.exitCode).toBe(1);
    expect(err.message).toContain('--force');
    expect(readFileSync(script, 'utf8')).toBe('#!/bin/sh\necho mine\n');
    expect(readFileSync(hooksJsonOf(project), 'utf8')).toBe(before);
    // The same name for another event is the same file: refused too.
    cliError(() => create('Stop', 'guard', project));
    expect(readFileSync(hooksJsonOf(project), 'utf8')).toBe(before);
  });

  it('--force rewrites the script and appends no duplicate definition (whatever its matcher)', () => {
    const project = tempDir();
    create('PreToolUse', 'guard', project);
    const script = path.join(project, '.lurus', 'hooks', 'guard.sh');
    const template = readFileSync(script, 'utf8');
    writeFileSync(script, '#!/bin/sh\necho mine\n');
    // The user narrowed the definition meanwhile.
    const narrowed = {
      PreToolUse: [
        {
          matcher: '^Write$',
          hooks: [{ type: 'command', command: 'sh .lurus/hooks/guard.sh', timeout: 5000 }],
        },
      ],
    };
    writeFileSync(hooksJsonOf(project), JSON.stringify(narrowed, null, 2));

    const { code, lines } = create('PreToolUse', 'guard', project, { force: true });
    expect(code).toBe(0);
    expect(readFileSync(script, 'utf8')).toBe(template);
    expect(statSync(script).mode & 0o777).toBe(0o755);
    expect(readHooksJson(project)).toEqual(narrowed);
    expect(lines.join('\n')).toContain('overwrote');
  });

  it('--force replaces a symlinked script instead of writing through it', () => {
    const project = tempDir();
    const outside = path.join(tempDir(), 'victim.txt');
    writeFileSync(outside, 'keep me\n');
    mkdirSync(path.join(project, '.lurus', 'hooks'), { recursive: true });
    const script = path.join(project, '.lurus', 'hooks', 'guard.sh');
    symlinkSync(outside, script);

    cliError(() => create('PreToolUse', 'guard', project));
    create('PreToolUse', 'guard', project, { force: true });
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n');
    expect(lstatSync(script).isSymbolicLink()).toBe(false);
    expect(readFileSync(script, 'utf8').startsWith('#!/bin/sh\n')).toBe(true);
  });
});

describe('[L-GEN-1] create-hook: appends to an existing hooks.json', () => {
  it('keeps existing definitions, other events and key order', () => {
    const project = tempDir();
    mkdirSync(path.join(project, '.lurus'));
    const existing = {
      UserPromptSubmit: [
        {
          hooks: [
            { type: 'http', url: 'http://127.0.0.1:8765/hooks/prompt', method: 'POST', timeout: 30000 },
          ],
        },
      ],
      PreToolUse: [
        {
          matcher: '^Write$',
          hooks: [{ type: 'command', command: 'node .lurus/hooks/block-write.cjs', timeout: 30000 }],
        },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'true', failMode: 'closed' }] }],
    };
    writeFileSync(hooksJsonOf(project), JSON.stringify(existing));

    create('PreToolUse', 'guard', project);
    create('SessionStart', 'hello', project);

    const after = readHooksJson(project);
    expect(Object.keys(after)).toEqual(['UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionStart']);
    expect(after.UserPromptSubmit).toEqual(existing.UserPromptSubmit);
    expect(after.Stop).toEqual(existing.Stop);
    expect(after.PreToolUse).toEqual([
      existing.PreToolUse[0],
      { hooks: [{ type: 'command', command: 'sh .lurus/hooks/guard.sh', timeout: 30000 }] },
    ]);
    // Pretty-printed with 2 spaces.
    expect(readFileSync(hooksJsonOf(project), 'utf8')).toBe(`${JSON.stringify(after, null, 2)}\n`);
    const config = loadLurusConfig({ projectDir: project, home: tempDir() });
    expect(config.issues).toEqual([]);
    expect(config.hooks.filter((h) => h.event === 'PreToolUse').map((h) => h.name)).toEqual([
      'node .lurus/hooks/block-write.cjs',
      'sh .lurus/hooks/guard.sh',
    ]);
  });

  it.each([
    ['invalid JSON', '{"PreToolUse": [\n'],
    ['an array', '[]\n'],
    ['a string', '"PreToolUse"\n'],
    ['an event that is not an array', '{"PreToolUse": {"hooks": []}}\n'],
  ])('refuses a hooks.json holding %s, names it, and leaves it (and the script) untouched', (_what, text) => {
    const project = tempDir();
    mkdirSync(path.join(project, '.lurus'));
    writeFileSync(hooksJsonOf(project), text);

    const err = cliError(() => create('PreToolUse', 'guard', project));
    expect(err.exitCode).toBe(1);
    expect(err.message).toContain(hooksJsonOf(project));
    expect(readFileSync(hooksJsonOf(project), 'utf8')).toBe(text);
    expect(existsSync(path.join(project, '.lurus', 'hooks'))).toBe(false);
  });
});
