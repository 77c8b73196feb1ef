/**
 * [G-PERF-1][R-HOOK-4] The cold path's V8 startup snapshot: a blob of dist/cli/hook-snapshot.cjs
 * (cli/snapshot-entry.ts) made by this Node, kept in `<home>/.hookwerk/cache/`, which the C
 * client's fallback starts with `node --snapshot-blob <blob> hook <args>` instead of loading
 * bin/hookwerk.js and the cold bundle (≈2× a bare node script instead of ≈4×). `--snapshot-blob`
 * is a flag of node's own command line: only the C client, which starts node, can pass it.
 *
 * A blob is code, and only right for the Node binary and the bundle it was made from; a wrong one
 * may crash node (a truncated blob segfaults). So a stamp beside it, `hook-snapshot.stamp`, names
 * the node binary, the bundle and the blob each by path and identity (device, inode, size, mtime
 * to the nanosecond), and the C client uses the blob only when all three still match and the
 * folder and files are this account's alone (0700/0600); a blob that still fails to start costs
 * that call one retry through bin/hookwerk.js, and the stamp. The blob is built in the background
 * (a detached process that waits for the call that started it to end), never on a call's path,
 * after a verifying run: one test call through it must deny as the policy says.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { isErrno } from '../core/errno.ts';
import { spawnAfterCaller } from './daemon-autostart.ts';
import { fnv1a } from './policy-index.ts';

/** `HOOKWERK_SNAPSHOT=off`: neither build nor use one (the C client reads it too). */
export const SNAPSHOT_ENV = 'HOOKWERK_SNAPSHOT';
/** The build's environment names the home whose CEL rules it compiles (hook/snapshot-rules.ts). */
export const SNAPSHOT_HOME_ENV = 'HOOKWERK_SNAPSHOT_HOME';
/** The snapshot's program, beside the cold bundle (scripts/bundle-hook.js). */
export const SNAPSHOT_BUNDLE = fileURLToPath(new URL('../cli/hook-snapshot.cjs', import.meta.url));
/** The background build's entry (hook/snapshot-build-main.ts, as built in dist/). */
const BUILD_MAIN = fileURLToPath(new URL('./snapshot-build-main.js', import.meta.url));
/** The stamp's name and first word; the C client (native/hookwerk-hook.c) reads the same. */
export const STAMP_NAME = 'hook-snapshot.stamp';
const STAMP_MAGIC = 'hookwerk-snapshot 1';
const BLOB_PREFIX = 'hook-snapshot-';
const LOCK_NAME = 'hook-snapshot.lock';
/** A build lock older than this is a build that died. */
const LOCK_STALE_MS = 5 * 60_000;
/** A build (warm-up included) that takes longer is abandoned. */
const BUILD_TIMEOUT_MS = 3 * 60_000;

/** `<home>/.hookwerk/cache`: the code cache's folder, and the blob's. */
export function snapshotDir(home: string): string {
  return path.join(home, '.hookwerk', 'cache');
}

export function stampPath(home: string): string {
  return path.join(snapshotDir(home), STAMP_NAME);
}

/** `KIND dev ino size mtime-s mtime-ns<TAB>path`: what the C client compares with its own stat. */
export function identityLine(kind: 'node' | 'bundle' | 'blob', file: string): string {
  const st = statSync(file, { bigint: true });
  const sec = st.mtimeNs / 1_000_000_000n;
  const nsec = st.mtimeNs % 1_000_000_000n;
  return `${kind} ${st.dev} ${st.ino} ${st.size} ${sec} ${nsec}\t${file}`;
}

/** The node and bundle lines of this Node and this installation; undefined without a bundle. */
function sourceLines(node: string, bundle: string): string[] | undefined {
  try {
    return [identityLine('node', realpathSync(node)), identityLine('bundle', realpathSync(bundle))];
  } catch {
    return undefined;
  }
}

/** The stamp's text: `ok` with the blob's line, or `failed` (no rebuild until node or bundle change). */
export function stampText(sources: readonly string[], blob: string | undefined): string {
  const head = `${STAMP_MAGIC} ${blob === undefined ? 'failed' : 'ok'}`;
  return `${[head, ...sources, ...(blob === undefined ? [] : [identityLine('blob', blob)])].join('\n')}\n`;
}

/**
 * The cache folder, made 0700 if missing and narrowed to 0700 if wider; undefined when it is not
 * a real folder of this account (a blob there is not ours to trust, nor to write).
 */
export function privateCacheDir(home: string): string | undefined {
  const own = path.join(home, '.hookwerk');
  const dir = snapshotDir(home);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    for (const d of [own, dir]) {
      const st = lstatSync(d);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) return undefined;
    }
    if ((lstatSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return dir;
  } catch {
    return undefined;
  }
}

/** Whether the stamp describes this node and this bundle (made, or failed, for them). */
export function snapshotCurrent(home: string, node = process.execPath, bundle = SNAPSHOT_BUNDLE): boolean {
  const sources = sourceLines(node, bundle);
  if (sources === undefined) return true; // no bundle: nothing to build
  let text: string;
  try {
    text = readFileSync(stampPath(home), 'utf8');
  } catch {
    return false;
  }
  const lines = text.split('\n');
  return lines[0]?.startsWith(STAMP_MAGIC) === true && lines[1] === sources[0] && lines[2] === sources[1];
}

