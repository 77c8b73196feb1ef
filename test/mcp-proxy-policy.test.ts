/**
 * [G-PERM-1, AD-MCP-1] `hookwerk mcp-proxy` decides every `tools/call` with the hookwerk policy by
 * default — `~/.hookwerk/policy.json` and the approved `<project>/.hookwerk/policy.json`, what
 * `hookwerk hook` reads — as the Claude-shaped `PreToolUse` of `mcp__NAME__TOOL`. Each test runs
 * the real proxy process in front of the real notes server, with real policy files in a temp HOME
 * and an MCP client on its stdio; what reached the server is read from the server's own log.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalDir } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import { runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';
import { clientOn, NOTES_SERVER, notesProject, ProxyProcess, serverLog } from './mcp-harness.ts';

/** Writes a policy file: an object as JSON, a string as it is (a broken file). */
function writePolicy(dir: string, policy: object | string): string {
  const file = path.join(dir, '.hookwerk', 'policy.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return file;
}

/** A temp HOME holding `policy` as the user policy (none when undefined). */
function homeWith(policy?: object | string): string {
  const home = tempDir('hw-mcpp-home-');
  if (policy !== undefined) writePolicy(home, policy);
  return home;
}

/** The proxy in front of the notes server, started with `flags`, and a client on it. */
async function proxied(flags: string[], home: string, project = tempDir('hw-mcpp-project-')) {
  const log = path.join(tempDir('hw-mcpp-log-'), 'calls.jsonl');
  const proxy = new ProxyProcess(
    [...flags, '--project', project, '--', process.execPath, NOTES_SERVER, log],
    { home },
  );
  const client = await clientOn(proxy);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args });
  /** The client hangs up; resolves with what the proxy wrote on stderr once it exited 0. */
  const done = async () => {
    await client.close();
    expect((await proxy.exit).code).toBe(0);
    return proxy.stderr;
  };
  return { call, done, reached: () => serverLog(log).map((c) => c.tool) };
}

const denied = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

