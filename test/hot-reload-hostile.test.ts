import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import {
  atomicWrite,
  atomicWriteFile,
  counter,
  emitToolCall,
  hookNames,
  hooksText,
  MARK_SCRIPT,
  RELOAD_MS,
  start,
} from './reload-harness.ts';

// [P-CFG-3] issue 11: hot reload that never stops silently and never blocks, against what a careless
// user or an attacker does to the workspace: real folders, symlinks, FIFOs and devices.

const mark = (name: string) => ({ id: name, command: './mark.sh', args: [name] });

/** A workspace folder one level below a private temp folder, so that its parent can go too. */
function nestedWorkspace(): { parent: string; dir: string } {
  const parent = tempDir('hw-reload-parent-');
  const dir = path.join(parent, 'workspace');
  mkdirSync(dir);
  return { parent, dir };
}

describe('[P-CFG-3] issue 11: the workspace folder goes away and comes back', () => {
  const ways = [
    { how: 'deleted', gone: (dir: string) => rmSync(dir, { recursive: true }) },
    { how: 'moved away', gone: (dir: string) => renameSync(dir, `${dir}.old`) },
    {
      how: 'deleted with its parent folder',
      gone: (dir: string) => rmSync(path.dirname(dir), { recursive: true }),
    },
  ];

  it.each(ways)(
    '[P-CFG-3] issue 11: folder $how: the last good hooks stay (warned once), then the recreated folder is watched',
    async ({ gone }) => {
      const { dir } = nestedWorkspace();
      const h = await start({ tool_call: [mark('before')] }, {}, dir);
      const goneWarnings = () =>
        h.lines.filter((l) => l.startsWith('warn: ') && l.includes(`${dir} is gone`));

      gone(dir);
      await waitFor(() => goneWarnings().length > 0, 'the warning that the folder is gone', RELOAD_MS);
      // Still in force, and asking again neither changes that nor warns again.
      expect(hookNames(h.engine)).toEqual(['before']);
      expect(h.engine.reload()).toEqual({ ok: true, changed: false, actions: 1, issues: [] });
      expect(h.engine.reload()).toEqual({ ok: true, changed: false, actions: 1, issues: [] });

      mkdirSync(dir, { recursive: true });
      writeScript(dir, 'mark.sh', MARK_SCRIPT);
      writeHooks(dir, { tool_call: [mark('after')] });
      await waitFor(() => hookNames(h.engine).includes('after'), 'reload in the recreated folder', RELOAD_MS);
      await emitToolCall(h.engine);
      expect(h.marks()).toEqual(['after']);

      // The new folder is watched from now on, not just read once.
      atomicWrite(dir, { tool_call: [mark('again')] });
      await waitFor(
        () => hookNames(h.engine).includes('again'),
        'a second edit in the new folder',
        RELOAD_MS,
      );
      expect(goneWarnings()).toHaveLength(1);
      expect(h.engine.configIssues()).toEqual([]);
      expect(await counter(h.engine, 'reloadErrors')).toBe(0);
    },
  );

  it('[P-CFG-3] issue 11: an empty recreated folder means no hooks (its hooks.json decides), and gone twice warns twice', async () => {
    const { dir } = nestedWorkspace();
    const h = await start({ tool_call: [mark('before')] }, {}, dir);
    const goneWarnings = () => h.lines.filter((l) => l.startsWith('warn: ') && l.includes(`${dir} is gone`));

    rmSync(dir, { recursive: true });
    await waitFor(() => goneWarnings().length === 1, 'the first warning', RELOAD_MS);
    mkdirSync(dir);
    await waitFor(() => h.engine.actions().length === 0, 'the empty folder read', RELOAD_MS);
    expect(h.engine.configIssues()).toEqual([]);

    rmSync(dir, { recursive: true });
    await waitFor(() => goneWarnings().length === 2, 'the second warning', RELOAD_MS);
    expect(h.engine.actions()).toEqual([]);
  });
});

