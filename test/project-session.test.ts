/**
 * [C-IN-1] (issue 31) The session of a call that names none is the project's, derived once
 * (core/project-session.ts) from the folder's real path: `hookwerk hook` run in a project and in a
 * symlink to it, and `hookwerk decide`, give a hook the same session id.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSession } from '../src/core/project-session.ts';
import { runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

describe('[C-IN-1] one session per project, on its real path', () => {
  it('a symlink to the project has the project’s session', () => {
    const project = tempDir('hw-session-');
    const link = path.join(tempDir('hw-session-link-'), 'app');
    symlinkSync(project, link);
    expect(projectSession(link)).toBe(projectSession(project));
    expect(projectSession(project)).toMatch(/^sess_[0-9a-f]{12}$/);
    expect(projectSession(tempDir('hw-session-other-'))).not.toBe(projectSession(project));
  });

  it('`hookwerk hook` through a symlink and in the real folder, and `hookwerk decide`, hand the hook one session id', async () => {
    const project = tempDir('hw-session-project-');
    const home = tempDir('hw-session-home-');
    const link = path.join(tempDir('hw-session-link-'), 'app');
    symlinkSync(project, link);
    const log = path.join(home, 'sessions.log');
    // The user's policy (trusted, no approval needed) logs the session its hook is given.
    const policy = path.join(home, '.hookwerk', 'policy.json');
    mkdirSync(path.dirname(policy), { recursive: true });
    const logSession = `node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>require("fs").appendFileSync(process.argv[1],JSON.parse(s).session_id+"\\n"))' ${log}`;
    writeFileSync(
      policy,
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: logSession }] }] },
      }),
    );
    const input = (cwd: string) =>
      JSON.stringify({
        hook_event_name: 'PreToolUse',
        cwd,
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      });
    for (const dir of [link, project]) {
      const r = await runCli(['hook', '--agent', 'codex', '--project', dir], {
        home,
        env: { HOOKWERK_DAEMON: 'off' },
        stdin: { text: input(dir) },
      });
      expect(r.code, r.stderr).toBe(0);
    }
    const decided = await runCli(
      ['decide', '--dialect', 'policy', '--project', link, '--input', input(link), 'PreToolUse'],
      { home },
    );
    expect(decided.code, decided.stderr).toBe(0);
    const one = projectSession(project);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([one, one, one]);
  });
});
