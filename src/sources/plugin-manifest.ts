/**
 * WASM plugin manifests [P-WASM-1, P-WASM-2, P-WASM-3]: `<workspace>/plugins/<name>/plugin.toml`
 * read with smol-toml, validated with zod, and checked against the admission limits (manifest
 * size, wasm size, no path or symlink leaving the plugin folder).
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { parsePattern, topicMatches } from '../bus/topic-trie.ts';
import { errorCode, errorMessage } from '../core/errno.ts';
import { type ConfigIssue, fromZodIssues, jsonPath } from '../core/issues.ts';
import { isPrxEvent, PRX_EVENT_NAMES } from '../events/prx-events.ts';
import type { PluginSpec } from '../runners/wasm/plugin-spec.ts';

export const PLUGIN_MANIFEST = 'plugin.toml';
const DEFAULT_WASM = 'plugin.wasm';

/** Admission limits: beyond them a plugin is rejected (reported, skipped), never truncated. */
export const PLUGIN_LIMITS = {
  maxManifestBytes: 64 * 1024,
  maxWasmBytes: 16 * 1024 * 1024,
  defaultMemoryMb: 64,
  /** wasm32 linear memory cannot exceed 4 GiB. */
  maxMemoryMb: 4096,
  defaultTimeoutMs: 30_000,
  maxTimeoutMs: 3_600_000,
  maxPatterns: 256,
  maxGrants: 16,
} as const;

export type { PluginSpec };

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const relPath = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(1024, `${what} is longer than 1024 characters`)
    .check((ctx) => {
      const s = ctx.value;
      if (s.includes('\0'))
        ctx.issues.push({ code: 'custom', input: s, message: `${what} contains a NUL byte` });
      else if (path.isAbsolute(s) || s.startsWith('~'))
        ctx.issues.push({
          code: 'custom',
          input: s,
          message: `${what} must be a path relative to the plugin folder, not ${JSON.stringify(s)}`,
        });
      else if (s.split(/[\\/]/).includes('..'))
        ctx.issues.push({
          code: 'custom',
          input: s,
          message: `${what} must not contain ".." (it would leave the plugin folder)`,
        });
    });

/** zod's message for a missing required value says "received undefined": say what is missing instead. */
const missing = (message: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? message : undefined),
});

const pluginManifestSchema = z.strictObject({
  plugin: z.strictObject(
    {
      name: z
        .string(missing('name is missing'))
        .regex(NAME, 'name must be 1-64 characters of A-Z a-z 0-9 _ . - (starting with a letter or digit)'),
      version: z
        .string(missing('version is missing'))
        .min(1, 'version must not be empty')
        .max(64, 'version is longer than 64 characters'),
      description: z
        .string(missing('description is missing'))
        .max(1024, 'description is longer than 1024 characters'),
      wasm: relPath('wasm')
        .default(DEFAULT_WASM)
        .describe('The component, relative to the plugin folder. Default "plugin.wasm".'),
    },
    missing('the [plugin] table is missing'),
  ),
  capabilities: z
    .array(
      z.strictObject({
        type: z.literal('hook', { error: 'type must be "hook" (the only capability hookwerk runs)' }),
        events: z
          .array(z.string(), missing('events is missing'))
          .min(1, 'events must list at least one pattern')
          .max(PLUGIN_LIMITS.maxPatterns, `events lists more than ${PLUGIN_LIMITS.maxPatterns} patterns`),
      }),
      missing('at least one [[capabilities]] block with type = "hook" is needed'),
    )
    .min(1, 'at least one [[capabilities]] block with type = "hook" is needed'),
  resources: z
    .strictObject({
      max_memory_mb: z
        .number()
        .int('max_memory_mb must be a whole number')
        .min(1, 'max_memory_mb must be at least 1')
        .max(PLUGIN_LIMITS.maxMemoryMb, `max_memory_mb must be at most ${PLUGIN_LIMITS.maxMemoryMb}`)
        .default(PLUGIN_LIMITS.defaultMemoryMb),
      timeout_ms: z
        .number()
        .int('timeout_ms must be a whole number')
        .min(1, 'timeout_ms must be at least 1')
        .max(PLUGIN_LIMITS.maxTimeoutMs, `timeout_ms must be at most ${PLUGIN_LIMITS.maxTimeoutMs}`)
        .default(PLUGIN_LIMITS.defaultTimeoutMs),
    })
    .default({ max_memory_mb: PLUGIN_LIMITS.defaultMemoryMb, timeout_ms: PLUGIN_LIMITS.defaultTimeoutMs }),
  permissions: z
    .strictObject({
      filesystem: z
        .array(relPath('filesystem entry'))
        .max(PLUGIN_LIMITS.maxGrants, `filesystem lists more than ${PLUGIN_LIMITS.maxGrants} directories`)
        .default([]),
      network: z.boolean().default(false),
    })
    .default({ filesystem: [], network: false }),
});

type PluginLoadResult = { ok: true; plugin: PluginSpec } | { ok: false; issues: ConfigIssue[] };

