/**
 * Property tests (issue 11): the config loaders never throw, on ANY input. Each one answers with
 * its own issue list instead (`ConfigIssue`: file, JSON path, message):
 * - prx: `loadPrxConfig` (`<workspace>/hooks.json`) and `parsePrxConfigText` (the API writer's check);
 * - lurus: `loadLurusConfig` (`.lurus/hooks.json` and `.lurus/settings.json`, project and global);
 * - Claude Code: `loadClaudeConfig` (managed, user, project, local settings, a plugin's hooks.json);
 * - Gemini CLI: `loadGeminiConfig` (system, user, project settings);
 * - WASM plugins: `loadPlugin` (`plugin.toml`).
 * Inputs: arbitrary strings and bytes, arbitrary JSON values, and JSON-ish mutations of the valid
 * examples of examples/ and test/fixtures/ (values, types and keys changed, text cut, keys doubled,
 * nesting deepened), each written to a real file where the loader reads it, and loaded with every
 * consent mode (review, trust store, trusted).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { ConsentPolicy } from '../src/consent/project-admission.ts';
import type { ConfigIssue } from '../src/core/issues.ts';
import { loadClaudeConfig } from '../src/dialects/claude/source.ts';
import { loadGeminiConfig } from '../src/dialects/gemini/source.ts';
import { loadLurusConfig } from '../src/dialects/lurus/source.ts';
import { loadPrxConfig, parsePrxConfigText } from '../src/dialects/prx/source.ts';
import { loadPlugin } from '../src/sources/plugin-manifest.ts';
import { REPO } from './cli-runner.ts';
import { tempDir } from './helpers.ts';
import { runs, timeout } from './property-runs.ts';

// ---------------------------------------------------------------------------------------------
// Valid examples, the seeds of the mutations

const readJson = (rel: string): unknown => JSON.parse(readFileSync(path.join(REPO, rel), 'utf8'));

const PRX_EXAMPLES: unknown[] = [
  readJson('examples/demo/hooks.json'),
  {
    sandbox: 'none',
    hooks: {
      tool_call: [
        {
          id: 'hook_01',
          command: '/bin/true',
          args: ['-x'],
          env: { A: 'b' },
          cwd: 'sub',
          timeout_ms: 1000,
          stdin_json: true,
          enabled: false,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        },
      ],
      error: [{ command: 'hooks/x.sh', sandbox: 'bwrap', sandbox_workspace: 'ro' }],
    },
  },
];

const LURUS_MAP = {
  PreToolUse: [
    {
      matcher: 'Write|Edit',
      hooks: [
        { type: 'command', command: '.lurus/hooks/block-write.sh', timeout: 5000 },
        {
          type: 'http',
          url: 'http://127.0.0.1:9/decide',
          method: 'PUT',
          headers: { 'X-Team': 'a' },
          failMode: 'closed',
        },
      ],
    },
  ],
  SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
};
const LURUS_EXAMPLES: unknown[] = [
  LURUS_MAP,
  { hooks: LURUS_MAP, globalHooks: LURUS_MAP, projectHooks: { Stop: LURUS_MAP.SessionStart } },
];

const CLAUDE_EXAMPLES: unknown[] = [
  readJson('examples/claude-demo/.claude/settings.json'),
  readJson('test/fixtures/claude/plugin-audit/hooks/hooks.json'),
  {
    disableAllHooks: false,
    hooks: {
      PreToolUse: [
        {
          matcher: 'mcp__.*__write',
          hooks: [
            {
              type: 'http',
              url: 'http://127.0.0.1:9/hook',
              headers: { Authorization: 'Bearer $TOKEN' },
              allowedEnvVars: ['TOKEN'],
              timeout: 1.5,
              if: 'Bash(git push:*)',
            },
            { type: 'prompt', prompt: 'x' },
          ],
        },
      ],
    },
  },
];

const GEMINI_EXAMPLES: unknown[] = [
  {
    hooksConfig: { enabled: true, disabled: ['old'] },
    hooks: {
      BeforeTool: [
        {
          matcher: 'write_file|replace',
          sequential: true,
          hooks: [
            {
              type: 'command',
              command: '$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh',
              name: 'guard',
              timeout: 5000,
              env: { MODE: 'strict' },
            },
          ],
        },
      ],
      SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hi' }] }],
    },
  },
];

const PLUGIN_EXAMPLE = readFileSync(path.join(REPO, 'examples/plugins/audit-logger/plugin.toml'), 'utf8');

// ---------------------------------------------------------------------------------------------
// Generators

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys the loaders know (so mutations reach deep into the schemas), plus prototype names. */
const KEYS = [
  'hooks',
  'command',
  'args',
  'env',
  'cwd',
  'timeout_ms',
  'stdin_json',
  'sandbox',
  'sandbox_workspace',
  'id',
  'enabled',
  'created_at',
  'matcher',
  'type',
  'url',
  'method',
  'headers',
  'timeout',
  'failMode',
  'async',
  'if',
  'keepChildren',
  'allowedEnvVars',
  'name',
  'sequential',
  'disableAllHooks',
  'allowManagedHooksOnly',
  'hooksConfig',
  'disabled',
  'globalHooks',
  'projectHooks',
  '$schema',
  'tool_call',
  'error',
  'PreToolUse',
  'SessionStart',
  'BeforeTool',
  'Stop',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
];

