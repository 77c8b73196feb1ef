/**
 * Property tests for the Cursor dialect (issue 11, [A-CUR-1, C-SRC-3, C-OUT-1]):
 * - `loadCursorConfig` never throws, whatever `.cursor/hooks.json` (project, user, enterprise)
 *   holds: arbitrary text, arbitrary JSON, and entries with fields of any type; every problem is
 *   a ConfigIssue (file, JSON path, one line), and every loaded hook has a runnable command;
 * - `readCursorAnswer` and `mergeCursorAnswers` never throw on any output and exit code, and keep
 *   their invariants: `decision` is `deny` whenever `blocked`; events that only observe never block.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConsentPolicy } from '../src/consent/project-admission.ts';
import type { ConfigIssue } from '../src/core/issues.ts';
import { mergeCursorAnswers, readCursorAnswer } from '../src/dialects/cursor/answer.ts';
import { CURSOR_EVENT_NAMES, CURSOR_EVENTS } from '../src/dialects/cursor/events.ts';
import { loadCursorConfig } from '../src/dialects/cursor/source.ts';
import { tempDir } from './helpers.ts';
import { runs } from './property-runs.ts';

const FIELD_NAMES = [
  'command',
  'type',
  'matcher',
  'timeout',
  'failClosed',
  'loop_limit',
  'hooks',
  'description',
];

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('', ' ', '\u0000', '*', '(?<=a)b', '[', 'curl|wget|nc ', -1, 0, 0.5, 1e308, null, [], {}),
);

const entry = fc.oneof(
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), anyValue, { maxKeys: 6 }), weight: 4 },
  {
    arbitrary: fc.record(
      {
        command: fc.oneof(fc.constant('echo {}'), fc.string()),
        matcher: fc.oneof(fc.string(), anyValue),
        timeout: fc.oneof(fc.double(), anyValue),
        failClosed: fc.oneof(fc.boolean(), anyValue),
        loop_limit: fc.oneof(fc.integer(), fc.constant(null), anyValue),
        type: fc.constantFrom('command', 'prompt', 'http', 7),
      },
      { requiredKeys: ['command'] },
    ),
    weight: 4,
  },
  { arbitrary: anyValue, weight: 1 },
);

const file = fc.oneof(
  {
    arbitrary: fc.record(
      {
        version: fc.oneof(fc.constant(1), anyValue),
        hooks: fc.oneof(
          fc.dictionary(
            fc.oneof(fc.constantFrom(...CURSOR_EVENT_NAMES, 'PreToolUse', '__proto__', ''), fc.string()),
            fc.oneof(fc.array(entry, { maxLength: 4 }), anyValue),
            { maxKeys: 5 },
          ),
          anyValue,
        ),
      },
      { requiredKeys: [] },
    ),
    weight: 6,
  },
  { arbitrary: anyValue, weight: 1 },
);

const content = fc.oneof(
  { arbitrary: file.map((v) => JSON.stringify(v)), weight: 6 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
  { arbitrary: file.map((v) => JSON.stringify(v).slice(0, 40)), weight: 1 },
);

function expectIssues(issues: readonly ConfigIssue[]): void {
  for (const issue of issues) {
    expect(typeof issue.file).toBe('string');
    expect(issue.path).toMatch(/^\$/);
    expect(issue.message.length).toBeGreaterThan(0);
    expect(issue.message).not.toContain('\n');
  }
}

const MODES: Array<ConsentPolicy | undefined> = [
  undefined,
  { kind: 'store' },
  { kind: 'fixed', check: () => ({ trusted: true, reason: 'test' }) },
];

describe('issue 11: the Cursor loader never throws [A-CUR-1, C-SRC-3]', () => {
  it('[C-SRC-3] any text in any of the three files: issues well formed, loaded hooks runnable', () => {
    const project = tempDir('hw-cur-prop-');
    const home = tempDir('hw-cur-prop-home-');
    const enterprise = path.join(tempDir('hw-cur-prop-etc-'), 'hooks.json');
    const files = [
      path.join(project, '.cursor', 'hooks.json'),
      path.join(home, '.cursor', 'hooks.json'),
      enterprise,
    ];
    fc.assert(
      fc.property(content, fc.nat({ max: 2 }), (text, f) => {
        const target = files[f] ?? enterprise;
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, text);
        try {
          for (const consent of MODES) {
            const config = loadCursorConfig({
              projectDir: project,
              home,
              cursor: { enterpriseFile: enterprise },
              ...(consent !== undefined ? { consent } : {}),
            });
            expectIssues(config.issues);
            expectIssues(config.warnings);
            for (const hook of config.hooks) {
              expect(hook.dialect).toBe('cursor');
              expect(hook.kind === 'process' && hook.command.length > 0).toBe(true);
              expect(hook.timeoutMs).toBeGreaterThanOrEqual(1);
              expect(hook.timeoutMs).toBeLessThanOrEqual(3_600_000);
            }
          }
        } finally {
          rmSync(target, { force: true });
        }
      }),
      { numRuns: runs(150) },
    );
  });
});

describe('issue 11: Cursor answers never throw and keep their invariants [A-CUR-1, C-OUT-1]', () => {
  const stdout = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc
      .dictionary(
        fc.constantFrom(
          'permission',
          'user_message',
          'agent_message',
          'updated_input',
          'continue',
          'additional_context',
          'followup_message',
          'env',
          'pluginPaths',
        ),
        fc.oneof(anyValue, fc.constantFrom('allow', 'deny', 'ask')),
      )
      .map((o) => JSON.stringify(o)),
  );

  it('[C-OUT-1] blocked ⇒ deny; observe-only events never block; any exit, any output', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            out: stdout,
            err: fc.string({ maxLength: 20 }),
            code: fc.constantFrom(0, 0, 0, 1, 2, 127),
            closed: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.constantFrom(...CURSOR_EVENT_NAMES),
        fc.record({
          loop_count: fc.oneof(fc.nat({ max: 8 }), anyValue),
          status: fc.constantFrom('completed', 'error'),
        }),
        (hooks, event, input) => {
          const answers = hooks.map((h) =>
            readCursorAnswer(
              event,
              {
                kind: 'process',
                reason: 'exit',
                exitCode: h.code,
                signal: null,
                stdout: h.out,
                stderr: h.err,
                durationMs: 1,
              },
              h.closed ? 'closed' : 'open',
              { input },
            ),
          );
          const d = mergeCursorAnswers(event, answers);
          if (d.blocked) expect(d.decision).toBe('deny');
          if (d.decision === 'deny') expect(d.blocked).toBe(true);
          const info = CURSOR_EVENTS[event];
          if (!info.gate && !info.followup) expect(d.blocked).toBe(false);
          if (d.decision === 'ask') expect(info.ask).toBe('ask');
          expect(d.continue).toBe(true);
        },
      ),
      { numRuns: runs(400) },
    );
  });
});
