import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../src/core/issues.ts';
import { loadPrxConfig } from '../src/dialects/prx/source.ts';
import { tempDir, writeHooks } from './helpers.ts';

function issuesOf(hooks: unknown, setup?: (dir: string) => void) {
  const dir = tempDir();
  setup?.(dir);
  writeHooks(dir, hooks);
  const r = loadPrxConfig(dir);
  if (r.ok) throw new Error('expected the config to be rejected');
  return r.issues.map((i) => ({ ...i, file: path.basename(i.file) }));
}

function load(hooks: unknown) {
  const dir = tempDir();
  writeHooks(dir, hooks);
  const r = loadPrxConfig(dir);
  if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
  return { dir, ...r };
}

describe('[P-CFG-1] [P-CFG-2] hooks.json shape and defaults', () => {
  it('[P-CFG-2] applies the documented defaults', () => {
    const { dir, actions } = load({ tool_call: [{ command: '/bin/true' }] });
    expect(actions).toHaveLength(1);
    const a = actions[0]!;
    expect(a).toMatchObject({
      event: 'tool_call',
      command: '/bin/true',
      args: [],
      env: {},
      cwd: dir,
      timeoutMs: 30000,
      stdinJson: false,
      enabled: true,
      name: 'tool_call[0]',
    });
    expect(a.origin.source).toBe(`${path.join(dir, 'hooks.json')}#/hooks/tool_call/0`);
  });

  it('[P-CFG-2] a relative command resolves against the workspace, a bare name stays for PATH lookup', () => {
    const { dir, actions } = load({ error: [{ command: 'hooks/a.sh' }, { command: 'curl' }] });
    expect(actions[0]!.command).toBe(path.join(dir, 'hooks/a.sh'));
    expect(actions[1]!.command).toBe('curl');
  });

  it('[P-CFG-1] a missing hooks.json means no hooks, not an error', () => {
    const r = loadPrxConfig(tempDir());
    expect(r).toMatchObject({ ok: true, exists: false, actions: [] });
  });

  it('[P-CFG-2] keeps id/enabled/created_at from the API; a disabled action is loaded but flagged', () => {
    const { actions } = load({
      agent_start: [
        { id: 'hook_01', command: '/bin/true', enabled: false, created_at: '2026-03-20T10:00:00Z' },
      ],
    });
    expect(actions[0]).toMatchObject({ id: 'hook_01', name: 'hook_01', enabled: false });
  });

  it('accepts a "$schema" key for editor completion', () => {
    const dir = tempDir();
    writeHooks(dir, JSON.stringify({ $schema: './schema.json', hooks: {} }));
    expect(loadPrxConfig(dir).ok).toBe(true);
  });
});

describe('[P-CFG-4] errors name file, JSON path and a one-line reason', () => {
  it('[P-CFG-4] unknown event', () => {
    expect(issuesOf({ tool_called: [{ command: '/bin/true' }] })).toEqual([
      expect.objectContaining({
        file: 'hooks.json',
        path: '$.hooks.tool_called',
        message: expect.stringMatching(/^unknown event "tool_called"/),
      }),
    ]);
  });

  it('[P-CFG-4] unknown field', () => {
    expect(issuesOf({ tool_call: [{ command: '/bin/true', timeout: 5 }] })).toEqual([
      { file: 'hooks.json', path: '$.hooks.tool_call[0].timeout', message: 'unknown field "timeout"' },
    ]);
  });

  it('[P-CFG-4] wrong types, each with its own path', () => {
    const issues = issuesOf({ error: [{ command: 7, args: 'x', stdin_json: 'yes', timeout_ms: 1.5 }] });
    expect(issues.map((i) => i.path).sort()).toEqual([
      '$.hooks.error[0].args',
      '$.hooks.error[0].command',
      '$.hooks.error[0].stdin_json',
      '$.hooks.error[0].timeout_ms',
    ]);
    for (const i of issues) expect(i.message).not.toContain('\n');
  });

  it('[P-CFG-4] missing command, missing hooks key, non-array event', () => {
    expect(issuesOf({ error: [{}] })[0]).toMatchObject({ path: '$.hooks.error[0].command' });
    const dir = tempDir();
    writeHooks(dir, '{"hook": {}}');
    const r = loadPrxConfig(dir);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path).sort()).toEqual(['$.hook', '$.hooks']);
    expect(issuesOf({ error: { command: '/bin/true' } })[0]).toMatchObject({ path: '$.hooks.error' });
  });

  it('[P-CFG-4] invalid JSON names line and column', () => {
    const dir = tempDir();
    writeHooks(dir, '{\n  "hooks": {\n    "error": [,]\n  }\n}');
    const r = loadPrxConfig(dir);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues).toHaveLength(1);
      expect(r.issues[0]!.path).toBe('$');
      expect(r.issues[0]!.message).toBe('invalid JSON: syntax error (unexpected "," at line 3, column 15)');
    }
  });

  it('[P-CFG-4] timeout_ms bounds', () => {
    expect(issuesOf({ error: [{ command: '/bin/true', timeout_ms: 0 }] })[0]!.path).toBe(
      '$.hooks.error[0].timeout_ms',
    );
    expect(issuesOf({ error: [{ command: '/bin/true', timeout_ms: 4_000_000 }] })[0]!.message).toMatch(
      /at most/,
    );
  });

  it('duplicate ids are rejected', () => {
    const issues = issuesOf({
      error: [
        { id: 'a', command: '/bin/true' },
        { id: 'a', command: '/bin/true' },
      ],
    });
    expect(issues[0]).toMatchObject({
      path: '$.hooks.error[1].id',
      message: 'duplicate id "a" (first at $.hooks.error[0])',
    });
  });
});

