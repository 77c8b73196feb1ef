import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../src/core/json-text.ts';
import { prxHooksJsonSchema, SHIPPED_SCHEMAS } from '../src/dialects/json-schemas.ts';
import { loadPrxConfig } from '../src/dialects/prx/source.ts';

describe('shipped JSON Schema of hooks.json', () => {
  it.each(Object.keys(SHIPPED_SCHEMAS))(
    'schema/%s is generated from the current zod schema (run `npm run schema`)',
    (name) => {
      const shipped = JSON.parse(readFileSync(new URL(`../schema/${name}`, import.meta.url), 'utf8'));
      expect(shipped).toEqual(SHIPPED_SCHEMAS[name as keyof typeof SHIPPED_SCHEMAS]());
    },
  );

  it('[L-DEF-1] the Lurus schema lists the 11 events and both hook types', () => {
    const text = JSON.stringify(SHIPPED_SCHEMAS['lurus-hooks.schema.json']());
    for (const e of ['PreToolUse', 'PostToolUse', 'SubagentStop', 'Notification'])
      expect(text).toContain(`"${e}"`);
    expect(text).toContain('"const":"command"');
    expect(text).toContain('"const":"http"');
  });

  it('[P-CFG-4] the schema closes objects and lists exactly the 8 events', () => {
    const schema = prxHooksJsonSchema();
    const props = schema.properties as Record<string, { properties: object; additionalProperties: boolean }>;
    const hooks = props.hooks!;
    expect(Object.keys(hooks.properties).sort()).toEqual([
      'agent_end',
      'agent_start',
      'error',
      'llm_request',
      'llm_response',
      'tool_call',
      'tool_call_start',
      'turn_complete',
    ]);
    expect(hooks.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).toContain('"required":["command"]');
  });

  it('the bundled demo workspace validates', () => {
    const r = loadPrxConfig(new URL('../examples/demo/', import.meta.url).pathname);
    expect(r.ok && r.actions.length).toBe(8);
  });
});

describe('JSON syntax error location', () => {
  it.each([
    ['{}', -1],
    ['{"a": [1, 2, {"b": null}], "c": "\\u00e9"}', -1],
    ['{"a": 1,}', 8],
    ['{"a": 1} x', 9],
    // An unterminated string is found where it opens.
    ['{"a": "unterminated', 6],
    ['[01]', 2],
    ['{"a" 1}', 5],
    ['', 0],
  ])('%j → %i', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });
});
