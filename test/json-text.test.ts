import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonText } from '../src/core/json-text.ts';

// [L-TRUST-4] parseJsonText: JSON.parse plus line/column syntax errors and duplicate keys refused.

const FILE = '/w/hooks.json';

function issueOf(text: string) {
  const r = parseJsonText(FILE, text);
  if (r.ok) throw new Error('expected the text to be rejected');
  return r.issue;
}

describe('[L-TRUST-4] duplicate keys in any JSON object are an error', () => {
  it('[L-TRUST-4] a duplicate key at the top level names the key, both places and `$.key`', () => {
    const text = '{\n  "hooks": {},\n  "hooks": {"tool_call": []}\n}';
    expect(issueOf(text)).toEqual({
      file: FILE,
      path: '$.hooks',
      message:
        'duplicate key "hooks" at line 3, column 3 (also at line 2, column 3): JSON keeps only the last one',
    });
  });

  it('[L-TRUST-4] a duplicate key inside an object inside an array has the full path', () => {
    const text = [
      '{"hooks": {',
      '  "tool_call": [',
      '    {"command": "/bin/true"},',
      '    {"command": "/bin/true",',
      '     "command": "/bin/false"}',
      '  ]',
      '}}',
    ].join('\n');
    const issue = issueOf(text);
    expect(issue.path).toBe('$.hooks.tool_call[1].command');
    expect(issue.message).toBe(
      'duplicate key "command" at line 5, column 6 (also at line 4, column 6): JSON keeps only the last one',
    );
  });

  it('[L-TRUST-4] a duplicate deep in nested objects and arrays; odd keys are quoted in the path', () => {
    const text = '{"a": [[{"b": {"x-y": {"k": 1, "k": 2}}}]]}';
    expect(issueOf(text).path).toBe('$.a[0][0].b["x-y"].k');
  });

  it('[L-TRUST-4] keys equal after escapes are duplicates, as they are to JSON.parse', () => {
    expect(issueOf('{"id": 1, "\\u0069d": 2}').path).toBe('$.id');
  });

  it('[L-TRUST-4] the first duplicate in the file is the one reported', () => {
    expect(issueOf('{"a": {"x": 1, "x": 2}, "b": 1, "b": 2}').path).toBe('$.a.x');
  });

  it('[L-TRUST-4] the same key in two different objects, or in an object and its child, is fine', () => {
    const text = '{"hooks": {"error": [{"command": "a", "env": {"command": "b"}}, {"command": "c"}]}}';
    const r = parseJsonText(FILE, text);
    expect(r).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('[L-TRUST-4] nesting deeper than MAX_JSON_DEPTH is refused (not a stack overflow)', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseJsonText(FILE, deep(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(issueOf(deep(MAX_JSON_DEPTH + 1)).message).toMatch(/^nested too deep at line 1, column 513:/);
    // Far past where jsonc-parser's recursion runs out of stack.
    expect(issueOf(deep(100_000)).message).toMatch(/^nested too deep/);
  });
});

describe('[P-CFG-4] syntax errors still name line and column', () => {
  it('[P-CFG-4] an unexpected character', () => {
    expect(issueOf('{\n  "hooks": {\n    "error": [,]\n  }\n}')).toEqual({
      file: FILE,
      path: '$',
      message: 'invalid JSON: syntax error (unexpected "," at line 3, column 15)',
    });
  });

  it('[P-CFG-4] an early end of file', () => {
    expect(issueOf('{"hooks": {').message).toBe(
      'invalid JSON: syntax error (unexpected end of file at line 1, column 12)',
    );
  });

  it('[P-CFG-4] comments and trailing commas stay errors (plain JSON, not JSONC)', () => {
    expect(issueOf('{"a": 1 // no\n}').message).toMatch(/^invalid JSON: syntax error \(unexpected "\/"/);
    expect(issueOf('{"a": 1,}').message).toMatch(/^invalid JSON: syntax error \(unexpected "}"/);
  });
});

describe('[L-TRUST-4] speed', () => {
  it('[L-TRUST-4] a 1 MiB config is parsed and checked in well under a second', () => {
    const text = oneMiBConfig();
    expect(text.length).toBeGreaterThan(1024 * 1024 - 200);
    expect(text.length).toBeLessThanOrEqual(1024 * 1024);
    parseJsonText(FILE, text); // warm up the JIT once
    const started = performance.now();
    const r = parseJsonText(FILE, text);
    const ms = performance.now() - started;
    expect(r.ok).toBe(true);
    expect(ms).toBeLessThan(1000);
  });
});

/** About 1 MiB of realistic hooks: many actions with args and env, all keys unique per object. */
function oneMiBConfig(): string {
  const actions: string[] = [];
  let size = 40;
  for (let i = 0; ; i++) {
    const action = JSON.stringify({
      id: `hook_${i}`,
      command: `/usr/local/bin/hook-${i}.sh`,
      args: ['--event', 'tool_call', `--n=${i}`],
      env: { A: 'x'.repeat(20), B: String(i) },
      timeout_ms: 1000,
      stdin_json: true,
    });
    if (size + action.length + 2 > 1024 * 1024 - 20) break;
    actions.push(action);
    size += action.length + 2;
  }
  return `{"hooks": {"tool_call": [\n${actions.join(',\n')}\n]}}`;
}
