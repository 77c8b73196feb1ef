/**
 * `installAgent` / `uninstallAgent` [R-INST-1], in-process, for each of the five agents, into the
 * project and the user files: real files in temp folders, a fixed hook command (so nothing here
 * depends on the build), and the installed file read back by hookwerk's own loader of that agent.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../src/core/plain-object.ts';
import type { GateLoadBase } from '../src/dialects/agent/gate-dialect.ts';
import { GATE_DIALECTS } from '../src/dialects/gate-dialects.ts';
import { HOOK_AGENTS, type HookAgentName } from '../src/dialects/hook-agents.ts';
import {
  type HookCommandFlags,
  hookCommandLine,
  hookFlags,
  shellQuote,
} from '../src/install/hook-command.ts';
import { HookFileError } from '../src/install/hook-file-error.ts';
import { type InstallOptions, installAgent } from '../src/install/install-agent.ts';
import { installRecordFile } from '../src/install/install-record.ts';
import { isOurCommand } from '../src/install/our-entries.ts';
import { uninstallAgent } from '../src/install/uninstall-agent.ts';
import type { AgentConfig } from '../src/sources/agent-config.ts';
import { tempDir } from './helpers.ts';

const AGENTS: HookAgentName[] = ['claude', 'gemini', 'codex', 'copilot', 'cursor'];
const SCOPES = ['project', 'user'] as const;
type Scope = (typeof SCOPES)[number];

/** The command tests install: shaped as hookCommandLine's, independent of dist/. */
const CMD = (agent: string, flags: HookCommandFlags = {}) =>
  `'/opt/hw/bin/hookwerk.js' hook --agent ${agent}${hookFlags(flags)}`;
/** The same after the native client was built: another command line for the same entries. */
const NATIVE = (agent: string, flags: HookCommandFlags = {}) =>
  `'/opt/hw/dist/native/hookwerk-hook' --agent ${agent}${hookFlags(flags)}`;
/** The command of `agent`'s entry for `event` with no policy: `--timeout` the agent's default [G-FAIL-4]. */
const cmdOf = (agent: HookAgentName, event: string, cmd = CMD) => {
  const install = HOOK_AGENTS[agent].install;
  return cmd(agent, {
    ...(install.needsEventFlag ? { event } : {}),
    timeoutS: install.timeouts.defaultS(event),
  });
};

/** Each agent's existing file: comments, its own entries, other settings. */
const WITH_COMMENTS: Record<HookAgentName, string> = {
  claude: `{
    // team settings
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./guard.sh" }] } // the team's guard
        ]
    },
    "permissions": { "allow": ["Bash(ls)"] } /* keep me */
}
`,
  gemini: `{
  // Gemini settings
  "general": { "vimMode": true },
  "hooks": {
    "BeforeTool": [
      { "matcher": "run_shell_command", "hooks": [{ "type": "command", "name": "guard", "command": "./guard.sh" }] } // the team's guard
    ]
  }
}
`,
  codex: `{
\t// Codex hooks
\t"hooks": {
\t\t"PreToolUse": [
\t\t\t{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./guard.sh", "timeout": 10 }] } // the team's guard
\t\t]
\t}
}
`,
  copilot: `{
  "version": 1,
  // repository hooks
  "hooks": {
    "preToolUse": [
      { "type": "command", "bash": "./guard.sh", "timeoutSec": 10 } // the team's guard
    ]
  }
}
`,
  cursor: `{
  "version": 1,
  // Cursor hooks
  "hooks": {
    "beforeShellExecution": [{ "command": "./guard.sh" }], // the team's guard
    "preToolUse": [
      { "command": "./audit.sh", "matcher": "Shell" }
    ]
  }
}
`,
};

/** The same content as plain JSON: what each agent (and our loader) reads. */
function plain(agent: HookAgentName): string {
  return WITH_COMMENTS[agent]
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\/\*.*?\*\//g, '')
    .replace(/[ \t]+\n/g, '\n');
}

/** The user's own hook command in each fixture. */
const THEIRS = './guard.sh';