/** Cache of wasm hashes by file identity, so a re-scan does not re-read unchanged components. */
export type HashCache = Map<string, { sha: string; bytes: Uint8Array }>;

/**
 * Reads, validates and admits one plugin folder. Never throws: every problem is a
 * ConfigIssue naming the file and the field.
 */
export function loadPlugin(folder: string, hashCache?: HashCache): PluginLoadResult {
  const manifestFile = path.join(folder, PLUGIN_MANIFEST);
  const read = readManifest(folder, manifestFile);
  if (!read.ok) return read;
  const { dir, text, manifest: m } = read;
  const issues: ConfigIssue[] = [];
  const patterns = eventPatterns(m, manifestFile, issues);
  const wasm = wasmComponent(dir, m.plugin.wasm, manifestFile, issues, hashCache);
  const filesystem = filesystemGrants(dir, m.permissions.filesystem, manifestFile, issues);
  if (issues.length > 0 || wasm === undefined) return { ok: false, issues };
  const { plugin, resources, permissions } = m;
  const fingerprint = createHash('sha256')
    .update(text)
    .update('\0')
    .update(wasm.sha)
    .update('\0')
    .update(JSON.stringify([dir, wasm.file, filesystem]))
    .digest('hex');
  return {
    ok: true,
    plugin: {
      name: plugin.name,
      version: plugin.version,
      description: plugin.description,
      dir,
      manifestFile,
      wasmFile: wasm.file,
      wasmBytes: wasm.bytes,
      wasmSha256: wasm.sha,
      patterns,
      maxMemoryMb: resources.max_memory_mb,
      timeoutMs: resources.timeout_ms,
      filesystem,
      network: permissions.network,
      fingerprint,
    },
  };
}

type PluginManifest = z.infer<typeof pluginManifestSchema>;

/** The folder (real path) and its manifest: a regular file, at most 64 KiB, TOML, valid [P-WASM-1]. */
function readManifest(
  folder: string,
  manifestFile: string,
): { ok: true; dir: string; text: string; manifest: PluginManifest } | { ok: false; issues: ConfigIssue[] } {
  const fail = (message: string) => ({
    ok: false as const,
    issues: [{ file: manifestFile, path: '$', message }],
  });
  let dir: string;
  try {
    dir = realpathSync(folder);
  } catch (err) {
    return fail(`cannot read the plugin folder: ${errorMessage(err)}`);
  }
  // The manifest: a regular file (not a symlink), at most 64 KiB.
  const read = readRegularFile(manifestFile, PLUGIN_LIMITS.maxManifestBytes, 'plugin.toml');
  if (!read.ok) return fail(read.message);
  const text = Buffer.from(read.bytes).toString('utf8');
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (err) {
    const where = err instanceof TomlError ? ` (line ${err.line}, column ${err.column})` : '';
    const first = errorMessage(err)
      .split('\n')[0]!
      .replace(/^Invalid TOML document: /, '');
    return fail(`invalid TOML: ${first}${where}`);
  }
  const parsed = pluginManifestSchema.safeParse(raw);
  if (parsed.success) return { ok: true, dir, text, manifest: parsed.data };
  return {
    ok: false,
    issues: fromZodIssues(manifestFile, parsed.error.issues, (parent, key) =>
      parent.length === 0
        ? `unknown table [${key}] (known: [plugin], [[capabilities]], [resources], [permissions])`
        : `unknown field ${JSON.stringify(key)}`,
    ),
  };
}

/** Event patterns [P-WASM-2]: exact PRX event names, `*`, or topic patterns on prx.lifecycle.<event>. */
function eventPatterns(m: PluginManifest, manifestFile: string, issues: ConfigIssue[]): string[] {
  const patterns: string[] = [];
  m.capabilities.forEach((cap, c) => {
    cap.events.forEach((pattern, e) => {
      const problem = patternProblem(pattern);
      if (problem !== undefined)
        issues.push({
          file: manifestFile,
          path: jsonPath(['capabilities', c, 'events', e]),
          message: problem,
        });
      else if (!patterns.includes(pattern)) patterns.push(pattern);
    });
  });
  return patterns;
}

/** The component: inside the folder after resolving symlinks, a regular file, at most 16 MiB. */
function wasmComponent(
  dir: string,
  wasm: string,
  manifestFile: string,
  issues: ConfigIssue[],
  hashCache: HashCache | undefined,
): { file: string; bytes: Uint8Array; sha: string } | undefined {
  const at = jsonPath(['plugin', 'wasm']);
  const inside = resolveInside(dir, wasm);
  if (!inside.ok) {
    issues.push({ file: manifestFile, path: at, message: inside.message });
    return undefined;
  }
  const hashed = readWasm(inside.real, hashCache);
  if (!hashed.ok) {
    issues.push({ file: manifestFile, path: at, message: hashed.message });
    return undefined;
  }
  return { file: inside.real, bytes: hashed.bytes, sha: hashed.sha };
}