describe('[G-PERM-1] mcp-proxy reads the hookwerk policy by default', () => {
  it('the user policy: a deny stops mcp__files__delete_all before the server, an allow and no rule pass, an ask is refused', async () => {
    const home = homeWith({
      permissions: {
        deny: ['mcp__files__delete_all'],
        ask: ['mcp__files__fail'],
        allow: ['mcp__files__write_note'],
      },
    });
    const p = await proxied(['--name', 'files'], home);
    expect(await p.call('delete_all')).toEqual(
      denied('~/.hookwerk/policy.json: permissions.deny: mcp__files__delete_all'),
    );
    // No one can be asked in a proxy: an ask is a refusal that says so [G-PERM-1, R-HOOK-1].
    const asked = await p.call('fail', { message: 'x' });
    expect(asked.isError).toBe(true);
    expect(JSON.stringify(asked.content)).toMatch(
      /asks for the user's approval of mcp__files__fail.*permissions\.ask: mcp__files__fail/,
    );
    expect(await p.call('write_note', { title: 'a', body: 'b' })).toEqual({
      content: [{ type: 'text', text: 'wrote "a"' }],
    });
    expect(await p.call('count')).toEqual({ content: [{ type: 'text', text: 'counted to 3' }] });
    expect(p.reached()).toEqual(['write_note', 'count']);
    expect(await p.done()).toBe('');
    // [R-HOOK-3] The rule that decided is in the journal beside the gate's verdict, as agent "mcp".
    const journal = new RunJournal(journalDir(home)).read({ agent: 'mcp' }).entries;
    expect(journal.filter((e) => e.cause === 'permission').map((e) => [e.hook, e.toolName])).toEqual([
      ['permissions.allow: mcp__files__write_note', 'mcp__files__write_note'],
      ['permissions.ask: mcp__files__fail', 'mcp__files__fail'],
      ['permissions.deny: mcp__files__delete_all', 'mcp__files__delete_all'],
    ]);
  });

  it('--dialect policy, given by name: mcp__files denies every tool of that server and of no other', async () => {
    const home = homeWith({ permissions: { deny: ['mcp__files'] } });
    const [files, notes] = await Promise.all([
      proxied(['--dialect', 'policy', '--name', 'files'], home),
      proxied(['--dialect', 'policy'], home),
    ]);
    for (const tool of ['write_note', 'count'])
      expect(await files.call(tool, { title: 'a', body: 'b' })).toEqual(
        denied('~/.hookwerk/policy.json: permissions.deny: mcp__files'),
      );
    expect((await notes.call('write_note', { title: 'a', body: 'b' })).isError).toBeUndefined();
    expect([files.reached(), notes.reached()]).toEqual([[], ['write_note']]);
    expect([await files.done(), await notes.done()]).toEqual(['', '']);
  });

  it('[G-FAIL-1] a broken policy file denies every call with its reason, and says so on stderr in one line', async () => {
    const home = homeWith('{"permissions": {"deny": ["mcp__notes__delete_all"]}, "matchr": 1}');
    const p = await proxied([], home);
    const reason =
      'hookwerk: ~/.hookwerk/policy.json: $.matchr: unknown key "matchr" (a policy file is strict: ' +
      'check its spelling) — fix it, or check it with hookwerk validate';
    expect(await p.call('write_note', { title: 'a', body: 'b' })).toEqual(denied(reason));
    expect(await p.call('delete_all')).toEqual(denied(reason));
    expect(p.reached()).toEqual([]);
    expect(await p.done()).toBe(`hookwerk mcp-proxy: ${reason.slice('hookwerk: '.length)}\n`);
    const journal = new RunJournal(journalDir(home)).read({ agent: 'mcp' }).entries;
    expect(journal.filter((e) => e.outcome === 'policy_error')).toHaveLength(2);
  });

  it('a project policy runs once approved; unapproved, it runs nothing and stderr says how to approve it, once', async () => {
    const home = homeWith();
    const approved = tempDir('hw-mcpp-approved-');
    const waiting = tempDir('hw-mcpp-waiting-');
    const rules = { permissions: { deny: ['mcp__notes__delete_all'] } };
    const file = writePolicy(approved, rules);
    const waitingFile = writePolicy(waiting, rules);
    // A policy of rules alone is approved like hooks: `trust` shows the rules and pins the file.
    const trust = await runCli(['trust', '--yes', '--project', approved], { home });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain('  - permissions.deny: mcp__notes__delete_all  (.hookwerk/policy.json ');
    expect(trust.stdout).toContain('approved: 0 project hooks and 1 rule of');

    const [a, w] = await Promise.all([proxied([], home, approved), proxied([], home, waiting)]);
    expect(await a.call('delete_all')).toEqual(denied(`${file}: permissions.deny: mcp__notes__delete_all`));
    await w.call('delete_all');
    await w.call('delete_all');
    expect([a.reached(), w.reached()]).toEqual([[], ['delete_all', 'delete_all']]);
    expect(await a.done()).toBe('');
    expect(await w.done()).toBe(
      `hookwerk mcp-proxy: ${waitingFile} is not approved: its permissions, guards and hooks do not run; ` +
        `review and approve it with \`hookwerk trust --project ${waiting}\`\n`,
    );
  });

  it('no policy file at all: no objection, as before; the Claude Code hooks run when the policy includes them', async () => {
    const [none, included] = await Promise.all([
      proxied([], homeWith(), tempDir('hw-mcpp-bare-')),
      (async () => {
        const project = notesProject();
        const home = homeWith({ include: ['claude'] });
        const trust = await runCli(['trust', '--yes', '--project', project], { home });
        expect(trust.code, trust.stderr).toBe(0);
        return proxied([], home, project);
      })(),
    ]);
    expect(await none.call('delete_all')).toEqual({
      content: [{ type: 'text', text: 'deleted every note' }],
    });
    expect(await included.call('delete_all')).toEqual(denied('no deleting: notes are kept'));
    expect([none.reached(), included.reached()]).toEqual([['delete_all'], []]);
    expect([await none.done(), await included.done()]).toEqual(['', '']);
  });

  it('a project whose Claude Code hooks the policy does not include: one line at start says they do not run, and what to do', async () => {
    const project = notesProject();
    const home = homeWith();
    const trust = await runCli(['trust', '--yes', '--project', project], { home });
    expect(trust.code, trust.stderr).toBe(0);
    const p = await proxied([], home, project);
    await p.call('delete_all');
    expect(p.reached()).toEqual(['delete_all']);
    expect(await p.done()).toBe(
      `hookwerk mcp-proxy: the Claude Code hooks of ${path.join(project, '.claude', 'settings.json')} do not run here: ` +
        'mcp-proxy reads the hookwerk policy (~/.hookwerk/policy.json, .hookwerk/policy.json); ' +
        'add "include": ["claude"] to it, or pass --dialect claude\n',
    );
  });
});
