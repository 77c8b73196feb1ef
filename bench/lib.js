// Shared helpers for the benchmarks: statistics, timing, temp workspaces, the result table.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';

/** The PATH the PRX runner gives every hook; the raw-spawn baselines use the same. */
export const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The baseline of the spawn rows: `/bin/true` spawned from this (the agent's) process, in `cwd`. */
export function rawSpawn(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/true', [], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { PATH: SAFE_PATH },
    });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`/bin/true exited ${code}`))));
  });
}

export function median(values) {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function mean(values) {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
}

/** Monotonic time in microseconds (fractional). */
export function nowUs() {
  return Number(process.hrtime.bigint()) / 1000;
}

/**
 * Times `batches` batches of `batchSize` synchronous calls of `fn(i)` (after `warmup` calls) and
 * returns the per-call times of every batch, in µs. hrtime is read once per batch, not per call.
 */
export function timeBatches(fn, { batchSize = 1000, batches = 31, warmup = 0 } = {}) {
  for (let i = 0; i < warmup; i++) fn(i);
  const perCall = [];
  let k = 0;
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batchSize; i++) fn(k++);
    const t1 = process.hrtime.bigint();
    perCall.push(Number(t1 - t0) / 1000 / batchSize);
  }
  return perCall;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const nextImmediate = () => new Promise((resolve) => setImmediate(resolve));

/** A fresh PRX workspace holding `hooks.json` with the given content. Call `cleanup()` after. */
export function tempWorkspace(hooksFile) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-'));
  writeFileSync(path.join(dir, 'hooks.json'), JSON.stringify(hooksFile, null, 2));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** hooks.json with `count` actions on `event`, each running `command` with no args. */
export function hooksWith(event, count, command = '/bin/true') {
  const actions = [];
  for (let i = 0; i < count; i++) actions.push({ id: `bench-${i}`, command, timeout_ms: 10_000 });
  return { hooks: { [event]: actions } };
}

/** A logger that drops info lines (engine reloads) but keeps warnings and errors. */
export const quietLogger = {
  debug() {},
  info() {},
  warn: (msg) => process.stderr.write(`[warn] ${msg}\n`),
  error: (msg) => process.stderr.write(`[error] ${msg}\n`),
};

export const TOOL_CALL_PAYLOAD = Object.freeze({ tool: 'bash', success: true, output: 'ok' });

// ---------------------------------------------------------------------------------------------
// Formatting

export function fmtUs(us) {
  if (!Number.isFinite(us)) return 'n/a';
  if (us < 1) return `${(us * 1000).toFixed(0)} ns`;
  if (us < 100) return `${us.toFixed(2)} µs`;
  if (us < 10_000) return `${us.toFixed(0)} µs`;
  return `${(us / 1000).toFixed(1)} ms`;
}

export function fmtMB(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function fmtRatio(r) {
  return Number.isFinite(r) ? `${r.toFixed(2)}×` : '—';
}

export function verdict(ok) {
  return ok ? 'PASS' : 'FAIL';
}

export function envLine() {
  const cpu = cpus()[0]?.model?.trim() ?? 'unknown cpu';
  return `node ${process.version} · ${process.platform}/${process.arch} · ${availableParallelism()} CPUs (${cpu}) · ${new Date().toISOString()}`;
}

const COLUMNS = ['benchmark', 'hookwerk', 'baseline', 'ratio', 'target', 'verdict'];

function cell(value) {
  return String(value ?? '—').replaceAll('|', '\\|');
}

/** One markdown table of result rows ({benchmark, hookwerk, baseline, ratio, target, verdict}). */
export function markdownTable(rows) {
  const lines = [`| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${COLUMNS.map((c) => cell(row[c])).join(' | ')} |`);
  return lines.join('\n');
}

/** Progress lines go to stderr so stdout carries only the final report. */
export function progress(msg) {
  process.stderr.write(`  · ${msg}\n`);
}