/** One call of the blob, as the C client would make it: it must deny what the policy denies. */
function verify(node: string, blob: string): string | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-snapshot-check-'));
  try {
    const home = path.join(dir, 'home');
    mkdirSync(path.join(home, '.hookwerk'), { recursive: true });
    writeFileSync(
      path.join(home, '.hookwerk', 'policy.json'),
      JSON.stringify({ permissions: { deny: ['Bash(git push --force *)'] } }),
    );
    const input = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 'check',
      cwd: dir,
      tool_name: 'Bash',
      tool_input: { command: 'git push --force origin main' },
    });
    const r = spawnSync(node, ['--snapshot-blob', blob, 'hook', '--agent', 'claude'], {
      cwd: dir,
      input,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        HOOKWERK_DAEMON: 'off',
        HOOKWERK_HOOK_COLD: '1',
      },
      timeout: 60_000,
    });
    const ok =
      r.status === 0 && r.stdout.includes('permissions.deny: Bash(git push --force *)') && r.stderr === '';
    return ok
      ? undefined
      : `its test call answered ${JSON.stringify({ status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr.slice(0, 500) })}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The build lock (a file made exclusively), or undefined while another build runs. */
function takeBuildLock(file: string): number | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return openSync(file, 'wx', 0o600);
    } catch (err) {
      if (!isErrno(err, 'EEXIST') || attempt > 0) return undefined;
      try {
        if (Date.now() - statSync(file).mtimeMs < LOCK_STALE_MS) return undefined;
        unlinkSync(file);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export type SnapshotBuild =
  | { kind: 'built'; blob: string }
  | { kind: 'failed'; why: string }
  | { kind: 'skipped'; why: string };

/**
 * Builds the blob of `bundle` with `node` for `home` now (the background process runs this):
 * into a temp file of the cache folder, checked by one call, renamed, then stamped; older blobs
 * removed. A failed build or check is stamped `failed`: no new attempt until node or bundle change.
 */
export function buildSnapshot(
  home: string,
  node = process.execPath,
  bundle = SNAPSHOT_BUNDLE,
): SnapshotBuild {
  const sources = sourceLines(node, bundle);
  if (sources === undefined) return { kind: 'skipped', why: `no ${bundle}` };
  const dir = privateCacheDir(home);
  if (dir === undefined)
    return { kind: 'skipped', why: `${snapshotDir(home)} is not this account's own folder` };
  const lockFile = path.join(dir, LOCK_NAME);
  const lock = takeBuildLock(lockFile);
  if (lock === undefined) return { kind: 'skipped', why: 'another build runs' };
  const tmp = path.join(dir, `.${BLOB_PREFIX}${process.pid}.blob.tmp`);
  try {
    const made = spawnSync(node, ['--snapshot-blob', tmp, '--build-snapshot', bundle], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
        // Whose policy's CEL rules the blob holds compiled (hook/snapshot-rules.ts).
        [SNAPSHOT_HOME_ENV]: home,
      },
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 4 * 1024 * 1024,
    });
    let why: string | undefined;
    if (made.status !== 0 || !existsSync(tmp))
      why = `node --build-snapshot exited ${made.status ?? made.signal}: ${(made.stderr ?? '')
        .split('\n')
        .filter(
          (l) =>
            l !== '' && !/not yet fully verified|may still work|To request support|trace-warnings/.test(l),
        )
        .slice(0, 5)
        .join(' | ')}`;
    if (why === undefined) {
      chmodSync(tmp, 0o600);
      why = verify(node, tmp);
    }
    if (why !== undefined) {
      writeFileAtomic(stampPath(home), stampText(sources, undefined), { mode: 0o600 });
      return { kind: 'failed', why };
    }
    const blob = path.join(dir, `${BLOB_PREFIX}${fnv1a(sources.join('\n'))}.blob`);
    renameSync(tmp, blob);
    writeFileAtomic(stampPath(home), stampText(sources, blob), { mode: 0o600 });
    for (const name of readdirSync(dir))
      if (name.startsWith(BLOB_PREFIX) && name.endsWith('.blob') && path.join(dir, name) !== blob)
        rmSync(path.join(dir, name), { force: true });
    return { kind: 'built', blob };
  } finally {
    rmSync(tmp, { force: true });
    closeSync(lock);
    rmSync(lockFile, { force: true });
  }
}

/**
 * After a call the C client handed to bin/hookwerk.js: when the stamp does not describe this node
 * and this bundle, builds the blob in a detached process that waits for this call to end first
 * (as the daemon's start does, daemon-autostart.ts). Never throws, never waits.
 */
export function startSnapshotBuild(home: string, env: NodeJS.ProcessEnv): boolean {
  try {
    if (env[SNAPSHOT_ENV]?.toLowerCase() === 'off' || !existsSync(BUILD_MAIN)) return false;
    if (snapshotCurrent(home)) return false;
    if (privateCacheDir(home) === undefined) return false;
    const build = [process.execPath, BUILD_MAIN, home];
    spawnAfterCaller('hookwerk-snapshot', build, env, 'ignore');
    return true;
  } catch {
    return false;
  }
}
