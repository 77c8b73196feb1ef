/**
 * [G-TEST-1] A policy test file: `{"policy"?: "path", "cases": [{"name", "agent"?, "event"?,
 * "input", "expect", "reason"?, "by"?}]}`, read bounded (regular files only), as JSONC like the
 * policy it tests, and checked strictly with zod: an unknown key (`"expcet"`) is an error, since a
 * case that silently lost its expectation would pass for the wrong reason. Every problem names
 * the file, the JSON path and the cause.
 */
import path from 'node:path';
import { z } from 'zod';
import { HookwerkError } from '../core/errors.ts';
import { type ConfigIssue, formatIssue, fromZodIssues, jsonPath } from '../core/issues.ts';
import { parseJsoncText } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { VERDICT_NAMES, type VerdictName } from '../dialects/agent/hook-agent.ts';
import { HOOK_AGENT_NAMES, type HookAgentName } from '../dialects/hook-agents.ts';

/** A test file larger than this is not read (some ten thousand cases). */
export const MAX_TEST_FILE_BYTES = 16 * 1024 * 1024;

/** One case: the agent's own input for one event, and what the agent must be answered. */
export interface PolicyCase {
  readonly name: string;
  /** The agent whose input this is and whose reply is read (default: claude; `--agent` overrides). */
  readonly agent?: HookAgentName;
  /** The event, as the agent or as Claude Code names it, when the input names none (default PreToolUse). */
  readonly event?: string;
  readonly input: Record<string, unknown>;
  readonly expect: VerdictName;
  /** A substring of the reason the agent is given. */
  readonly reason?: string;
  /** The id of a run that made the verdict: a hook's name or its source (docs/testing-policies.md). */
  readonly by?: string;
}

export interface PolicyTestFile {
  /** The file, absolute. */
  readonly file: string;
  /** Its `policy`, resolved against the file's folder. */
  readonly policy?: string;
  readonly cases: readonly PolicyCase[];
}

/** A test file that cannot be used: each problem with file, JSON path and cause. */
export class PolicyTestFileError extends HookwerkError {
  readonly issues: readonly ConfigIssue[];
  constructor(issues: readonly ConfigIssue[]) {
    super('POLICY_TEST', issues.map(formatIssue).join('\n'));
    this.issues = issues;
  }
}

/** A field's error: missing, or not what it must be. */
const must = (what: string, rule: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${what} is missing (it must be ${rule})` : `${what} must be ${rule}`;

const text = (what: string) =>
  z.string({ error: must(what, 'a string') }).min(1, `${what} must not be empty`);

const caseSchema = z.strictObject({
  name: text('name'),
  agent: z
    .enum(HOOK_AGENT_NAMES, { error: must('agent', `one of ${HOOK_AGENT_NAMES.join(', ')}`) })
    .optional(),
  event: text('event').optional(),
  input: z.record(z.string(), z.unknown(), {
    error: must('input', "a JSON object: the agent's own hook input"),
  }),
  expect: z.enum(VERDICT_NAMES, { error: must('expect', `one of ${VERDICT_NAMES.join(', ')}`) }),
  reason: z.string({ error: must('reason', 'a string') }).optional(),
  by: text('by').optional(),
});

const fileSchema = z.strictObject(
  {
    $schema: z.string().optional(),
    policy: text('policy').optional(),
    cases: z.array(caseSchema, { error: must('cases', 'a list of cases') }),
  },
  { error: must('a test file', 'a JSON object: {"cases": [...]}') },
);

const unknownKey = (_at: ReadonlyArray<PropertyKey>, key: string) =>
  `unknown key "${key}" (a test file is strict: check its spelling)`;

/** Reads and checks one test file; throws PolicyTestFileError with every problem found. */
export function readTestFile(file: string): PolicyTestFile {
  const read = readSourceFile(file, MAX_TEST_FILE_BYTES);
  if (read.kind === 'missing') throw new PolicyTestFileError([{ file, path: '$', message: 'no such file' }]);
  if (read.kind === 'refused')
    throw new PolicyTestFileError([{ file, path: '$', message: `file ${read.message}` }]);
  const parsed = parseJsoncText(file, read.text);
  if (!parsed.ok) throw new PolicyTestFileError([parsed.issue]);
  const checked = fileSchema.safeParse(parsed.value);
  if (!checked.success) throw new PolicyTestFileError(fromZodIssues(file, checked.error.issues, unknownKey));
  const seen = new Map<string, number>();
  const duplicates: ConfigIssue[] = [];
  checked.data.cases.forEach((c, i) => {
    const first = seen.get(c.name);
    if (first !== undefined)
      duplicates.push({
        file,
        path: jsonPath(['cases', i, 'name']),
        message: `"${c.name}" is the name of cases[${first}] too: a failure must name one case`,
      });
    else seen.set(c.name, i);
  });
  if (duplicates.length > 0) throw new PolicyTestFileError(duplicates);
  const { policy, cases } = checked.data;
  return {
    file,
    ...(policy !== undefined ? { policy: path.resolve(path.dirname(file), policy) } : {}),
    cases: cases.map(
      (c): PolicyCase => ({
        name: c.name,
        input: c.input,
        expect: c.expect,
        ...(c.agent !== undefined ? { agent: c.agent } : {}),
        ...(c.event !== undefined ? { event: c.event } : {}),
        ...(c.reason !== undefined ? { reason: c.reason } : {}),
        ...(c.by !== undefined ? { by: c.by } : {}),
      }),
    ),
  };
}