const key = fc.oneof(
  { arbitrary: fc.constantFrom(...KEYS), weight: 4 },
  { arbitrary: fc.string(), weight: 1 },
);

/** Odd values a loader may meet where it expects something else. */
const oddValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    '',
    ' ',
    '\u0000',
    '../../etc',
    '/bin/true',
    'http://169.254.169.254/latest',
    'a\r\nb',
    '*',
    '(?=a)',
    '[',
    -1,
    0,
    0.5,
    1e308,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
    3_600_001,
    true,
    false,
    null,
    [],
    {},
    ['x'],
    { type: 'command' },
  ),
);

/** One mutation: which spot (an index into the spots of the value), what to do, with what. */
const mutation = fc.record({ at: fc.nat(), kind: fc.nat({ max: 8 }), value: oddValue, key });
type Mutation = { at: number; kind: number; value: Json; key: string };

/** Every (container, key) spot of a JSON value, in document order. */
function spots(root: Json): Array<{ parent: Json[] | { [k: string]: Json }; key: string | number }> {
  const out: Array<{ parent: Json[] | { [k: string]: Json }; key: string | number }> = [];
  const walk = (v: Json) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        out.push({ parent: v, key: i });
        walk(item);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        out.push({ parent: v, key: k });
        walk(v[k]!);
      }
    }
  };
  walk(root);
  return out;
}

function setKey(parent: Json[] | { [k: string]: Json }, k: string | number, value: Json): void {
  if (Array.isArray(parent)) parent[Number(k)] = value;
  // defineProperty: a `__proto__` key becomes an own property, as JSON.parse makes it.
  else Object.defineProperty(parent, k, { value, enumerable: true, writable: true, configurable: true });
}

/** A changed type that keeps the content where it can: "5" ↔ 5, x → [x], object ↔ array. */
function retype(v: Json): Json {
  if (typeof v === 'string') return Number.isNaN(Number(v)) ? [v] : Number(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return {};
  if (Array.isArray(v)) return Object.fromEntries(v.map((x, i) => [String(i), x]));
  return Object.values(v);
}

function mutate(seed: unknown, mutations: readonly Mutation[]): Json {
  const root = { root: structuredClone(seed) as Json };
  for (const given of mutations) {
    // A copy: generated values may be shared (constants), and must never end up in the tree twice.
    const m = { ...given, value: structuredClone(given.value) };
    const all = spots(root);
    const { parent, key: k } = all[m.at % all.length]!;
    const current = (parent as Record<string | number, Json>)[k]!;
    // The file's top level is replaced or changed, never removed or renamed.
    const top = parent === (root as unknown);
    switch (top && (m.kind === 3 || m.kind === 5) ? 0 : m.kind) {
      case 0: // replace the value
      case 1:
        setKey(parent, k, m.value);
        break;
      case 2: // change its type
        setKey(parent, k, retype(current));
        break;
      case 3: // remove it
        if (Array.isArray(parent)) parent.splice(Number(k), 1);
        else delete parent[k];
        break;
      case 4: // add a key next to it (or an element)
        if (Array.isArray(parent)) parent.push(m.value);
        else setKey(parent, m.key, m.value);
        break;
      case 5: // rename the key
        if (!Array.isArray(parent)) {
          delete parent[k];
          setKey(parent, m.key, current);
        }
        break;
      case 6: // wrap it in a list
        setKey(parent, k, [current]);
        break;
      case 7: // add a key inside it (objects)
        if (current !== null && typeof current === 'object' && !Array.isArray(current))
          setKey(current, m.key, m.value);
        else setKey(parent, k, { [m.key]: current });
        break;
      default: // duplicate an element
        if (Array.isArray(parent)) parent.push(structuredClone(current));
        else setKey(parent, `${String(k)}_copy`, structuredClone(current));
    }
  }
  return root.root;
}

/** Text-level damage to a JSON text: cut it, insert a character, double a key, nest it deep. */
const textDamage = fc.record({ kind: fc.nat({ max: 7 }), at: fc.nat(), ch: fc.string({ maxLength: 2 }) });
function damage(text: string, d: { kind: number; at: number; ch: string }): string {
  const at = d.at % (text.length + 1);
  switch (d.kind) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + d.ch + text.slice(at);
    case 2: {
      // the first key written twice: `{"k": v, "k": v, …`
      const m = /^\s*\{\s*("(?:[^"\\]|\\.)*")\s*:/.exec(text);
      return m ? text.replace(m[0], `${m[0]} null, ${m[1]}:`) : text;
    }
    case 3:
      return `\ufeff${text}`;
    case 4:
      return `// comment\n${text}`;
    case 5:
      return `${'['.repeat(600)}${text}${']'.repeat(600)}`;
    case 6:
      return `{"hooks": ${'['.repeat(400 + (d.at % 200))}${text}${']'.repeat(400 + (d.at % 200))}}`;
    default:
      return text + text;
  }
}

