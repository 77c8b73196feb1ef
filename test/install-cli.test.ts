/**
 * `hookwerk install` / `uninstall` as a user runs them [R-INST-1]: a few end-to-end cases through
 * the built CLI (the library cases are in install.test.ts). HOME is a temp folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../src/core/plain-object.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

function world() {
  const root = tempDir('hw-install-cli-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  return { home, project };
}

describe('[R-INST-1] hookwerk install / uninstall (CLI)', () => {
  it('installs into a new file with the absolute hook command, says what the user must still do, and uninstalls it', async () => {
    const { home, project } = world();
    const file = path.join(project, '.codex', 'hooks.json');
    const r = await runCli(['install', '--agent', 'codex', '--project', project], { home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Create ${file}: hookwerk's hooks for Codex CLI`);
    expect(r.stdout).toMatch(/events added: SessionStart, UserPromptSubmit, PreToolUse/);
    expect(r.stdout).toMatch(/note: .*codex exec --trust/);
    const text = readFileSync(file, 'utf8');
    // This checkout's hookwerk, by absolute path: the native client if built, else node + bin script.
    expect(text).toMatch(
      new RegExp(
        `${REPO.replaceAll('/', '\\/')}\\/(bin\\/hookwerk\\.js' hook|dist\\/native\\/hookwerk-hook') --agent codex --timeout 600"`,
      ),
    );

    const again = await runCli(['install', '--agent', 'codex', '--project', project], { home });
    expect(again.stdout).toContain('nothing to do');
    expect(readFileSync(file, 'utf8')).toBe(text);

    const u = await runCli(['uninstall', '--agent', 'codex', '--project', project], { home });
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toContain(`Remove ${file} (install created it; nothing else is in it)`);
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it("the command install wrote runs from the agent's shell: hookwerk hook answers no objection [R-HOOK-2]", async () => {
    const { home, project } = world();
    for (const agent of ['claude', 'copilot']) {
      const r = await runCli(['install', '--agent', agent, '--project', project], { home });
      expect(r.code, r.stderr).toBe(0);
    }
    const claude: unknown = JSON.parse(readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8'));
    const copilot: unknown = JSON.parse(
      readFileSync(path.join(project, '.github', 'hooks', 'hookwerk.json'), 'utf8'),
    );
    expect(claude).toHaveProperty(['hooks', 'PreToolUse', 0, 'hooks', 0, 'command']);
    expect(copilot).toHaveProperty(['hooks', 'preToolUse', 0, 'bash']);
    const run = (shell: string, command: string, input: object) =>
      spawnSync(shell, ['-c', command], {
        input: JSON.stringify(input),
        encoding: 'utf8',
        // No daemon started in the temp home (it would outlive the test), no snapshot build.
        env: {
          PATH: process.env.PATH,
          HOME: home,
          CLAUDE_PROJECT_DIR: project,
          HOOKWERK_DAEMON: 'off',
          HOOKWERK_SNAPSHOT: 'off',
        },
      });
    const command = (value: unknown, at: (string | number)[]) =>
      String(
        at.reduce<unknown>(
          (v, k) =>
            typeof k === 'number'
              ? Array.isArray(v)
                ? v[k]
                : undefined
              : isPlainObject(v)
                ? v[k]
                : undefined,
          value,
        ),
      );
    // Claude Code runs it with /bin/sh -c; Copilot CLI with bash.
    const a = run('/bin/sh', command(claude, ['hooks', 'PreToolUse', 0, 'hooks', 0, 'command']), {
      hook_event_name: 'PreToolUse',
      session_id: 's1',
      cwd: project,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect({ code: a.status, stdout: a.stdout }, a.stderr).toEqual({ code: 0, stdout: '' });
    const b = run('bash', command(copilot, ['hooks', 'preToolUse', 0, 'bash']), {
      sessionId: 's1',
      timestamp: 1,
      cwd: project,
      toolName: 'bash',
      toolArgs: { command: 'ls' },
    });
    expect({ code: b.status, stdout: b.stdout.trim() }, b.stderr).toEqual({ code: 0, stdout: '{}' });
  });

  it('--dry-run prints the diff and writes nothing; --user writes the home file', async () => {
    const { home, project } = world();
    const dry = await runCli(['install', '--agent', 'gemini', '--user', '--dry-run'], { home, cwd: project });
    expect(dry.code, dry.stderr).toBe(0);
    const file = path.join(home, '.gemini', 'settings.json');
    expect(dry.stdout).toMatch(
      new RegExp(`^--- /dev/null\\n\\+\\+\\+ ${file}\\n@@ -0,0 \\+1,\\d+ @@\\n\\+\\{`),
    );
    expect(dry.stdout).toMatch(/dry run: nothing was written\n$/);
    expect(existsSync(path.join(home, '.gemini'))).toBe(false);
    expect(existsSync(path.join(home, '.hookwerk'))).toBe(false);
  });

  it('refuses an invalid file: one line on stderr (file, JSON path, reason), exit 1, nothing written', async () => {
    const { home, project } = world();
    const file = path.join(project, '.cursor', 'hooks.json');
    mkdirSync(path.dirname(file));
    const text = '{"version": 1, "hooks": {"preToolUse": {"command": "x"}}}';
    writeFileSync(file, text);
    const r = await runCli(['install', '--agent', 'cursor', '--project', project], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `hookwerk: ${file}: $.hooks.preToolUse: must be an array of hook entries, not an object; nothing was written\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(path.join(home, '.hookwerk'))).toBe(false);
  });

  it('refuses an unknown agent, and --project with --user, in one line', async () => {
    const { home, project } = world();
    const unknown = await runCli(['install', '--agent', 'vim', '--project', project], { home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^hookwerk: unknown agent "vim"; expected one of claude, gemini, codex, copilot, cursor\n$/,
    );
    const both = await runCli(['uninstall', '--agent', 'claude', '--project', project, '--user'], { home });
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^hookwerk: --project and --user are two targets; give one of them\n$/);
    expect(both.stderr).not.toMatch(STACK);
  });

  it('[A-ALL-1] warns on stderr, and still installs, when the policy includes claude for Copilot CLI', async () => {
    const { home, project } = world();
    mkdirSync(path.join(project, '.hookwerk'));
    writeFileSync(path.join(project, '.hookwerk', 'policy.json'), '{"include": ["claude"]}');
    const r = await runCli(['install', '--agent', 'copilot', '--project', project], { home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^hookwerk: warning: .*policy\.json says "include": \["claude"\], and GitHub Copilot CLI runs the Claude Code hook files itself: those hooks would run twice/,
    );
    expect(existsSync(path.join(project, '.github', 'hooks', 'hookwerk.json'))).toBe(true);
  });
});