interface World {
  root: string;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

function world(): World {
  const root = tempDir('hw-install-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  return { root, home, project, env: { PATH: process.env.PATH } };
}

function opts(
  w: World,
  agent: HookAgentName,
  scope: Scope,
  extra: Partial<InstallOptions> = {},
): InstallOptions {
  return {
    agent,
    home: w.home,
    env: w.env,
    command: CMD,
    ...(scope === 'user' ? { user: true } : { projectDir: w.project }),
    ...extra,
  };
}

function fileOf(w: World, agent: HookAgentName, scope: Scope): string {
  const install = HOOK_AGENTS[agent].install;
  return scope === 'user' ? install.userFile(w.home, w.env) : install.projectFile(w.project);
}

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const read = (file: string) => readFileSync(file, 'utf8');
function json(file: string): Record<string, unknown> {
  const value: unknown = JSON.parse(read(file));
  if (!isPlainObject(value)) throw new Error(`${file} holds no object`);
  return value;
}

/** The command of each of our entries, by event, in hookwerk's shape for the agent. */
function ourCommands(agent: HookAgentName, value: unknown): Record<string, string[]> {
  const hooks = isPlainObject(value) && isPlainObject(value.hooks) ? value.hooks : {};
  const out: Record<string, string[]> = {};
  for (const [event, list] of Object.entries(hooks)) {
    for (const item of Array.isArray(list) ? list : []) {
      const handlers: unknown[] = isPlainObject(item) && Array.isArray(item.hooks) ? item.hooks : [item];
      for (const h of handlers) {
        const command = isPlainObject(h) ? String(h.bash ?? h.command) : '';
        if (!isOurCommand(command, agent)) continue;
        out[event] = [...(out[event] ?? []), command];
      }
    }
  }
  return out;
}

function expectedCommands(agent: HookAgentName, cmd = CMD): Record<string, string[]> {
  const install = HOOK_AGENTS[agent].install;
  return Object.fromEntries(install.events.map((e) => [e, [cmdOf(agent, e, cmd)]]));
}

/** Each line of `before` is in `after`, in order, as it was (or with the one comma an append adds). */
function expectLinesKept(before: string, after: string): void {
  const lines = after.split('\n');
  let at = 0;
  for (const line of before.split('\n')) {
    const found = lines.findIndex((l, i) => i >= at && (l === line || withoutOneComma(l).includes(line)));
    expect(found, `line kept: ${line}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
}

function withoutOneComma(line: string): string[] {
  return [...line].flatMap((c, i) => (c === ',' ? [line.slice(0, i) + line.slice(i + 1)] : []));
}

/** hookwerk's own loader of the agent, reading the installed files (and nothing under /etc). */
async function load(w: World, agent: HookAgentName): Promise<AgentConfig> {
  const none = path.join(w.root, 'none');
  const base: GateLoadBase = { projectDir: w.project, home: w.home, env: w.env };
  const options = {
    claude: { managedSettings: path.join(none, 'managed.json') },
    gemini: { systemSettings: path.join(none, 'system.json') },
    copilot: { policyDir: none },
    cursor: { enterpriseFile: path.join(none, 'enterprise.json') },
  };
  return (await GATE_DIALECTS[agent].load()).load(base, options);
}

async function expectLoadsClean(w: World, agent: HookAgentName, alsoTheirs: boolean): Promise<void> {
  const config = await load(w, agent);
  expect(config.issues).toEqual([]);
  expect(config.warnings).toEqual([]);
  const install = HOOK_AGENTS[agent].install;
  for (const event of install.events) {
    const command = cmdOf(agent, event);
    expect(
      config.hooks.filter((h) => h.event === event && 'command' in h && h.command === command),
      `${agent} ${event}`,
    ).toHaveLength(1);
  }
  if (alsoTheirs) expect(config.hooks.some((h) => 'command' in h && h.command === THEIRS)).toBe(true);
}

describe.each(AGENTS)('[R-INST-1] install --agent %s', (agent) => {
  const install = HOOK_AGENTS[agent].install;

  describe.each(SCOPES)('%s file', (scope) => {
    it('into a missing file: creates it (and its folders) with one entry per event, new-file fields first', async () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      const r = installAgent(opts(w, agent, scope));
      expect(r).toMatchObject({
        file,
        created: true,
        changed: true,
        events: [...install.events],
        updated: [],
      });
      const value = json(file);
      expect(ourCommands(agent, value)).toEqual(expectedCommands(agent));
      expect(Object.keys(value)).toEqual([...Object.keys(install.newFile ?? {}), 'hooks']);
      expect(Object.keys(isPlainObject(value.hooks) ? value.hooks : {})).toEqual([...install.events]);
      expect(read(file).endsWith('\n')).toBe(true);
      await expectLoadsClean(w, agent, false);
    });

    it('into an existing file with comments and other entries: keeps them, and their formatting', () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      put(file, WITH_COMMENTS[agent]);
      const r = installAgent(opts(w, agent, scope));
      expect(r).toMatchObject({ created: false, changed: true, events: [...install.events] });
      const after = read(file);
      expectLinesKept(WITH_COMMENTS[agent], after);
      // Appended after theirs, in the file's own indentation.
      expect(after.indexOf(THEIRS)).toBeLessThan(after.indexOf(cmdOf(agent, install.events[0] ?? '')));
      const indent = agent === 'codex' ? '\t' : agent === 'claude' ? '    ' : '  ';
      expect(
        after
          .split('\n')
          .filter((l) => l.includes('/opt/hw/'))
          .every((l) => l.startsWith(indent)),
      ).toBe(true);
    });

    it('into an existing plain JSON file: our loader reads theirs and ours, with no issue and no warning', async () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      put(file, plain(agent));
      installAgent(opts(w, agent, scope));
      await expectLoadsClean(w, agent, true);
    });

    it('twice = once: the second run changes no byte', () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      put(file, WITH_COMMENTS[agent]);
      installAgent(opts(w, agent, scope));
      const first = read(file);
      const r = installAgent(opts(w, agent, scope));
      expect(r).toMatchObject({
        changed: false,
        events: [],
        updated: [],
        unchanged: [...install.events],
        diff: '',
      });
      expect(read(file)).toBe(first);
    });

    it('--dry-run shows the change and writes nothing (no file, no folder, no record)', () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      const r = installAgent(opts(w, agent, scope, { dryRun: true }));
      expect(r).toMatchObject({ dryRun: true, created: true, changed: true });
      expect(r.diff).toContain(`+++ ${file}`);
      expect(r.diff).toContain(`+${' '.repeat(8)}`);
      expect(existsSync(path.dirname(file))).toBe(false);
      expect(existsSync(installRecordFile(w.home, file))).toBe(false);

      put(file, WITH_COMMENTS[agent]);
      const again = installAgent(opts(w, agent, scope, { dryRun: true }));
      expect(again.diff).toMatch(/^--- .*\n\+\+\+ .*\n@@ /);
      expect(read(file)).toBe(WITH_COMMENTS[agent]);
      expect(existsSync(installRecordFile(w.home, file))).toBe(false);
    });

    it('uninstall restores the existing file byte for byte, and removes a file install created', () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      put(file, WITH_COMMENTS[agent]);
      chmodSync(file, 0o640);
      installAgent(opts(w, agent, scope));
      expect(statSync(file).mode & 0o777).toBe(0o640);
      const r = uninstallAgent(opts(w, agent, scope));
      expect(r).toMatchObject({ changed: true, restored: true, removed: false, events: [...install.events] });
      expect(read(file)).toBe(WITH_COMMENTS[agent]);
      expect(statSync(file).mode & 0o777).toBe(0o640);
      expect(existsSync(installRecordFile(w.home, file))).toBe(false);

      rmSync(path.dirname(file), { recursive: true });
      installAgent(opts(w, agent, scope));
      const gone = uninstallAgent(opts(w, agent, scope));
      expect(gone).toMatchObject({ changed: true, removed: true });
      expect(existsSync(file)).toBe(false);
      // The folder install made for it goes too.
      expect(existsSync(path.dirname(file))).toBe(false);
    });

    it('uninstall after the user edited another part: keeps the edit, removes ours', () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      put(file, plain(agent));
      installAgent(opts(w, agent, scope));
      // An edit of theirs, made with the agent's own tools (the file rewritten as JSON).
      const edited = json(file);
      edited.addedByUser = true;
      writeFileSync(file, JSON.stringify(edited, null, 2));
      const r = uninstallAgent(opts(w, agent, scope));
      expect(r).toMatchObject({
        changed: true,
        restored: false,
        removed: false,
        events: [...install.events],
      });
      const value = json(file);
      expect(value).toEqual({ ...JSON.parse(plain(agent)), addedByUser: true });

      // An edit by hand, in place: every other byte comes back as it was.
      put(file, WITH_COMMENTS[agent]);
      installAgent(opts(w, agent, scope));
      const reviewed = (text: string) => text.replace("the team's guard", "the team's guard, reviewed");
      writeFileSync(file, reviewed(read(file)));
      expect(uninstallAgent(opts(w, agent, scope))).toMatchObject({ changed: true, restored: false });
      expect(read(file)).toBe(reviewed(WITH_COMMENTS[agent]));
    });

    it('uninstall without a record (a hand edit made it stale): removes ours from the text, every byte of theirs stays', () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      put(file, WITH_COMMENTS[agent]);
      installAgent(opts(w, agent, scope));
      rmSync(installRecordFile(w.home, file));
      uninstallAgent(opts(w, agent, scope));
      expect(read(file)).toBe(WITH_COMMENTS[agent]);
    });

    it('a changed command line (the native client got built) replaces ours in place; uninstall still restores', () => {
      const w = world();
      const file = fileOf(w, agent, scope);
      put(file, WITH_COMMENTS[agent]);
      installAgent(opts(w, agent, scope));
      const r = installAgent(opts(w, agent, scope, { command: NATIVE }));
      expect(r).toMatchObject({ changed: true, events: [], updated: [...install.events] });
      expect(ourCommands(agent, parseJsonc(read(file)))).toEqual(expectedCommands(agent, NATIVE));
      uninstallAgent(opts(w, agent, scope));
      expect(read(file)).toBe(WITH_COMMENTS[agent]);
    });
  });

  it.each([
    ['not JSON', '{"hooks": {', '$', /not JSON \(.* at line 1, column 12\)/],
    ['an array at the top', '[]', '$', /must be a JSON object, not an array/],
    ['hooks not an object', '{"hooks": [1]}', '$.hooks', /must be an object of events, not an array/],
    [
      'an event not an array',
      `{"hooks": {"${install.events[2]}": {"command": "x"}}}`,
      `$.hooks.${install.events[2]}`,
      /must be an array of hook entries, not an object/,
    ],
    ['a key given twice', '{"hooks": {}, "hooks": {}}', '$.hooks', /given twice/],
  ])('refuses a file that is %s: file, JSON path and reason; nothing written', (_what, text, at, reason) => {
    const w = world();
    const file = fileOf(w, agent, 'project');
    put(file, text);
    for (const run of [
      () => installAgent(opts(w, agent, 'project')),
      () => uninstallAgent(opts(w, agent, 'project')),
    ]) {
      let error: unknown;
      try {
        run();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(HookFileError);
      expect(error).toMatchObject({
        code: 'HOOK_FILE',
        file,
        path: at,
        message: expect.stringMatching(reason),
      });
      expect(error).toMatchObject({ message: expect.stringMatching(/nothing was written$/) });
      expect(read(file)).toBe(text);
      expect(existsSync(installRecordFile(w.home, file))).toBe(false);
    }
  });

  it('refuses a file it cannot read (a folder in its place)', () => {
    const w = world();
    const file = fileOf(w, agent, 'project');
    mkdirSync(file, { recursive: true });
    expect(() => installAgent(opts(w, agent, 'project'))).toThrow(
      /is a directory, not a regular file; nothing was written/,
    );
  });

  it(`[A-ALL-1] warns of hooks that run twice when the policy includes claude: ${install.runsClaudeFiles ? 'yes' : 'no'}`, () => {
    const w = world();
    put(path.join(w.project, '.hookwerk', 'policy.json'), JSON.stringify({ include: ['claude'], hooks: {} }));
    put(path.join(w.home, '.hookwerk', 'policy.json'), JSON.stringify({ include: ['claude'] }));
    const project = installAgent(opts(w, agent, 'project'));
    const user = installAgent(opts(w, agent, 'user'));
    const twice = (warnings: string[]) => warnings.filter((m) => /would run twice/.test(m));
    if (install.runsClaudeFiles) {
      expect(twice(project.warnings)).toHaveLength(2);
      expect(twice(project.warnings)[0]).toContain(path.join(w.project, '.hookwerk', 'policy.json'));
      expect(twice(user.warnings)).toHaveLength(1);
      expect(twice(user.warnings)[0]).toContain(path.join(w.home, '.hookwerk', 'policy.json'));
    } else {
      expect(twice(project.warnings)).toEqual([]);
      expect(twice(user.warnings)).toEqual([]);
    }
    // Only `include` counts: a policy without claude in it is no warning.
    const other = world();
    put(path.join(other.project, '.hookwerk', 'policy.json'), JSON.stringify({ include: ['gemini'] }));
    expect(twice(installAgent(opts(other, agent, 'project')).warnings)).toEqual([]);
  });
});

describe('[R-INST-1] the files each agent gets', () => {
  it('Codex: $CODEX_HOME/hooks.json; Copilot: $COPILOT_HOME/hooks/hookwerk.json (else ~/.codex, ~/.copilot)', () => {
    const w = world();
    const codexHome = path.join(w.root, 'codex-home');
    const copilotHome = path.join(w.root, 'copilot-home');
    const env = { ...w.env, CODEX_HOME: codexHome, COPILOT_HOME: copilotHome };
    expect(installAgent({ ...opts(w, 'codex', 'user'), env }).file).toBe(path.join(codexHome, 'hooks.json'));
    expect(installAgent({ ...opts(w, 'copilot', 'user'), env }).file).toBe(
      path.join(copilotHome, 'hooks', 'hookwerk.json'),
    );
    expect(installAgent(opts(w, 'codex', 'user')).file).toBe(path.join(w.home, '.codex', 'hooks.json'));
    expect(installAgent(opts(w, 'copilot', 'user')).file).toBe(
      path.join(w.home, '.copilot', 'hooks', 'hookwerk.json'),
    );
  });

  it("[G-FAIL-4] no policy: each agent's default timeout, in its unit (Gemini CLI ms, the others s), also as --timeout", () => {
    const w = world();
    const hooksOf = (agent: HookAgentName) => json(installAgent(opts(w, agent, 'project')).file).hooks;
    expect(hooksOf('gemini')).toHaveProperty(
      ['BeforeTool'],
      [
        {
          hooks: [
            { type: 'command', name: 'hookwerk', command: CMD('gemini', { timeoutS: 60 }), timeout: 60_000 },
          ],
        },
      ],
    );
    expect(hooksOf('claude')).toHaveProperty(
      ['PreToolUse'],
      [{ hooks: [{ type: 'command', command: CMD('claude', { timeoutS: 600 }), timeout: 600 }] }],
    );
    expect(hooksOf('claude')).toHaveProperty(
      ['UserPromptSubmit'],
      [{ hooks: [{ type: 'command', command: CMD('claude', { timeoutS: 30 }), timeout: 30 }] }],
    );
    expect(hooksOf('codex')).toHaveProperty(
      ['PreToolUse'],
      [{ hooks: [{ type: 'command', command: CMD('codex', { timeoutS: 600 }), timeout: 600 }] }],
    );
    expect(hooksOf('codex')).toHaveProperty(
      ['SessionEnd'],
      [{ hooks: [{ type: 'command', command: CMD('codex', { timeoutS: 1 }), timeout: 1 }] }],
    );
    expect(hooksOf('copilot')).toHaveProperty(
      ['preToolUse'],
      [{ type: 'command', bash: CMD('copilot', { event: 'preToolUse', timeoutS: 30 }), timeoutSec: 30 }],
    );
    // Tool calls gated once, through preToolUse; no failClosed.
    expect(hooksOf('cursor')).toHaveProperty(
      ['preToolUse'],
      [{ command: CMD('cursor', { timeoutS: 30 }), timeout: 30 }],
    );
    expect(hooksOf('cursor')).not.toHaveProperty(['beforeShellExecution']);
  });

  it('an entry of ours written by hand (hookwerk on the PATH) counts as ours: replaced in place, not added again; uninstall puts it back', () => {
    const w = world();
    const file = fileOf(w, 'claude', 'project');
    put(
      file,
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'hookwerk hook --agent claude' }] }] },
      }),
    );
    const before = read(file);
    const r = installAgent(opts(w, 'claude', 'project'));
    expect(r.updated).toEqual(['Stop']);
    expect(ourCommands('claude', json(file)).Stop).toEqual([cmdOf('claude', 'Stop')]);
    // [R-INST-1] Uninstall gives the file back as it was, the hand-written entry with it.
    uninstallAgent(opts(w, 'claude', 'project'));
    expect(read(file)).toBe(before);
  });

  it("another agent's entries and commands that merely look alike are not ours", () => {
    expect(isOurCommand(`'/x/hookwerk-hook' --agent cursor`, 'cursor')).toBe(true);
    expect(
      isOurCommand(`'/usr/bin/node' '/x/bin/hookwerk.js' hook --agent gemini --event BeforeTool`, 'gemini'),
    ).toBe(true);
    expect(isOurCommand('npx hookwerk hook --agent=codex', 'codex')).toBe(true);
    expect(isOurCommand(`'/x/hookwerk-hook' --agent cursor`, 'claude')).toBe(false);
    expect(isOurCommand('./my-hook --agent claude', 'claude')).toBe(false);
    expect(isOurCommand('hookwerk hook --agent claudette', 'claude')).toBe(false);
  });
});

describe('[R-INST-1] formatting kept, and given back by uninstall even without a record', () => {
  it.each([
    ['one line', '{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"./a.sh"}]}]}}'],
    ['CRLF and tabs', '{\r\n\t"hooks": {\r\n\t\t"Stop": [\r\n\t\t\t{"hooks": []}\r\n\t\t]\r\n\t}\r\n}\r\n'],
    ['trailing commas', '{\n  "hooks": {\n    "Stop": [\n      {"hooks": []},\n    ],\n  },\n}\n'],
    ['an inline list', '{\n  "hooks": {\n    "Stop": [{"hooks": []}, {"hooks": []}]\n  }\n}\n'],
    [
      'empty lists and a byte-order mark',
      '\uFEFF{\n  "hooks": {\n    "Stop": [],\n    "PreToolUse": [ ]\n  }\n}\n',
    ],
    ['an empty file', ''],
  ])('%s', (what, text) => {
    const w = world();
    const file = fileOf(w, 'claude', 'project');
    put(file, text);
    installAgent(opts(w, 'claude', 'project'));
    const after = read(file);
    expect(
      ourCommands('claude', JSON.parse(after.replace(/^\uFEFF/, '').replace(/,(\s*[\]}])/g, '$1'))),
    ).toEqual(expectedCommands('claude'));
    if (what === 'one line') expect(after.split('\n')).toHaveLength(1);
    if (what === 'CRLF and tabs') expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    if (text.startsWith('\uFEFF')) expect(after.startsWith('\uFEFF{')).toBe(true);
    // With the record, exactly as before; without it, our entries come out of the text, and
    // where install filled a list the file already had, it is left as the file had it or emptied.
    const restore = uninstallAgent(opts(w, 'claude', 'project'));
    expect(restore.restored || restore.removed).toBe(true);
    if (text !== '') expect(read(file)).toBe(text);
    installAgent(opts(w, 'claude', 'project'));
    rmSync(installRecordFile(w.home, file));
    uninstallAgent(opts(w, 'claude', 'project'));
    // Without a record nothing tells which lists were there before: those emptied go, `hooks` too.
    if (what === 'empty lists and a byte-order mark') expect(read(file)).toBe('\uFEFF{}\n');
    else if (text !== '') expect(read(file)).toBe(text);
  });
});

describe('[R-INST-1] what the user must still do, and switches that keep the hooks from running', () => {
  it('names the trust step of each agent', () => {
    const w = world();
    const notes = (agent: HookAgentName, scope: Scope) =>
      installAgent(opts(w, agent, scope)).notes.join('\n');
    expect(notes('codex', 'project')).toMatch(/codex exec --trust/);
    expect(notes('codex', 'user')).toMatch(/Hooks need review.*Trust all and continue/);
    expect(notes('codex', 'user')).not.toMatch(/exec --trust/);
    expect(notes('gemini', 'project')).toMatch(/GEMINI_CLI_TRUST_WORKSPACE=true/);
    expect(notes('copilot', 'project')).toMatch(/GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true/);
    expect(notes('copilot', 'user')).toBe('');
    expect(notes('cursor', 'project')).toMatch(/trusted workspace/);
  });

  it('warns when the agent has hooks turned off', () => {
    const w = world();
    put(
      fileOf(w, 'gemini', 'project'),
      JSON.stringify({ hooksConfig: { enabled: false, disabled: ['hookwerk'] } }),
    );
    expect(installAgent(opts(w, 'gemini', 'project')).warnings.join('\n')).toMatch(
      /hooksConfig.enabled to false[\s\S]*"hookwerk" in hooksConfig.disabled/,
    );
    put(path.join(w.home, '.codex', 'config.toml'), '[features]\nhooks = false\n');
    expect(installAgent(opts(w, 'codex', 'user')).warnings.join('\n')).toMatch(/\[features\] hooks = false/);
    put(fileOf(w, 'claude', 'user'), JSON.stringify({ disableAllHooks: true }));
    expect(installAgent(opts(w, 'claude', 'user')).warnings.join('\n')).toMatch(/disableAllHooks/);
    put(
      path.join(w.project, '.github', 'copilot', 'settings.json'),
      JSON.stringify({ disableAllHooks: true }),
    );
    expect(installAgent(opts(w, 'copilot', 'project')).warnings.join('\n')).toMatch(/disableAllHooks/);
  });

  it('warns that an agent reading plain JSON gets a file with comments (not Gemini CLI, which reads them; trailing commas it does not)', () => {
    const w = world();
    for (const agent of AGENTS) {
      put(fileOf(w, agent, 'project'), WITH_COMMENTS[agent]);
      const warned = installAgent(opts(w, agent, 'project')).warnings.some((m) =>
        /comments or trailing commas/.test(m),
      );
      expect(warned, agent).toBe(agent !== 'gemini');
    }
    put(fileOf(w, 'gemini', 'user'), '{\n  "general": {"vimMode": true,},\n}\n');
    expect(installAgent(opts(w, 'gemini', 'user')).warnings.join('\n')).toMatch(
      /has trailing commas \(kept\): Gemini CLI expects JSON with comments at most/,
    );
  });
});

describe('[R-INST-1] the hook command', () => {
  it("the native client by absolute path when it is built and executable, else node and hookwerk's bin script; shell-quoted", () => {
    const root = path.join(tempDir('hw-root-'), "it's here");
    mkdirSync(path.join(root, 'dist', 'native'), { recursive: true });
    expect(hookCommandLine('codex', {}, root)).toBe(
      `${shellQuote(process.execPath)} '${root.replace("'", `'\\''`)}/bin/hookwerk.js' hook --agent codex`,
    );
    const client = path.join(root, 'dist', 'native', 'hookwerk-hook');
    writeFileSync(client, '');
    expect(hookCommandLine('copilot', { event: 'preToolUse', timeoutS: 35 }, root)).toMatch(
      /hookwerk\.js' hook --agent copilot --event preToolUse --timeout 35$/,
    );
    chmodSync(client, 0o755);
    expect(hookCommandLine('copilot', { event: 'preToolUse' }, root)).toBe(
      `'${client.replace("'", `'\\''`)}' --agent copilot --event preToolUse`,
    );
    expect(
      isOurCommand(hookCommandLine('copilot', { event: 'preToolUse', timeoutS: 35 }, root), 'copilot'),
    ).toBe(true);
  });

  it('the default command runs, from the shell, the hookwerk of this checkout', () => {
    expect(hookCommandLine('claude')).toMatch(/hookwerk(\.js' hook|-hook') --agent claude$/);
    expect(isOurCommand(hookCommandLine('claude'), 'claude')).toBe(true);
  });

  it('an unknown agent, and a project and --user at once, are refused before anything is read', () => {
    const w = world();
    expect(() => installAgent({ agent: 'vim', projectDir: w.project, home: w.home })).toThrow(
      /unknown agent "vim"; expected one of claude, gemini, codex, copilot, cursor/,
    );
    expect(() => installAgent({ agent: 'claude', projectDir: w.project, user: true, home: w.home })).toThrow(
      /give one of them/,
    );
    expect(() =>
      installAgent({ agent: 'claude', projectDir: path.join(w.root, 'typo'), home: w.home }),
    ).toThrow(/does not exist/);
    expect(existsSync(path.join(w.root, 'typo'))).toBe(false);
  });
});
