/**
 * Issue 11: the variables that make a loader, shell or interpreter run code named by the variable
 * are refused in a hook's `env` exactly as LD_PRELOAD is [P-SEC-2] — a config error with file,
 * JSON path and a one-line reason, the file rejected whole [P-SEC-6], 400 from the API — and the
 * Gemini CLI / Claude Code dialects neither take them from a hook file nor pass them on from the
 * agent's environment [G-RUN-1, C-RUN-3]. Real files, real hook processes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPrxConfig } from '../src/dialects/prx/source.ts';
import { silentLogger } from '../src/records/logger.ts';
import { createApp } from '../src/server/app.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeHooks } from './helpers.ts';
import { type ServedApp, serveApp } from './server-harness.ts';

/** The names of issue 11, their close relatives, and other letter cases. */
const REFUSED = [
  'NODE_OPTIONS',
  'BASH_ENV',
  'ENV',
  'LD_AUDIT',
  'LD_BIND_NOW',
  'ld_debug',
  'GCONV_PATH',
  'PYTHONSTARTUP',
  'PERL5OPT',
  'PERL5DB',
  'SHELLOPTS',
  'PS4',
  'RUBYOPT',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'DYLD_FALLBACK_LIBRARY_PATH',
  'Node_Options',
];

/** Module search paths and look-alikes stay allowed (see src/core/env-policy.ts). */
const ALLOWED = ['PYTHONPATH', 'NODE_PATH', 'PERL5LIB', 'RUBYLIB', 'LDAP_URI', 'ENVIRONMENT', 'MY_PS4'];