/** Filesystem grants: existing directories inside the plugin folder, each granted once. */
function filesystemGrants(
  dir: string,
  entries: readonly string[],
  manifestFile: string,
  issues: ConfigIssue[],
): Array<{ guest: string; host: string }> {
  const filesystem: Array<{ guest: string; host: string }> = [];
  entries.forEach((entry, i) => {
    const at = jsonPath(['permissions', 'filesystem', i]);
    const r = resolveInside(dir, entry);
    if (!r.ok) {
      issues.push({ file: manifestFile, path: at, message: r.message });
      return;
    }
    let st: Stats;
    try {
      st = lstatSync(r.real);
    } catch (err) {
      issues.push({ file: manifestFile, path: at, message: `cannot read ${entry}: ${errorMessage(err)}` });
      return;
    }
    if (!st.isDirectory()) {
      issues.push({ file: manifestFile, path: at, message: `${entry} is not a directory` });
      return;
    }
    const guest = path.posix.normalize(entry.replaceAll('\\', '/')).replace(/\/+$/, '') || '.';
    if (filesystem.some((g) => g.guest === guest))
      issues.push({ file: manifestFile, path: at, message: `${entry} is granted twice` });
    else filesystem.push({ guest, host: r.real });
  });
  return filesystem;
}

/** Why `pattern` is not a usable event pattern, or undefined when it is. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern === '*') return undefined;
  if (!pattern.includes('.') && !pattern.includes('*')) {
    return isPrxEvent(pattern)
      ? undefined
      : `unknown event ${JSON.stringify(pattern)} (events: ${PRX_EVENT_NAMES.join(', ')}; or "prx.lifecycle.*", or "*")`;
  }
  try {
    parsePattern(pattern);
  } catch (err) {
    return errorMessage(err);
  }
  if (!PRX_EVENT_NAMES.some((e) => topicMatches(pattern, `prx.lifecycle.${e}`)))
    return `pattern ${JSON.stringify(pattern)} matches no event (topics are prx.lifecycle.<event>, e.g. "prx.lifecycle.*")`;
  return undefined;
}

/** Resolves `rel` against the plugin folder and requires the real path (symlinks resolved) to stay inside. */
function resolveInside(
  dir: string,
  rel: string,
): { ok: true; real: string } | { ok: false; message: string } {
  const joined = path.resolve(dir, rel);
  if (!isInside(dir, joined)) return { ok: false, message: `${rel} leaves the plugin folder` };
  let real: string;
  try {
    real = realpathSync(joined);
  } catch (err) {
    const code = errorCode(err);
    return {
      ok: false,
      message: code === 'ENOENT' ? `${rel} does not exist` : `cannot read ${rel}: ${errorMessage(err)}`,
    };
  }
  if (!isInside(dir, real))
    return { ok: false, message: `${rel} is a symlink (or goes through one) that leaves the plugin folder` };
  return { ok: true, real };
}

function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** Reads a file that must be a regular file (O_NOFOLLOW: no symlink swap) of at most `limit` bytes. */
function readRegularFile(
  file: string,
  limit: number,
  what: string,
): { ok: true; bytes: Uint8Array; stat: Stats } | { ok: false; message: string } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return { ok: false, message: `${what} is missing` };
    if (code === 'ELOOP') return { ok: false, message: `${what} is a symlink; it must be a regular file` };
    return { ok: false, message: `cannot read ${what}: ${errorMessage(err)}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, message: `${what} is not a regular file` };
    if (stat.size > limit)
      return { ok: false, message: `${what} is ${stat.size} bytes; the limit is ${limit}` };
    const bytes = new Uint8Array(stat.size);
    let off = 0;
    while (off < bytes.length) {
      const n = readSync(fd, bytes, off, bytes.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return { ok: true, bytes: bytes.subarray(0, off), stat };
  } finally {
    closeSync(fd);
  }
}

const COMPONENT_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00];
const CORE_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

function readWasm(
  file: string,
  cache: HashCache | undefined,
): { ok: true; bytes: Uint8Array; sha: string } | { ok: false; message: string } {
  const name = path.basename(file);
  const key = (() => {
    try {
      const st = lstatSync(file, { bigint: true });
      return `${file}:${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch {
      return undefined;
    }
  })();
  const hit = key !== undefined ? cache?.get(key) : undefined;
  if (hit !== undefined) return { ok: true, ...hit };
  const read = readRegularFile(file, PLUGIN_LIMITS.maxWasmBytes, name);
  if (!read.ok) return read;
  const { bytes } = read;
  const starts = (h: number[]) => h.every((b, i) => bytes[i] === b);
  if (starts(CORE_HEADER))
    return {
      ok: false,
      message: `${name} is a core WebAssembly module, not a component; wrap it with componentEmbed + componentNew (see docs/wasm.md)`,
    };
  if (!starts(COMPONENT_HEADER)) return { ok: false, message: `${name} is not a WebAssembly component` };
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (key !== undefined && cache !== undefined) {
    if (cache.size > 256) cache.clear();
    cache.set(key, { sha, bytes });
  }
  return { ok: true, bytes, sha };
}
