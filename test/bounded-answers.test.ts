/**
 * [C-ANS-3] Bounded answers (issue 18, item 9): a hook's JSON answer nested deeper than 64 levels
 * is an invalid answer in every dialect, never a crash, and never the loss of another hook's
 * answer. Run for real: `node bin/hookwerk.js decide` in a temp project, with hooks in a temp
 * HOME's user sources (trusted without a review), answers printed by `cat` or sent by a real
 * node:http server on 127.0.0.1.
 *
 * The depth of an answer counts its outermost object as level 1 (as the payload bound does).
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonDepthOverflow, MAX_HOOK_JSON_DEPTH, parseBoundedJson } from '../src/core/json-text.ts';
import { type CliResult, runCli, STACK } from './cli-runner.ts';
import { tempDir } from './helpers.ts';
import { closeHttpServers, startHttpServer } from './http-server.ts';

afterEach(closeHttpServers);

const DEEP = 170_000;

/** JSON text of exactly `levels` levels (arrays: 2 bytes a level, far below the output limit). */
const nest = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** Each dialect's allow answer carrying a value, `levels` deep in all. */
const claudeAnswer = (levels: number) =>
  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"x":${nest(levels - 3)}}}}`;
const geminiAnswer = (levels: number) =>
  `{"decision":"allow","hookSpecificOutput":{"tool_input":{"x":${nest(levels - 3)}}}}`;
const lurusAnswer = (levels: number) => `{"decision":"allow","reason":"deep","x":${nest(levels - 1)}}`;

const CLAUDE_DENY = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'no rm',
  },
});
const GEMINI_DENY = JSON.stringify({ decision: 'deny', reason: 'no rm' });
const LURUS_DENY = JSON.stringify({ decision: 'deny', reason: 'no rm' });

interface Setup {
  project: string;
  home: string;
  /** Writes `text` to a file and returns a command that prints it. */
  printing(name: string, text: string): string;
  run(args: string[], stdin?: string): Promise<CliResult>;
}

function setup(): Setup {
  const project = realpathSync(tempDir('hw-deep-proj-'));
  const home = realpathSync(tempDir('hw-deep-home-'));
  const answers = realpathSync(tempDir('hw-deep-answers-'));
  return {
    project,
    home,
    printing(name, text) {
      const file = path.join(answers, name);
      writeFileSync(file, text);
      return `cat ${file}`;
    },
    run: (args, stdin) =>
      runCli(args, { cwd: project, home, ...(stdin !== undefined ? { stdin: { text: stdin } } : {}) }),
  };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

type Handler = Record<string, unknown>;
const command = (cmd: string, extra: Handler = {}): Handler => ({ type: 'command', command: cmd, ...extra });
const httpHook = (url: string, extra: Handler = {}): Handler => ({ type: 'http', url, ...extra });

function claudeHooks(s: Setup, ...hooks: Handler[]): void {
  writeJson(path.join(s.home, '.claude', 'settings.json'), { hooks: { PreToolUse: [{ hooks }] } });
}
function geminiHooks(s: Setup, ...hooks: Handler[]): void {
  writeJson(path.join(s.home, '.gemini', 'settings.json'), { hooks: { BeforeTool: [{ hooks }] } });
}
function lurusHooks(s: Setup, ...hooks: Handler[]): void {
  writeJson(path.join(s.home, '.lurus', 'hooks.json'), { PreToolUse: [{ hooks }] });
}

const CLAUDE_INPUT = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
const GEMINI_INPUT = JSON.stringify({
  tool_name: 'run_shell_command',
  tool_input: { command: 'rm -rf build' },
});
const LURUS_CONTEXT = JSON.stringify({ toolName: 'Bash', toolInput: { command: 'rm -rf build' } });

const decideClaude = (s: Setup) => s.run(['decide', 'PreToolUse', '--dialect', 'claude'], CLAUDE_INPUT);
const decideGemini = (s: Setup) => s.run(['decide', 'BeforeTool', '--dialect', 'gemini'], GEMINI_INPUT);
const decideLurus = (s: Setup) => s.run(['decide', 'PreToolUse', '--context', LURUS_CONTEXT]);

interface RunJson {
  outcome: string;
  cause?: string;
  reason?: string;
  failed?: string;
}
interface DecisionJson {
  decision: string;
  blocked: boolean;
  reason?: string;
  updatedInput?: unknown;
  runs: RunJson[];
}

/** `decide` answered: one line of JSON on stdout, no crash on stderr. */
function decisionOf(r: CliResult): DecisionJson {
  expect(r.stderr).not.toMatch(/RangeError|Maximum call stack/);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stdout.split('\n'), r.stderr).toHaveLength(2);
  return JSON.parse(r.stdout) as DecisionJson;
}

const invalidRun = {
  outcome: 'error',
  cause: 'invalid_answer',
  reason: expect.stringContaining('nested more than 64 levels deep'),
};

describe('[C-ANS-3] an answer nested 170 000 levels deep never loses another hook’s deny', () => {
  it('[C-ANS-3] claude: the deep hook is an invalid answer, the other hook’s deny decides (exit 2), in either order', async () => {
    for (const order of ['deny first', 'deep first']) {
      const s = setup();
      const deny = command(s.printing('deny.json', CLAUDE_DENY));
      const deep = command(s.printing('deep.json', claudeAnswer(DEEP)));
      claudeHooks(s, ...(order === 'deny first' ? [deny, deep] : [deep, deny]));
      const r = await decideClaude(s);
      expect(r.code, r.stderr).toBe(2);
      const d = decisionOf(r);
      expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no rm' });
      expect(d.updatedInput).toBeUndefined();
      const runs = order === 'deny first' ? d.runs : [...d.runs].reverse();
      expect(runs[0]).toMatchObject({ outcome: 'deny' });
      expect(runs[1]).toMatchObject({ ...invalidRun, failed: 'open' });
    }
  });

  it('[C-ANS-3] gemini: the deep hook is an invalid answer, the other hook’s deny decides (exit 2)', async () => {
    const s = setup();
    geminiHooks(
      s,
      command(s.printing('deep.json', geminiAnswer(DEEP))),
      command(s.printing('deny.json', GEMINI_DENY)),
    );
    const r = await decideGemini(s);
    expect(r.code, r.stderr).toBe(2);
    const d = decisionOf(r);
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no rm' });
    expect(d.updatedInput).toBeUndefined();
    expect(d.runs[0]).toMatchObject({ ...invalidRun, failed: 'open' });
    expect(d.runs[1]).toMatchObject({ outcome: 'deny' });
  });

  it('[C-ANS-3] lurus: the deep hook is an invalid answer, the other hook’s deny decides (exit 2)', async () => {
    const s = setup();
    lurusHooks(
      s,
      command(s.printing('deep.json', lurusAnswer(DEEP))),
      command(s.printing('deny.json', LURUS_DENY)),
    );
    const r = await decideLurus(s);
    expect(r.code, r.stderr).toBe(2);
    const d = decisionOf(r);
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no rm' });
    expect(d.runs[0]).toMatchObject({ ...invalidRun, failed: 'open' });
    expect(d.runs[1]).toMatchObject({ outcome: 'deny' });
  });

  it('[C-ANS-3] claude and lurus HTTP hooks: a deep 2xx body is an invalid answer; the command hook’s deny decides', async () => {
    const server = await startHttpServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url === '/claude' ? claudeAnswer(DEEP) : lurusAnswer(DEEP));
    });
    const base = server.url.replace(/\/hook$/, '');
    const c = setup();
    claudeHooks(c, httpHook(`${base}/claude`), command(c.printing('deny.json', CLAUDE_DENY)));
    const rc = await decideClaude(c);
    expect(rc.code, rc.stderr).toBe(2);
    const dc = decisionOf(rc);
    expect(dc).toMatchObject({ decision: 'deny', reason: 'no rm' });
    expect(dc.runs[0]).toMatchObject({
      ...invalidRun,
      reason: 'HTTP 200 body is nested more than 64 levels deep',
    });

    const l = setup();
    lurusHooks(l, httpHook(`${base}/lurus`), command(l.printing('deny.json', LURUS_DENY)));
    const rl = await decideLurus(l);
    expect(rl.code, rl.stderr).toBe(2);
    const dl = decisionOf(rl);
    expect(dl).toMatchObject({ decision: 'deny', reason: 'no rm' });
    expect(dl.runs[0]).toMatchObject(invalidRun);
  });
});

describe('[C-ANS-3] the bound: 64 levels are an answer, 65 are not', () => {
  const at = (levels: number) => levels === MAX_HOOK_JSON_DEPTH;

  it('[C-ANS-3] claude command hook: 64 levels give their updatedInput; 65 are invalid (no objection, no updatedInput)', async () => {
    for (const levels of [64, 65]) {
      const s = setup();
      claudeHooks(s, command(s.printing('a.json', claudeAnswer(levels))));
      const r = await decideClaude(s);
      expect(r.code, r.stderr).toBe(0);
      const d = decisionOf(r);
      expect(d.decision).toBe('allow');
      if (at(levels)) {
        expect(d.updatedInput).toEqual({ x: JSON.parse(nest(levels - 3)) });
        expect(d.runs[0]).toMatchObject({ outcome: 'ok' });
      } else {
        expect(d.updatedInput).toBeUndefined();
        expect(d.runs[0]).toMatchObject({ ...invalidRun, failed: 'open' });
      }
    }
  });

  it('[C-ANS-3] claude HTTP hook: a 64-level body is an answer, a 65-level one is invalid', async () => {
    const server = await startHttpServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(claudeAnswer(Number(req.url?.slice(1))));
    });
    const base = server.url.replace(/\/hook$/, '');
    for (const levels of [64, 65]) {
      const s = setup();
      claudeHooks(s, httpHook(`${base}/${levels}`));
      const d = decisionOf(await decideClaude(s));
      if (at(levels)) expect(d.updatedInput).toEqual({ x: JSON.parse(nest(levels - 3)) });
      else expect(d.runs[0]).toMatchObject(invalidRun);
    }
  });

  it('[C-ANS-3] gemini command hook: 64 levels rewrite the tool input; 65 are invalid', async () => {
    for (const levels of [64, 65]) {
      const s = setup();
      geminiHooks(s, command(s.printing('a.json', geminiAnswer(levels))));
      const r = await decideGemini(s);
      expect(r.code, r.stderr).toBe(0);
      const d = decisionOf(r);
      // (Only `x` is looked at: whether the rest of the tool input is kept is G-ANS-1's concern.)
      if (at(levels)) expect(d.updatedInput).toMatchObject({ x: JSON.parse(nest(levels - 3)) });
      else {
        expect(d.updatedInput).toBeUndefined();
        expect(d.runs[0]).toMatchObject({ ...invalidRun, failed: 'open' });
      }
    }
  });

  it('[C-ANS-3] gemini: a JSON string holding 65-level JSON (decoded once more, as Gemini CLI does) is invalid too', async () => {
    const s = setup();
    geminiHooks(s, command(s.printing('a.json', JSON.stringify(geminiAnswer(65)))));
    const d = decisionOf(await decideGemini(s));
    expect(d.runs[0]).toMatchObject(invalidRun);
  });

  it('[C-ANS-3] lurus command and HTTP hooks: 64 levels answer (reason kept), 65 are invalid', async () => {
    const server = await startHttpServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(lurusAnswer(Number(req.url?.slice(1))));
    });
    const base = server.url.replace(/\/hook$/, '');
    for (const levels of [64, 65]) {
      const s = setup();
      lurusHooks(s, command(s.printing('a.json', lurusAnswer(levels))), httpHook(`${base}/${levels}`));
      const r = await decideLurus(s);
      expect(r.code, r.stderr).toBe(0);
      const d = decisionOf(r);
      for (const run of d.runs) {
        if (at(levels)) expect(run).toMatchObject({ outcome: 'ok', reason: 'deep' });
        else expect(run).toMatchObject({ ...invalidRun, failed: 'open' });
      }
    }
  });

  it('[C-ANS-3] brackets inside strings are not levels: a 1000-bracket string in a flat answer is an answer', async () => {
    const s = setup();
    const text = `${'['.repeat(1000)}{"\\"${'{'.repeat(1000)}`;
    claudeHooks(
      s,
      command(
        s.printing(
          'a.json',
          JSON.stringify({ systemMessage: text, hookSpecificOutput: { hookEventName: 'PreToolUse' } }),
        ),
      ),
    );
    const d = decisionOf(await decideClaude(s));
    expect(d.runs[0]).toMatchObject({ outcome: 'ok' });
    expect(d).toMatchObject({ decision: 'allow' });
    expect((d as unknown as { systemMessage: string }).systemMessage).toBe(text);
  });
});

describe('[C-ANS-3] an invalid deep answer under failMode "closed" is a denial', () => {
  it('[C-ANS-3] claude: 65 levels with failMode "closed" → deny (exit 2), the failure as the reason', async () => {
    const s = setup();
    claudeHooks(s, command(s.printing('a.json', claudeAnswer(65)), { failMode: 'closed' }));
    const r = await decideClaude(s);
    expect(r.code, r.stderr).toBe(2);
    const d = decisionOf(r);
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toContain('nested more than 64 levels deep');
    expect(d.runs[0]).toMatchObject({ ...invalidRun, failed: 'closed' });
  });

  it('[C-ANS-3] gemini: 170 000 levels with failMode "closed" → deny (exit 2)', async () => {
    const s = setup();
    geminiHooks(s, command(s.printing('a.json', geminiAnswer(DEEP)), { failMode: 'closed' }));
    const r = await decideGemini(s);
    expect(r.code, r.stderr).toBe(2);
    const d = decisionOf(r);
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.runs[0]).toMatchObject({ ...invalidRun, failed: 'closed' });
  });

  it('[C-ANS-3] gemini: exit 2 with deep output still blocks (the exit code said so)', async () => {
    const s = setup();
    geminiHooks(s, command(`${s.printing('a.json', geminiAnswer(DEEP))}; exit 2`));
    const r = await decideGemini(s);
    expect(r.code, r.stderr).toBe(2);
    const d = decisionOf(r);
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toBe('blocked by hook (exit 2); its output is nested more than 64 levels deep');
  });

  it('[C-ANS-3] lurus: 65 levels with failMode "closed" → deny (exit 2)', async () => {
    const s = setup();
    lurusHooks(s, command(s.printing('a.json', lurusAnswer(65)), { failMode: 'closed' }));
    const r = await decideLurus(s);
    expect(r.code, r.stderr).toBe(2);
    const d = decisionOf(r);
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.runs[0]).toMatchObject({ ...invalidRun, failed: 'closed' });
  });
});

describe('[C-ANS-3] JSON read on the command line is bounded the same way', () => {
  const input = (levels: number) => `{"tool_name":"Bash","tool_input":{"x":${nest(levels - 2)}}}`;

  it('[C-ANS-3] decide --input and stdin: 64 levels are decided, 65 and 170 000 exit 1 in one line', async () => {
    const s = setup();
    const ok = await s.run(['decide', 'PreToolUse', '--dialect', 'claude', '--input', input(64)]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(decisionOf(ok).decision).toBe('allow');
    const cases: [string, Promise<CliResult>][] = [
      ['--input', s.run(['decide', 'PreToolUse', '--dialect', 'claude', '--input', input(65)])],
      ['the input on stdin', s.run(['decide', 'BeforeTool', '--dialect', 'gemini'], input(DEEP))],
      ['--context', s.run(['decide', 'PreToolUse', '--context', input(65)])],
    ];
    for (const [what, running] of cases) {
      const r = await running;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`hookwerk: ${what} is nested more than 64 levels deep\n`);
    }
  });
});

describe('[C-ANS-3] the scan (jsonDepthOverflow, parseBoundedJson)', () => {
  it('[C-ANS-3] finds the bracket that opens level limit + 1, ignoring strings and escaped quotes', () => {
    expect(jsonDepthOverflow('[[[]]]', 3)).toBe(-1);
    expect(jsonDepthOverflow('[[[]]]', 2)).toBe(2);
    expect(jsonDepthOverflow('{"a":[{"b":1}]}', 2)).toBe(6);
    expect(jsonDepthOverflow('["[[[[", "\\"[[[[", "\\\\", [[]]]', 3)).toBe(-1);
    expect(jsonDepthOverflow('["\\\\", [[[]]]]', 3)).toBe(9);
    expect(jsonDepthOverflow('"unterminated [[[[', 1)).toBe(-1);
    expect(jsonDepthOverflow(nest(1_000_000), MAX_HOOK_JSON_DEPTH)).toBe(MAX_HOOK_JSON_DEPTH);
  });

  it('[C-ANS-3] parseBoundedJson: too deep, not JSON, or the value', () => {
    expect(parseBoundedJson(nest(65))).toEqual({
      ok: false,
      tooDeep: true,
      why: 'nested more than 64 levels deep',
    });
    expect(parseBoundedJson('{')).toMatchObject({ ok: false, tooDeep: false });
    expect(parseBoundedJson(nest(64))).toMatchObject({ ok: true });
  });
});