/** Text damage one time in four: most mutated files stay JSON, to reach the schemas and beyond. */
const maybeDamage = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  { arbitrary: textDamage, weight: 1 },
);

/** Contents of a config file: text (a JS string, written as UTF-8) or raw bytes. */
type Content = string | Uint8Array;

function inputs(examples: readonly unknown[]): fc.Arbitrary<Content> {
  const mutated = fc
    .tuple(
      fc.constantFrom(...examples),
      fc.array(mutation, { minLength: 1, maxLength: 4 }),
      maybeDamage,
      fc.constantFrom(0, 2),
    )
    .map(([seed, ms, d, indent]) => {
      const text = JSON.stringify(mutate(seed, ms), null, indent);
      return d === undefined ? text : damage(text, d);
    });
  return fc.oneof(
    { arbitrary: mutated, weight: 6 },
    { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
    { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Checks

function write(file: string, content: Content): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** The text a loader reads from `content` (a file holds UTF-8; invalid bytes read as U+FFFD). */
function asText(content: Content): string {
  return typeof content === 'string'
    ? Buffer.from(content, 'utf8').toString('utf8')
    : Buffer.from(content).toString('utf8');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Each issue is a ConfigIssue: the file, a JSON path, a one-line message. */
function expectIssues(issues: readonly ConfigIssue[]): void {
  expect(Array.isArray(issues)).toBe(true);
  for (const issue of issues) {
    expect(typeof issue.file).toBe('string');
    expect(issue.path).toMatch(/^\$/);
    expect(typeof issue.message).toBe('string');
    expect(issue.message.length).toBeGreaterThan(0);
  }
}

const MODES: Array<ConsentPolicy | undefined> = [
  undefined,
  { kind: 'store' },
  { kind: 'fixed', check: () => ({ trusted: true, reason: 'test' }) },
];

const RUNS = 200;

/** A project and a home folder (real paths, as the loaders key consent by them). */
function layout() {
  const project = tempDir('hw-prop-project-');
  const home = tempDir('hw-prop-home-');
  const plugin = path.join(project, 'plugin');
  mkdirSync(plugin, { recursive: true });
  return { project, home, plugin };
}

/**
 * The property every gate loader keeps: write `content` to one of `files`, load in every consent
 * mode — issues and warnings well formed, never a throw — and `check` the result; the file is
 * removed after each case.
 */
function loaderNeverThrows<R extends { issues: readonly ConfigIssue[]; warnings: readonly ConfigIssue[] }>(
  examples: readonly unknown[],
  files: readonly string[],
  load: (consent: ConsentPolicy | undefined) => R,
  check: (r: R, file: string, content: Content) => void,
): void {
  fc.assert(
    fc.property(inputs(examples), fc.nat({ max: files.length - 1 }), (content, f) => {
      const file = files[f]!;
      write(file, content);
      try {
        for (const consent of MODES) {
          const r = load(consent);
          expectIssues(r.issues);
          expectIssues(r.warnings);
          check(r, file, content);
        }
      } finally {
        rmSync(file, { force: true });
      }
    }),
    { numRuns: runs(RUNS) },
  );
}

/** A source file that is not JSON is reported as an issue of that file. */
function notJsonIsAnIssue(r: { issues: readonly ConfigIssue[] }, file: string, content: Content): void {
  if (!isJson(asText(content))) expect(r.issues.some((i) => i.file === file)).toBe(true);
}

// ---------------------------------------------------------------------------------------------

describe('issue 11: config loaders never throw, whatever the file holds', () => {
  it(
    'issue 11: the valid examples behind the mutations load without issues (the seeds are valid)',
    () => {
      const { project, home, plugin } = layout();
      for (const example of PRX_EXAMPLES) {
        write(path.join(project, 'hooks.json'), JSON.stringify(example));
        const r = loadPrxConfig(project, { findBwrap: () => ({ ok: true, path: '/usr/bin/bwrap' }) });
        expect(r.ok ? [] : r.issues).toEqual([]);
      }
      write(path.join(project, '.lurus', 'hooks.json'), JSON.stringify(LURUS_EXAMPLES[0]));
      write(path.join(home, '.lurus', 'settings.json'), JSON.stringify(LURUS_EXAMPLES[1]));
      const lurus = loadLurusConfig({ projectDir: project, home });
      expect(lurus.issues).toEqual([]);
      // project hooks.json; global settings.json `hooks` and `globalHooks` (`projectHooks` is a project key)
      expect(lurus.hooks.length).toBe(3 * 3);
      write(path.join(project, '.claude', 'settings.json'), JSON.stringify(CLAUDE_EXAMPLES[0]));
      write(path.join(project, '.claude', 'settings.local.json'), JSON.stringify(CLAUDE_EXAMPLES[2]));
      write(path.join(plugin, 'hooks', 'hooks.json'), JSON.stringify(CLAUDE_EXAMPLES[1]));
      const claude = loadClaudeConfig({ projectDir: project, home, claude: { plugins: [plugin] } });
      expect(claude.issues).toEqual([]);
      expect(claude.entries.length).toBe(6 + 1 + 2);
      write(path.join(project, '.gemini', 'settings.json'), JSON.stringify(GEMINI_EXAMPLES[0]));
      const gemini = loadGeminiConfig({
        projectDir: project,
        home,
        gemini: { systemSettings: path.join(home, 'none') },
      });
      expect(gemini.issues).toEqual([]);
      expect(gemini.entries.length).toBe(2);
      const pluginDir = path.join(project, 'plugins', 'p');
      write(path.join(pluginDir, 'plugin.toml'), PLUGIN_EXAMPLE);
      write(
        path.join(pluginDir, 'plugin.wasm'),
        readFileSync(path.join(REPO, 'examples/plugins/audit-logger/plugin.wasm')),
      );
      const loaded = loadPlugin(pluginDir);
      expect(loaded.ok ? [] : loaded.issues).toEqual([]);
    },
    timeout(),
  );

  it(
    '[P-CFG-1] [P-CFG-2] [L-TRUST-4] issue 11: loadPrxConfig and parsePrxConfigText answer issues, never throw, on any hooks.json',
    () => {
      const ws = tempDir('hw-prop-prx-');
      const file = path.join(ws, 'hooks.json');
      const bwrap = [
        () => ({ ok: true as const, path: '/usr/bin/bwrap' }),
        () => ({ ok: false as const, message: 'bwrap not found' }),
      ];
      fc.assert(
        fc.property(inputs(PRX_EXAMPLES), fc.nat({ max: 1 }), (content, b) => {
          write(file, content);
          const r = loadPrxConfig(ws, { findBwrap: bwrap[b]! });
          if (r.ok) {
            expect(isJson(asText(content))).toBe(true);
            expect(Array.isArray(r.actions)).toBe(true);
          } else {
            expect(r.issues.length).toBeGreaterThan(0);
            expectIssues(r.issues);
          }
          // The API writer checks text before writing it: lone surrogates and all.
          if (typeof content === 'string') {
            const direct = parsePrxConfigText(ws, file, content, { findBwrap: bwrap[b]! });
            if (!direct.ok) expectIssues(direct.issues);
          }
        }),
        { numRuns: runs(RUNS * 2) },
      );
    },
    timeout(),
  );

  it(
    '[L-SRC-1] [L-DEF-1] [L-TRUST-3] [L-TRUST-4] issue 11: loadLurusConfig answers issues, never throws, in every consent mode',
    () => {
      const { project, home } = layout();
      const files = [
        path.join(project, '.lurus', 'hooks.json'),
        path.join(project, '.lurus', 'settings.json'),
        path.join(home, '.lurus', 'hooks.json'),
        path.join(home, '.lurus', 'settings.json'),
      ];
      loaderNeverThrows(
        LURUS_EXAMPLES,
        files,
        (consent) => loadLurusConfig({ projectDir: project, home, ...(consent ? { consent } : {}) }),
        (r, file, content) => {
          expect(r.sources.length).toBe(6);
          // Text that is not JSON never yields hooks: its source is skipped whole.
          if (!isJson(asText(content))) {
            expect(r.issues.some((i) => i.file === file)).toBe(true);
            expect(r.entries.filter((e) => e.origin.file === file)).toEqual([]);
          }
        },
      );
    },
    timeout(),
  );

  it(
    '[C-SRC-1] [C-SRC-3] [C-SRC-4] issue 11: loadClaudeConfig answers issues and warnings, never throws, for every source',
    () => {
      const { project, home, plugin } = layout();
      const managed = path.join(home, 'managed-settings.json');
      const files = [
        managed,
        path.join(home, '.claude', 'settings.json'),
        path.join(project, '.claude', 'settings.json'),
        path.join(project, '.claude', 'settings.local.json'),
        path.join(plugin, 'hooks', 'hooks.json'),
      ];
      loaderNeverThrows(
        CLAUDE_EXAMPLES,
        files,
        (consent) =>
          loadClaudeConfig({
            projectDir: project,
            home,
            claude: { plugins: [plugin], managedSettings: managed },
            ...(consent ? { consent } : {}),
          }),
        notJsonIsAnIssue,
      );
    },
    timeout(),
  );

  it(
    '[G-SRC-1] issue 11: loadGeminiConfig answers issues and warnings, never throws, for every source',
    () => {
      const { project, home } = layout();
      const system = path.join(home, 'system-settings.json');
      const files = [
        system,
        path.join(home, '.gemini', 'settings.json'),
        path.join(project, '.gemini', 'settings.json'),
      ];
      loaderNeverThrows(
        GEMINI_EXAMPLES,
        files,
        (consent) =>
          loadGeminiConfig({
            projectDir: project,
            home,
            gemini: { systemSettings: system },
            ...(consent ? { consent } : {}),
          }),
        notJsonIsAnIssue,
      );
    },
    timeout(),
  );

  it(
    '[P-WASM-2] [P-WASM-3] issue 11: loadPlugin answers issues, never throws, on any plugin.toml',
    () => {
      const dir = path.join(tempDir('hw-prop-plugin-'), 'p');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, 'plugin.wasm'),
        readFileSync(path.join(REPO, 'examples/plugins/audit-logger/plugin.wasm')),
      );
      const seed = parseToml(PLUGIN_EXAMPLE);
      const toml = fc
        .tuple(fc.array(mutation, { minLength: 1, maxLength: 4 }), maybeDamage)
        .map(([ms, d]) => {
          let text: string;
          try {
            text = stringifyToml(mutate(seed, ms) as Record<string, unknown>);
          } catch {
            // Not every JSON value is TOML (null, a top level that is not a table): its JSON then.
            text = JSON.stringify(mutate(seed, ms));
          }
          return d === undefined ? text : damage(text, d);
        });
      fc.assert(
        fc.property(
          fc.oneof(
            { arbitrary: toml, weight: 4 },
            { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
            { arbitrary: fc.uint8Array({ maxLength: 200 }), weight: 1 },
          ),
          (content) => {
            write(path.join(dir, 'plugin.toml'), content);
            const r = loadPlugin(dir);
            if (!r.ok) {
              expect(r.issues.length).toBeGreaterThan(0);
              expectIssues(r.issues);
            }
          },
        ),
        { numRuns: runs(RUNS * 2) },
      );
    },
    timeout(),
  );
});