describe('[P-SEC-2] blocked environment variables', () => {
  for (const key of [
    'HOME',
    'PATH',
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'DYLD_INSERT_LIBRARIES',
    'DYLD_LIBRARY_PATH',
    'home',
    'Ld_Preload',
  ]) {
    it(`[P-SEC-2] env.${key} is a validation error`, () => {
      const issues = issuesOf({ tool_call: [{ command: '/bin/true', env: { [key]: 'x' } }] });
      expect(issues).toHaveLength(1);
      expect(issues[0]!.path).toBe(`$.hooks.tool_call[0].env.${key}`);
      expect(issues[0]!.message).toMatch(/may not set/);
    });
  }

  it('ZERO_HOOK_* cannot be spoofed through env, and invalid names are rejected', () => {
    expect(
      issuesOf({ error: [{ command: '/bin/true', env: { ZERO_HOOK_PAYLOAD: '{}' } }] })[0]!.message,
    ).toMatch(/ZERO_HOOK_/);
    expect(issuesOf({ error: [{ command: '/bin/true', env: { 'A=B': 'x' } }] })[0]!.message).toMatch(
      /not a valid variable name/,
    );
  });

  it('ordinary env entries are accepted', () => {
    expect(
      load({ error: [{ command: '/bin/true', env: { LOG_DIR: '/var/log/x', Path2: 'y' } }] }).actions[0]!.env,
    ).toEqual({
      LOG_DIR: '/var/log/x',
      Path2: 'y',
    });
  });
});

describe('[P-SEC-3] NUL bytes', () => {
  it.each([
    ['command', { command: '/bin/tr\0ue' }, '$.hooks.error[0].command'],
    ['args item', { command: '/bin/true', args: ['ok', 'a\0b'] }, '$.hooks.error[0].args[1]'],
    ['env key', { command: '/bin/true', env: { 'A\0B': 'x' } }, '$.hooks.error[0].env["A\\u0000B"]'],
    ['env value', { command: '/bin/true', env: { A: 'x\0y' } }, '$.hooks.error[0].env.A'],
  ])('[P-SEC-3] NUL in %s is rejected', (_what, action, where) => {
    const issues = issuesOf({ error: [action] });
    expect(issues.map((i) => i.path)).toContain(where);
    expect(issues.some((i) => /NUL/.test(i.message))).toBe(true);
  });
});

describe('[P-SEC-4] shell metacharacters in command', () => {
  it.each([';', '|', '&', '`', '$', '(', ')', '<', '>', '\n', '$('])('[P-SEC-4] %j is rejected', (meta) => {
    const issues = issuesOf({ error: [{ command: `/bin/echo${meta}x` }] });
    expect(issues[0]).toMatchObject({
      path: '$.hooks.error[0].command',
      message: expect.stringMatching(/metacharacter/),
    });
  });

  it('[P-SEC-4] metacharacters in args are fine (no shell is involved)', () => {
    expect(load({ error: [{ command: '/bin/echo', args: ['a;b', '$(x)', '|'] }] }).actions[0]!.args).toEqual([
      'a;b',
      '$(x)',
      '|',
    ]);
  });
});

describe('[P-SEC-4b] cwd must stay inside the workspace', () => {
  it('[P-SEC-4b] relative cwd inside is resolved', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'sub'));
    writeHooks(dir, { error: [{ command: '/bin/true', cwd: 'sub' }] });
    const r = loadPrxConfig(dir);
    expect(r.ok && r.actions[0]!.cwd).toBe(path.join(dir, 'sub'));
  });

  it('[P-SEC-4b] relative cwd escaping with .. is rejected', () => {
    expect(issuesOf({ error: [{ command: '/bin/true', cwd: 'sub/../../x' }] })[0]).toMatchObject({
      path: '$.hooks.error[0].cwd',
      message: expect.stringMatching(/outside the workspace/),
    });
  });

  it('[P-SEC-4b] relative cwd escaping through a symlink is rejected', () => {
    const outside = tempDir();
    const issues = issuesOf({ error: [{ command: '/bin/true', cwd: 'link/deeper' }] }, (dir) =>
      symlinkSync(outside, path.join(dir, 'link')),
    );
    expect(issues[0]).toMatchObject({
      path: '$.hooks.error[0].cwd',
      message: expect.stringMatching(/symlink/),
    });
  });

  it('[P-SEC-4b] absolute cwd with .. is rejected, without is accepted', () => {
    expect(issuesOf({ error: [{ command: '/bin/true', cwd: '/tmp/../etc' }] })[0]!.message).toMatch(/\.\./);
    expect(load({ error: [{ command: '/bin/true', cwd: '/tmp' }] }).actions[0]!.cwd).toBe('/tmp');
  });
});

describe('[P-SEC-6] a file with any invalid action is rejected whole', () => {
  it('[P-SEC-6] one bad action means no actions at all', () => {
    const dir = tempDir();
    writeHooks(dir, {
      tool_call: [{ command: '/bin/true' }],
      error: [{ command: '/bin/true', env: { HOME: '/' } }],
    });
    const r = loadPrxConfig(dir);
    expect(r.ok).toBe(false);
    expect('actions' in r).toBe(false);
  });
});
