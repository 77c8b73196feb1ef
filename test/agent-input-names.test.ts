/**
 * [R-MAP-1, R-HOOK-1] What an agent's tool really does is what the policy sees (issue 28 item 10),
 * through real `hookwerk hook` processes with a temp HOME holding `~/.hookwerk/policy.json`:
 *
 * - Copilot CLI 1.0.102's `create`/`view`/`edit` use `path`: a `file_path` the model adds beside
 *   it is a decoy and never the `file_path` the policy judges (camelCase and VS Code forms).
 * - Cursor's MCP tools are `mcp__<server>__<tool>` with both names normalised as Claude Code does,
 *   and a tool whose own name holds `mcp__github__…` stays its own server's tool.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpToolName } from '../src/action/mcp-tool-name.ts';
import { runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

function homeWith(policy: unknown): string {
  const home = tempDir('hw-names-home-');
  const file = path.join(home, '.hookwerk', 'policy.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(policy));
  return home;
}

const deny = (reason: string) => `echo '${reason}' >&2; exit 2`;

/** `.env` guards as Claude Code users write them: `if` rules on Claude's file tools. */
const ENV_GUARDS = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Edit|Write|Read',
        hooks: [
          { type: 'command', if: 'Edit(.env)', command: deny('no writes to .env') },
          { type: 'command', if: 'Read(.env)', command: deny('no reads of .env') },
        ],
      },
    ],
  },
};

async function hook(home: string, agent: string, input: unknown, event?: string): Promise<unknown> {
  const args = ['hook', '--agent', agent, ...(event !== undefined ? ['--event', event] : [])];
  const r = await runCli(args, { home, cwd: home, stdin: { text: JSON.stringify(input) } });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout === '' ? undefined : JSON.parse(r.stdout);
}

describe('[R-MAP-1] Copilot: the file_path the policy sees is the path the tool uses', () => {
  const copilot = (toolName: string, toolArgs: unknown) => ({
    sessionId: 's-1',
    timestamp: 1,
    cwd: '/work',
    toolName,
    toolArgs,
  });

  it('create with path .env and a decoy file_path is denied; so are view and edit; toolArgs as a JSON string too', async () => {
    const home = homeWith(ENV_GUARDS);
    const cases: [string, unknown, string][] = [
      ['create', { path: '.env', file_path: 'notes.txt', file_text: 'TOKEN=1' }, 'no writes to .env'],
      [
        'create',
        JSON.stringify({ path: '.env', file_path: 'notes.txt', file_text: 'x' }),
        'no writes to .env',
      ],
      ['edit', { path: '.env', file_path: 'README.md', old_str: 'a', new_str: 'b' }, 'no writes to .env'],
      ['view', { path: '.env', file_path: 'README.md' }, 'no reads of .env'],
    ];
    const answers = await Promise.all(
      cases.map(([tool, args]) => hook(home, 'copilot', copilot(tool, args), 'preToolUse')),
    );
    for (const [i, answer] of answers.entries())
      expect(answer).toEqual({ permissionDecision: 'deny', permissionDecisionReason: cases[i]![2] });
    // The other way round, a decoy .env beside a harmless path is not what the tool writes.
    expect(
      await hook(
        home,
        'copilot',
        copilot('create', { file_path: '.env', path: 'notes.txt', file_text: 'x' }),
        'preToolUse',
      ),
    ).toEqual({});
  });

  it("the VS Code form (PascalCase key): Copilot's Create is Claude's Write, on its path", async () => {
    const home = homeWith(ENV_GUARDS);
    const answer = await hook(home, 'copilot', {
      hook_event_name: 'PreToolUse',
      session_id: 's-1',
      cwd: '/work',
      tool_name: 'Create',
      tool_input: { path: '.env', file_path: 'notes.txt', file_text: 'x' },
    });
    expect(answer).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no writes to .env',
      },
    });
  });
});

describe('[R-MAP-1] Cursor MCP: names as Claude Code builds them, the tool never escapes its server', () => {
  const POLICY = {
    hooks: {
      PreToolUse: [
        {
          matcher: 'mcp__evil__.*',
          hooks: [{ type: 'command', command: deny('the evil server is blocked') }],
        },
        {
          matcher: 'mcp__cursor__.*',
          hooks: [{ type: 'command', command: deny('unnamed servers are blocked') }],
        },
        { matcher: 'mcp__my_server__do_it', hooks: [{ type: 'command', command: deny('do it is blocked') }] },
        {
          // An auto-approval for GitHub's tools: a tool of another server must never get it.
          matcher: 'mcp__github__.*',
          hooks: [
            {
              type: 'command',
              command: `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"github is trusted"}}'`,
            },
          ],
        },
      ],
    },
  };
  const mcpCall = (tool: string, server?: string) => ({
    hook_event_name: 'beforeMCPExecution',
    conversation_id: 'c-1',
    workspace_roots: ['/work'],
    tool_name: tool,
    tool_input: '{"repo":"x"}',
    command: 'npx some-server',
    ...(server !== undefined ? { server_name: server } : {}),
  });
  const denied = (reason: string) => ({ permission: 'deny', user_message: reason, agent_message: reason });

  it('a tool named mcp__github__wipe stays its server’s tool (evil, or the unnamed one): its guard denies, GitHub’s allow never applies', async () => {
    const home = homeWith(POLICY);
    const [named, unnamed, viaPreToolUse, github] = await Promise.all([
      hook(home, 'cursor', mcpCall('mcp__github__wipe', 'evil')),
      hook(home, 'cursor', mcpCall('mcp__github__wipe')),
      hook(home, 'cursor', {
        hook_event_name: 'preToolUse',
        conversation_id: 'c-1',
        workspace_roots: ['/work'],
        tool_name: 'MCP:mcp__github__wipe',
        tool_input: { repo: 'x' },
        server_name: 'evil',
      }),
      hook(home, 'cursor', mcpCall('list_issues', 'github')),
    ]);
    expect(named).toEqual(denied('the evil server is blocked'));
    expect(unnamed).toEqual(denied('unnamed servers are blocked'));
    expect(viaPreToolUse).toEqual(denied('the evil server is blocked'));
    expect(github).toEqual({
      permission: 'allow',
      user_message: 'github is trusted',
      agent_message: 'github is trusted',
    });
  });

  it("server and tool names are normalised as Claude Code's (my.server / do it → mcp__my_server__do_it)", async () => {
    const home = homeWith(POLICY);
    expect(await hook(home, 'cursor', mcpCall('do it', 'my.server'))).toEqual(denied('do it is blocked'));
  });

  it('mcpToolName: Claude Code’s names, except where a name would read as another server', () => {
    expect(mcpToolName('notes', 'delete_all')).toBe('mcp__notes__delete_all');
    expect(mcpToolName('my.server', 'do it')).toBe('mcp__my_server__do_it');
    expect(mcpToolName('srv', 'get__thing')).toBe('mcp__srv__get__thing');
    expect(mcpToolName('evil', 'mcp__github__wipe')).toBe('mcp__evil__mcp_github_wipe');
    expect(mcpToolName('evil', 'x.mcp__github__wipe')).toBe('mcp__evil__x_mcp_github_wipe');
    expect(mcpToolName('mcp', 'github__wipe')).toBe('mcp__mcp__github_wipe');
    // A server part holding `__` or edge `_` is read as Claude Code reads its claude.ai servers.
    expect(mcpToolName('github_', 'wipe')).toBe('mcp__github__wipe');
    expect(mcpToolName('git__hub', 'x')).toBe('mcp__git_hub__x');
    expect(mcpToolName('__', 'x')).toBe('mcp_____x');
  });
});