describe('[P-SEC-2] issue 11: code-injecting variables in hooks.json env', () => {
  it.each(REFUSED)(
    '[P-SEC-2] [P-CFG-4] issue 11: env.%s is a validation error with file, JSON path and reason',
    (name) => {
      const dir = tempDir('hw-env-');
      const file = writeHooks(dir, {
        tool_call: [{ command: '/bin/true', env: { OK_VAR: '1', [name]: 'x' } }],
      });
      const r = loadPrxConfig(dir);
      if (r.ok) throw new Error(`env.${name} was accepted`);
      expect(r.issues).toEqual([
        {
          file,
          path: `$.hooks.tool_call[0].env.${name}`,
          message: `env may not set ${name} (blocked for security: it makes a loader, shell or interpreter run code it names)`,
        },
      ]);
    },
  );

  it('[P-SEC-2] issue 11: module search paths and look-alike names are accepted', () => {
    const dir = tempDir('hw-env-');
    const env = Object.fromEntries(ALLOWED.map((n) => [n, 'v']));
    writeHooks(dir, { tool_call: [{ command: '/bin/true', env }] });
    const r = loadPrxConfig(dir);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.actions[0]!.env).toEqual(env);
  });

  it('[P-SEC-6] issue 11: an engine over a file setting BASH_ENV runs none of its hooks and reports why', async () => {
    const dir = tempDir('hw-env-');
    writeHooks(dir, {
      tool_call: [{ command: '/bin/true' }, { command: '/bin/true', env: { BASH_ENV: '/tmp/evil.sh' } }],
    });
    const engine = await makeEngine(dir);
    expect(engine.actions()).toEqual([]);
    expect(engine.configIssues().map((i) => i.path)).toEqual(['$.hooks.tool_call[1].env.BASH_ENV']);
    engine.emit('tool_call', { tool: 't', success: true, output: '' });
    await engine.drain();
    expect(engine.runs()).toEqual([]);
  });

  describe('[P-API-3] through the API', () => {
    let served: ServedApp | undefined;
    afterEach(async () => {
      await served?.stop();
      served = undefined;
    });

    it('[P-API-3] [P-SEC-2] issue 11: POST /api/hooks with env.NODE_OPTIONS → 400 naming action.env.NODE_OPTIONS; hooks.json untouched', async () => {
      const dir = tempDir('hw-env-api-');
      const engine = await makeEngine(dir);
      const token = 'env-token-0123456789abcdef';
      served = await serveApp(engine, createApp({ engine, token, logger: silentLogger }));
      const res = await fetch(`${served.url}/api/hooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          event: 'tool_call',
          action: { command: '/bin/true', env: { NODE_OPTIONS: '--require /tmp/evil.js' } },
        }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        issues: [
          {
            path: 'action.env.NODE_OPTIONS',
            message: expect.stringMatching(/^env may not set NODE_OPTIONS/),
          },
        ],
      });
      expect(() => readFileSync(path.join(dir, 'hooks.json'))).toThrow(/ENOENT/);
    });
  });
});

describe('[G-RUN-1] [C-RUN-3] issue 11: the agent dialects drop the same names', () => {
  function writeJson(file: string, value: unknown): void {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(value));
  }

  /** `env` output of a hook, as NAME → value (single-line values only, which is all we set). */
  function envOf(file: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) out.set(line.slice(0, eq), line.slice(eq + 1));
    }
    return out;
  }

  /** The agent's own environment: the refused names, plus ones that must pass. */
  const PARENT = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LD_AUDIT: '/tmp/audit.so',
    JAVA_TOOL_OPTIONS: '-javaagent:/tmp/a.jar',
    RUBYOPT: '-r/tmp/x',
    PYTHONPATH: '/srv/lib',
    KEEP_ME: 'yes',
  };

  it('[G-RUN-1] issue 11: a Gemini hook env setting LD_BIND_NOW or RUBYOPT is warned about and ignored; the inherited ones are dropped', async () => {
    const project = tempDir('hw-env-gem-');
    const file = path.join(project, '.gemini', 'settings.json');
    writeJson(file, {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              {
                type: 'command',
                command: 'env > env.txt',
                env: { LD_BIND_NOW: '1', RUBYOPT: '-r/tmp/evil', HOOK_COLOR: 'teal' },
              },
            ],
          },
        ],
      },
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home: tempDir('hw-env-home-'),
      gateDialect: 'gemini',
      gemini: { systemSettings: path.join(tempDir('hw-env-etc-'), 'settings.json') },
      trust: () => ({ trusted: true, reason: 'test' }),
      env: PARENT,
    });
    expect(engine.gate.config.warnings.map((w) => [w.path, w.message])).toEqual([
      [
        '$.hooks.BeforeTool[0].hooks[0].env.LD_BIND_NOW',
        expect.stringContaining(
          'LD_BIND_NOW cannot be set (it would choose code for a loader or interpreter)',
        ),
      ],
      ['$.hooks.BeforeTool[0].hooks[0].env.RUBYOPT', expect.stringContaining('RUBYOPT cannot be set')],
    ]);
    const d = await engine.decide('BeforeTool', {
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls' },
    });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok']);
    const env = envOf(path.join(project, 'env.txt'));
    expect(env.get('HOOK_COLOR')).toBe('teal');
    expect(env.get('KEEP_ME')).toBe('yes');
    expect(env.get('PYTHONPATH')).toBe('/srv/lib');
    for (const name of ['LD_BIND_NOW', 'LD_AUDIT', 'JAVA_TOOL_OPTIONS', 'RUBYOPT'])
      expect(env.has(name), name).toBe(false);
  });

  it('[C-RUN-3] issue 11: a Claude Code command hook does not inherit LD_AUDIT, JAVA_TOOL_OPTIONS or RUBYOPT', async () => {
    const project = tempDir('hw-env-claude-');
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'env > env.txt' }] }] },
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home: tempDir('hw-env-home-'),
      gateDialect: 'claude',
      trust: () => ({ trusted: true, reason: 'test' }),
      env: PARENT,
    });
    const d = await engine.decide('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok']);
    const env = envOf(path.join(project, 'env.txt'));
    expect(env.get('KEEP_ME')).toBe('yes');
    expect(env.get('PYTHONPATH')).toBe('/srv/lib');
    for (const name of ['LD_AUDIT', 'JAVA_TOOL_OPTIONS', 'RUBYOPT']) expect(env.has(name), name).toBe(false);
  });
});
