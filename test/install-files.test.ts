/**
 * `hookwerk install` / `uninstall` over files a cloned repository or a dotfiles setup left
 * [R-INST-1, G-FAIL-4]: an entry calling hookwerk hook that install did not write as it is (a
 * matcher, `async`, a one-second timeout) is replaced, loudly, and uninstall still gives the file
 * back byte for byte; a settings file that is a dangling symbolic link is refused, and uninstall
 * never deletes a link; uninstall after an unrelated edit keeps comments inside an event list.
 * Real CLI processes on real files in a temp HOME and project.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { findNodeAtLocation, parse as parseJsonc, parseTree } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../src/core/plain-object.ts';
import { runCli } from './cli-runner.ts';
import { tempDir, writeScript } from './helpers.ts';

interface World {
  root: string;
  home: string;
  project: string;
}

/** A temp HOME whose policy denies Bash (exit 2), and an empty project. */
function world(): World {
  const root = tempDir('hw-install-files-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
  mkdirSync(project);
  const guard = writeScript(root, 'guard.sh', `echo 'no Bash here' >&2\nexit 2`);
  writeFileSync(
    path.join(home, '.hookwerk', 'policy.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    }),
  );
  return { root, home, project };
}

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const install = (w: World, agent: string) =>
  runCli(['install', '--agent', agent, '--project', w.project], { home: w.home });
const uninstall = (w: World, agent: string) =>
  runCli(['uninstall', '--agent', agent, '--project', w.project], { home: w.home });

/** The event list `hooks[event]` of a JSONC file. */
function listOf(file: string, event: string): unknown[] {
  const value: unknown = parseJsonc(readFileSync(file, 'utf8'));
  const list = isPlainObject(value) && isPlainObject(value.hooks) ? value.hooks[event] : undefined;
  return Array.isArray(list) ? list : [];
}

describe('[R-INST-1] [G-FAIL-4] install replaces an entry it did not write as it is', () => {
  it('Claude Code: a planted group (matcher Read, async, timeout 1) is replaced and reported; the gate then sees Bash; uninstall restores the file byte for byte', async () => {
    const w = world();
    const file = path.join(w.project, '.claude', 'settings.json');
    const planted = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Read", "hooks": [{ "type": "command", "command": "hookwerk hook --agent claude", "async": true, "timeout": 1 }] }
    ]
  }
}
`;
    put(file, planted);
    const r = await install(w, 'claude');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^hookwerk: replaced an entry calling hookwerk hook that is not what install writes, with install's own: .*settings\.json: \$\.hooks\.PreToolUse\[0\]\.hooks\[0\]: it was \{"matcher":"Read","hooks":\[\{"type":"command","command":"hookwerk hook --agent claude","async":true,"timeout":1\}\]\}$/m,
    );
    expect(r.stdout).toMatch(/entries updated or replaced by install's own: PreToolUse/);
    const list = listOf(file, 'PreToolUse');
    expect(list).toHaveLength(1);
    expect(list[0]).toEqual({
      hooks: [
        { type: 'command', command: expect.stringMatching(/--agent claude --timeout 605$/), timeout: 605 },
      ],
    });

    // The entry now gates every tool: Bash is denied by the policy.
    const entry = list[0];
    const command =
      isPlainObject(entry) && Array.isArray(entry.hooks) && isPlainObject(entry.hooks[0])
        ? String(entry.hooks[0].command)
        : '';
    const gate = spawnSync('/bin/sh', ['-c', command], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's1',
        cwd: w.project,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
      }),
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: w.home, HOOKWERK_DAEMON_SOCKET: path.join(w.root, 'none.sock') },
    });
    expect(gate.stdout).toContain('"permissionDecision":"deny"');
    expect(gate.stdout).toContain('no Bash here');

    // Twice = once: now it is install's own.
    const again = await install(w, 'claude');
    expect(again.stderr).not.toMatch(/replaced/);
    expect(again.stdout).toContain('nothing to do');

    const u = await uninstall(w, 'claude');
    expect(u.code, u.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(planted);
  });

  it('Cursor: a planted flat entry is replaced in place; a second copy goes; uninstall restores the file', async () => {
    const w = world();
    const file = path.join(w.project, '.cursor', 'hooks.json');
    const planted = `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      { "command": "hookwerk hook --agent cursor", "matcher": "Read", "timeout": 1 },
      { "command": "./their-guard.sh" },
      { "command": "hookwerk hook --agent cursor --timeout 1" }
    ]
  }
}
`;
    put(file, planted);
    const r = await install(w, 'cursor');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/^hookwerk: replaced /gm)).toHaveLength(2);
    expect(listOf(file, 'preToolUse')).toEqual([
      { command: expect.stringMatching(/--agent cursor --timeout 605$/), timeout: 605 },
      { command: './their-guard.sh' },
    ]);
    expect((await uninstall(w, 'cursor')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(planted);
  });
});

describe('[R-INST-1] symbolic links', () => {
  it('install over a dangling settings link refuses in one line (exit 1) and leaves the link as it was', async () => {
    const w = world();
    const file = path.join(w.project, '.claude', 'settings.json');
    mkdirSync(path.dirname(file));
    const target = path.join(w.root, 'dotfiles', 'claude-settings.json');
    symlinkSync(target, file);
    const r = await install(w, 'claude');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `hookwerk: ${file}: $: is a symbolic link to ${target}, which does not exist; create that file (even as {}) or remove the link, then run install again; nothing was written\n`,
    );
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(target);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(path.join(w.home, '.hookwerk', 'installs'))).toBe(false);
  });

  it('uninstall never deletes a link: a file install created, then moved into dotfiles and linked, keeps its link', async () => {
    const w = world();
    const file = path.join(w.project, '.claude', 'settings.json');
    expect((await install(w, 'claude')).code).toBe(0);
    const target = path.join(w.root, 'dotfiles', 'claude-settings.json');
    mkdirSync(path.dirname(target));
    renameSync(file, target);
    symlinkSync(target, file);
    const u = await uninstall(w, 'claude');
    expect(u.code, u.stderr).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(target);
    const left: unknown = JSON.parse(readFileSync(target, 'utf8'));
    expect(left).toEqual({});
  });
});

describe('[R-INST-1] uninstall after an unrelated edit keeps comments inside an event list', () => {
  it('a list that held only a comment: the comment stays, the edit stays, our entry goes', async () => {
    const w = world();
    const file = path.join(w.project, '.claude', 'settings.json');
    const before = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      // guards go here
    ]
  }
}
`;
    put(file, before);
    expect((await install(w, 'claude')).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"opus"', '"sonnet"'));
    const u = await uninstall(w, 'claude');
    expect(u.code, u.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before.replace('"opus"', '"sonnet"'));
  });

  it('a comment and an entry the user added after ours: both stay, ours goes', async () => {
    const w = world();
    const file = path.join(w.project, '.claude', 'settings.json');
    put(file, '{\n  "hooks": {\n    "PreToolUse": []\n  }\n}\n');
    expect((await install(w, 'claude')).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const root = parseTree(text);
    const ours = root === undefined ? undefined : findNodeAtLocation(root, ['hooks', 'PreToolUse', 0]);
    if (ours === undefined) throw new Error('no entry of ours');
    const end = ours.offset + ours.length;
    const added = `,\n      // the team's audit log\n      { "hooks": [{ "type": "command", "command": "./audit.sh" }] }`;
    writeFileSync(file, text.slice(0, end) + added + text.slice(end));
    const u = await uninstall(w, 'claude');
    expect(u.code, u.stderr).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain("      // the team's audit log\n");
    expect(after).not.toContain('hookwerk');
    expect(listOf(file, 'PreToolUse')).toEqual([{ hooks: [{ type: 'command', command: './audit.sh' }] }]);
  });
});
