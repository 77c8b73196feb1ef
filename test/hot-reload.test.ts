import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../src/records/logger.ts';
import { openEngine } from './engine-harness.ts';
import { tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { atomicWrite, counter, emitToolCall, hookNames, RELOAD_MS, start } from './reload-harness.ts';

// [P-CFG-3] Hot reload of hooks.json: real files, a real fs watcher, real hook processes.

describe('[P-CFG-3] hot reload of hooks.json', () => {
  it('[P-CFG-3] an in-place edit that adds a tool_call hook takes effect without a restart', async () => {
    const h = await start({ agent_start: [{ command: '/bin/true' }] });
    await emitToolCall(h.engine);
    expect(h.engine.runs()).toEqual([]);

    writeHooks(h.dir, { agent_start: [{ command: '/bin/true' }], tool_call: [h.mark('added')] });
    await waitFor(() => hookNames(h.engine).includes('added'), 'reload', RELOAD_MS);

    await emitToolCall(h.engine);
    expect(h.marks()).toEqual(['added']);
    expect(h.engine.runs()[0]).toMatchObject({ hook: 'added', event: 'tool_call', outcome: 'ok' });
    expect(await counter(h.engine, 'reloads')).toBe(2); // the start, then the edit
    expect(h.lines.some((l) => l.startsWith('info: ') && l.includes(h.file))).toBe(true);
  });

  it('[P-CFG-3] atomic rename saves take effect, twice in a row (the directory is watched, not the inode)', async () => {
    const h = await start({ tool_call: [{ id: 'original', command: '/bin/true' }] });
    expect(hookNames(h.engine)).toEqual(['original']);

    atomicWrite(h.dir, { tool_call: [h.mark('first-rename')] });
    await waitFor(() => hookNames(h.engine).includes('first-rename'), 'reload', RELOAD_MS);
    await emitToolCall(h.engine);
    expect(h.marks()).toEqual(['first-rename']);

    // A watch on the file itself would now be watching the unlinked old inode and miss this one.
    atomicWrite(h.dir, { tool_call: [h.mark('second-rename')] });
    await waitFor(() => hookNames(h.engine).includes('second-rename'), 'second reload', RELOAD_MS);
    await emitToolCall(h.engine);
    expect(h.marks()).toEqual(['first-rename', 'second-rename']);
    expect(hookNames(h.engine)).toEqual(['second-rename']);
    expect(await counter(h.engine, 'reloads')).toBe(3);
    expect(await counter(h.engine, 'reloadErrors')).toBe(0);
  });

  const broken = [
    {
      kind: 'invalid JSON',
      text: '{"hooks": {"tool_call": [',
      path: '$',
      reason: /invalid JSON/,
    },
    {
      // One valid new action next to an invalid one: the file is rejected whole, never half applied.
      kind: 'a schema error (env.HOME)',
      text: JSON.stringify({
        hooks: {
          tool_call: [
            { id: 'half', command: './mark.sh', args: ['half'] },
            { command: './mark.sh', args: ['bad'], env: { HOME: '/tmp' } },
          ],
        },
      }),
      path: '$.hooks.tool_call[1].env.HOME',
      reason: /HOME/,
    },
  ];

  it.each(broken)(
    '[P-CFG-3] a broken file ($kind) keeps the last good hooks, is reported, and a fix applies',
    async (bad) => {
      const h = await start({ tool_call: [{ id: 'old', command: './mark.sh', args: ['old'] }] });
      expect(h.engine.configIssues()).toEqual([]);

      writeHooks(h.dir, bad.text);
      await waitFor(() => h.engine.configIssues().length > 0, 'rejected reload', RELOAD_MS);

      // Issues name the file and the JSON path.
      const issues = h.engine.configIssues();
      expect(issues.some((i) => i.file === h.file && i.path === bad.path && bad.reason.test(i.message))).toBe(
        true,
      );
      // Reported: an error line in the log, naming the file, and the counter.
      const errors = h.lines.filter((l) => l.startsWith('error: '));
      expect(errors.length).toBeGreaterThanOrEqual(1);
      expect(errors.some((l) => l.includes(h.file) && l.includes(bad.path))).toBe(true);
      expect(await counter(h.engine, 'reloadErrors')).toBe(1);

      // The last good configuration is still in force: the old hook runs, nothing of the bad file does.
      expect(hookNames(h.engine)).toEqual(['old']);
      await emitToolCall(h.engine);
      expect(h.marks()).toEqual(['old']);

      // Fixing the file applies the new hooks and clears the issues.
      writeHooks(h.dir, { tool_call: [h.mark('fixed')] });
      await waitFor(() => hookNames(h.engine).includes('fixed'), 'reload after the fix', RELOAD_MS);
      expect(h.engine.configIssues()).toEqual([]);
      await emitToolCall(h.engine);
      expect(h.marks()).toEqual(['old', 'fixed']);
      expect(await counter(h.engine, 'reloadErrors')).toBe(1);
    },
  );

  it('[P-CFG-3] deleting hooks.json means no shell hooks; creating it again brings them back', async () => {
    const h = await start({ tool_call: [{ id: 'a', command: './mark.sh', args: ['a'] }] });
    await emitToolCall(h.engine);
    expect(h.marks()).toEqual(['a']);
    const recordsBefore = h.engine.runs().length;

    unlinkSync(h.file);
    await waitFor(() => h.engine.actions().length === 0, 'reload after delete', RELOAD_MS);
    expect(h.engine.configIssues()).toEqual([]);
    await emitToolCall(h.engine);
    expect(h.engine.runs()).toHaveLength(recordsBefore); // no run, no record
    expect(h.marks()).toEqual(['a']);

    writeHooks(h.dir, { tool_call: [h.mark('recreated')] });
    await waitFor(() => hookNames(h.engine).includes('recreated'), 'reload after create', RELOAD_MS);
    await emitToolCall(h.engine);
    expect(h.marks()).toEqual(['a', 'recreated']);
    expect(h.engine.runs()[0]).toMatchObject({ hook: 'recreated', outcome: 'ok' });
  });

  it('[P-CFG-3] an invalid file at start: the engine starts, no hook runs, issues are reported', async () => {
    const dir = tempDir('hw-reload-');
    writeScript(dir, 'mark.sh', 'printf "%s\\n" "$1" >> marks.txt');
    writeHooks(dir, {
      tool_call: [
        { id: 'good', command: './mark.sh', args: ['good'] },
        { command: 'echo;rm', args: [] },
      ],
    });
    const lines: string[] = [];
    const logger: Logger = { info() {}, warn: (m) => lines.push(m), error: (m) => lines.push(`error: ${m}`) };
    const engine = await openEngine({ workspace: dir, watch: true, logger });

    expect(engine.actions()).toEqual([]);
    const file = path.join(dir, 'hooks.json');
    expect(engine.configIssues()).toEqual([
      expect.objectContaining({
        file,
        path: '$.hooks.tool_call[1].command',
        message: expect.stringMatching(/metachar/),
      }),
    ]);
    expect(lines.some((l) => l.startsWith('error: ') && l.includes(file))).toBe(true);
    expect(await counter(engine, 'reloadErrors')).toBe(1);

    await emitToolCall(engine);
    expect(engine.runs()).toEqual([]);
    expect(existsSync(path.join(dir, 'marks.txt'))).toBe(false);

    // And the watcher is running even though the first load failed.
    writeHooks(dir, { tool_call: [{ id: 'good', command: './mark.sh', args: ['good'] }] });
    await waitFor(() => engine.actions().length === 1, 'reload after the fix', RELOAD_MS);
    expect(engine.configIssues()).toEqual([]);
    await emitToolCall(engine);
    expect(readFileSync(path.join(dir, 'marks.txt'), 'utf8')).toBe('good\n');
  });

  it('[P-CFG-3] writing the same content again (in place or by rename) is not counted as a reload', async () => {
    const hooks = { tool_call: [{ id: 'same', command: '/bin/true' }] };
    const h = await start(hooks);
    expect(await counter(h.engine, 'reloads')).toBe(1);
    // Observe the watcher's calls: the watcher invokes engine.reload() on each change.
    let watcherReloads = 0;
    const original = h.engine.reload.bind(h.engine);
    h.engine.reload = () => {
      watcherReloads++;
      return original();
    };

    writeHooks(h.dir, hooks);
    await waitFor(() => watcherReloads >= 1, 'watcher reload (in place)', RELOAD_MS);
    atomicWrite(h.dir, hooks);
    await waitFor(() => watcherReloads >= 2, 'watcher reload (rename)', RELOAD_MS);

    expect(await counter(h.engine, 'reloads')).toBe(1);
    expect(await counter(h.engine, 'reloadErrors')).toBe(0);
    expect(h.lines.filter((l) => l.startsWith('info: '))).toHaveLength(1); // only the start
    expect(hookNames(h.engine)).toEqual(['same']);
  });
});

describe('engine.reload()', () => {
  it('[P-CFG-3] reports ok, changed, actions and issues for each kind of change', async () => {
    const h = await start(
      { tool_call: [{ command: '/bin/true' }], error: [{ command: '/bin/true' }] },
      { watch: false },
    );
    // Already loaded at start: nothing new.
    expect(h.engine.reload()).toEqual({ ok: true, changed: false, actions: 2, issues: [] });

    writeHooks(h.dir, {
      tool_call: [{ command: '/bin/true' }],
      error: [{ command: '/bin/true' }],
      agent_end: [{ command: '/bin/true', enabled: false }],
    });
    expect(h.engine.reload()).toEqual({ ok: true, changed: true, actions: 3, issues: [] });
    expect(h.engine.actions()).toHaveLength(3);

    writeHooks(h.dir, { tool_call: [{ command: '/bin/true', timeout_ms: 'soon' }] });
    const rejected = h.engine.reload();
    expect(rejected).toMatchObject({ ok: false, changed: false, actions: 3 });
    expect(rejected.issues).toEqual([
      expect.objectContaining({ file: h.file, path: '$.hooks.tool_call[0].timeout_ms' }),
    ]);
    expect(h.engine.configIssues()).toEqual(rejected.issues);
    expect(h.engine.actions()).toHaveLength(3);

    unlinkSync(h.file);
    expect(h.engine.reload()).toEqual({ ok: true, changed: true, actions: 0, issues: [] });
    expect(h.engine.configIssues()).toEqual([]);
    expect(h.engine.reload()).toEqual({ ok: true, changed: false, actions: 0, issues: [] });
    expect(await counter(h.engine, 'reloads')).toBe(3);
    expect(await counter(h.engine, 'reloadErrors')).toBe(1);
  });

  it('[P-CFG-3] an engine without a workspace has nothing to reload', async () => {
    const engine = await openEngine({ logger: { info() {}, warn() {}, error() {} } });
    expect(engine.reload()).toEqual({ ok: true, changed: false, actions: 0, issues: [] });
  });
});