describe('[P-CFG-3] issue 11: hooks.json as a symlink', () => {
  it('[P-CFG-3] issue 11: editing the target reloads (in place or by rename); a re-pointed link is followed and its new target watched', async () => {
    const first = path.join(tempDir('hw-reload-target-'), 'hooks.real.json');
    writeFileSync(first, hooksText({ tool_call: [mark('one')] }));
    const dir = tempDir('hw-reload-');
    symlinkSync(first, path.join(dir, 'hooks.json'));
    const h = await start(undefined, {}, dir);
    expect(hookNames(h.engine)).toEqual(['one']);

    writeFileSync(first, hooksText({ tool_call: [mark('two')] }));
    await waitFor(
      () => hookNames(h.engine).includes('two'),
      'reload after an in-place edit of the target',
      RELOAD_MS,
    );
    atomicWriteFile(first, hooksText({ tool_call: [mark('three')] }));
    await waitFor(
      () => hookNames(h.engine).includes('three'),
      'reload after a rename over the target',
      RELOAD_MS,
    );

    // Re-point the link the way `ln -sfn` does it safely: a new link renamed over the old one.
    const second = path.join(tempDir('hw-reload-target-'), 'other.json');
    writeFileSync(second, hooksText({ tool_call: [mark('four')] }));
    symlinkSync(second, `${h.file}.tmp`);
    renameSync(`${h.file}.tmp`, h.file);
    await waitFor(() => hookNames(h.engine).includes('four'), 'reload after re-pointing the link', RELOAD_MS);
    writeFileSync(second, hooksText({ tool_call: [mark('five')] }));
    await waitFor(
      () => hookNames(h.engine).includes('five'),
      'reload after editing the new target',
      RELOAD_MS,
    );

    await emitToolCall(h.engine);
    expect(h.marks()).toEqual(['five']);
    expect(await counter(h.engine, 'reloadErrors')).toBe(0);
  });

  it('[P-CFG-3] issue 11: a chain of relative links: editing the end reloads, and so does re-pointing a middle link', async () => {
    const root = tempDir('hw-reload-chain-');
    for (const sub of ['workspace', 'links', 'real']) mkdirSync(path.join(root, sub));
    const real = (name: string) => path.join(root, 'real', name);
    writeFileSync(real('v1.json'), hooksText({ tool_call: [mark('v1')] }));
    writeFileSync(real('v2.json'), hooksText({ tool_call: [mark('v2')] }));
    const middle = path.join(root, 'links', 'current.json');
    symlinkSync('../real/v1.json', middle);
    const dir = path.join(root, 'workspace');
    symlinkSync('../links/current.json', path.join(dir, 'hooks.json'));
    const h = await start(undefined, {}, dir);
    expect(hookNames(h.engine)).toEqual(['v1']);

    writeFileSync(real('v1.json'), hooksText({ tool_call: [mark('v1-edited')] }));
    await waitFor(() => hookNames(h.engine).includes('v1-edited'), 'reload after editing the end', RELOAD_MS);

    symlinkSync('../real/v2.json', `${middle}.tmp`);
    renameSync(`${middle}.tmp`, middle);
    await waitFor(
      () => hookNames(h.engine).includes('v2'),
      'reload after re-pointing the middle link',
      RELOAD_MS,
    );
    writeFileSync(real('v2.json'), hooksText({ tool_call: [mark('v2-edited')] }));
    await waitFor(
      () => hookNames(h.engine).includes('v2-edited'),
      'reload after editing the new end',
      RELOAD_MS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// A reader that blocks on a FIFO with no writer would hang this test file for ever (the engine
// reads synchronously). So a probe process keeps trying to open the FIFO's write end with
// O_NONBLOCK: that fails (ENXIO) while no reader has the FIFO open, and succeeds only if a reader
// is waiting in open() or read(), which it then releases, saying so first. A correct engine never
// opens the FIFO, so the probe never attaches a writer. It stops when its stdin ends: between two
// tries, so a try that succeeded has always been reported.

const probes: ChildProcess[] = [];
afterEach(() => {
  for (const child of probes.splice(0)) child.kill('SIGKILL');
});

const PROBE = `
const fs = require('node:fs');
const f = process.argv[1];
process.stdin.on('end', () => process.exit(0)).resume();
const tick = () => {
  let fd;
  try {
    fd = fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch {
    setTimeout(tick, 50);
    return;
  }
  process.stdout.write('released a reader blocked on the FIFO');
  fs.closeSync(fd);
  process.exit(0);
};
tick();
`;

function blockedReaderProbe(fifo: string): { stop(): Promise<string> } {
  const child = spawn(process.execPath, ['-e', PROBE, fifo], { stdio: ['pipe', 'pipe', 'inherit'] });
  probes.push(child);
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    async stop() {
      child.stdin?.end();
      await closed;
      return out;
    },
  };
}

describe('[P-CFG-3] [L-TRUST-4] issue 11: hooks.json replaced by something that is not a regular file', () => {
  const kinds = [
    {
      kind: 'a FIFO',
      make: (at: string) => {
        execFileSync('mkfifo', [at]);
        return at;
      },
      message: 'file is a FIFO, not a regular file',
    },
    {
      kind: 'a symlink to a FIFO outside the workspace',
      make: (at: string) => {
        const fifo = path.join(tempDir('hw-reload-fifo-'), 'pipe');
        execFileSync('mkfifo', [fifo]);
        symlinkSync(fifo, at);
        return fifo;
      },
      message: 'file is a FIFO, not a regular file',
    },
    {
      kind: 'a symlink to /dev/zero',
      make: (at: string) => {
        symlinkSync('/dev/zero', at);
        return undefined;
      },
      message: 'file is a character device, not a regular file',
    },
    {
      kind: 'a symlink loop',
      make: (at: string) => {
        const other = path.join(path.dirname(at), 'loop.json');
        symlinkSync(other, at);
        symlinkSync(path.join(path.dirname(at), 'hooks.json'), other);
        return undefined;
      },
      message: 'file cannot be read: too many symbolic links encountered (ELOOP)',
    },
  ];

  it.each(kinds)(
    '[P-CFG-3] [L-TRUST-4] issue 11: hooks.json as $kind: reload returns with the config error, the last good hooks stay, a fix applies',
    async ({ make, message }) => {
      const h = await start({ tool_call: [mark('good')] });
      const fifo = make(`${h.file}.tmp`);
      const probe = fifo !== undefined ? blockedReaderProbe(fifo) : undefined;
      renameSync(`${h.file}.tmp`, h.file);

      const issue = { file: h.file, path: '$', message };
      await waitFor(() => h.engine.configIssues().length > 0, 'the rejected reload', RELOAD_MS);
      expect(h.engine.configIssues()).toEqual([issue]);
      expect(h.engine.reload()).toEqual({ ok: false, changed: false, actions: 1, issues: [issue] });
      expect(h.lines.some((l) => l.startsWith('error: ') && l.includes(h.file) && l.includes(message))).toBe(
        true,
      );
      expect(probe === undefined ? '' : await probe.stop()).not.toMatch(/released/);

      expect(hookNames(h.engine)).toEqual(['good']);
      await emitToolCall(h.engine);
      expect(h.marks()).toEqual(['good']);

      atomicWrite(h.dir, { tool_call: [mark('fixed')] });
      await waitFor(() => hookNames(h.engine).includes('fixed'), 'reload after the fix', RELOAD_MS);
      expect(h.engine.configIssues()).toEqual([]);
    },
  );
});
