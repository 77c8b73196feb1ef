/**
 * [G-TEST-2] A guard's corpus (`test/corpus/<guard>.json`) run through the guard's `check`
 * directly, on a real temp project, home and temp folder: each case is a Claude-shaped call —
 * `{"command": …, "cwd"?: relative to the project}` for Bash, or `{"tool", "input"}` — with
 * `$PROJECT`, `$HOME` and `$TMP` standing for those folders in tool inputs, and `$PROJECT` and
 * `$TMP` in command lines (`$HOME` there is the shell's, which the action view reads as the home).
 * The end-to-end harness runs the same files through `hookwerk hook` for every agent.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { actionView } from '../src/action/action-view.ts';
import type { GuardCall, GuardContext, GuardDefinition, GuardHit } from '../src/guards/guard-types.ts';

const caseSchema = z.union([
  z.object({ command: z.string(), cwd: z.string().optional() }).strict(),
  z.object({ tool: z.string(), input: z.record(z.string(), z.unknown()) }).strict(),
]);
export type CorpusCase = z.infer<typeof caseSchema>;

const corpusSchema = z
  .object({
    guard: z.string(),
    options: z.record(z.string(), z.unknown()).optional(),
    stop: z.array(caseSchema),
    pass: z.array(caseSchema),
  })
  .strict();
export type Corpus = z.infer<typeof corpusSchema>;

export function loadCorpus(name: string): Corpus {
  const file = path.join(import.meta.dirname, 'corpus', `${name}.json`);
  return corpusSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** A project, a home and a temp folder, side by side under one real temp root. */
export interface World {
  readonly root: string;
  readonly project: string;
  readonly home: string;
  readonly tmp: string;
  readonly ctx: GuardContext;
  remove(): void;
}

export function makeWorld(prefix: string): World {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  const tmp = path.join(root, 'tmp');
  for (const dir of [project, home, tmp]) mkdirSync(dir);
  return {
    root,
    project,
    home,
    tmp,
    ctx: { projectDir: project, home, tmpDir: tmp },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

function substitute(value: unknown, w: World, withHome: boolean): unknown {
  if (typeof value === 'string') {
    let out = value.replaceAll('$PROJECT', w.project).replaceAll('$TMP', w.tmp);
    if (withHome) out = out.replaceAll('$HOME', w.home);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, w, withHome));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, w, withHome)]));
  return value;
}

/** The call a case stands for, with its action view. */
export function callOf(c: CorpusCase, w: World): GuardCall {
  const tool = 'command' in c ? 'Bash' : c.tool;
  const input =
    'command' in c
      ? { command: String(substitute(c.command, w, false)) }
      : Object.fromEntries(Object.entries(c.input).map(([k, v]) => [k, substitute(v, w, true)]));
  const cwd = 'command' in c && c.cwd !== undefined ? path.resolve(w.project, c.cwd) : w.project;
  const view = actionView(
    { tool_name: tool, tool_input: input, cwd },
    { projectDir: w.project, home: w.home },
  );
  return { tool, input, view };
}

export function hitsOf<O>(
  guard: GuardDefinition<O>,
  options: unknown,
  c: CorpusCase,
  w: World,
): readonly GuardHit[] {
  return guard.check(callOf(c, w), guard.options.parse(options ?? {}), w.ctx);
}

export function label(c: CorpusCase): string {
  return 'command' in c ? c.command : `${c.tool} ${JSON.stringify(c.input)}`;
}

/** [G-TEST-2] The corpus of `name` run through `hits`: at least 40 of each, every stop stopped, every pass let through. */
export function corpusSuite(
  name: string,
  corpus: Corpus,
  hits: (c: CorpusCase) => readonly GuardHit[],
): void {
  describe(`[G-TEST-2] ${name}: the corpus`, () => {
    it('has at least 40 calls to stop and 40 to let through', () => {
      expect(corpus.guard).toBe(name);
      expect(corpus.stop.length).toBeGreaterThanOrEqual(40);
      expect(corpus.pass.length).toBeGreaterThanOrEqual(40);
    });

    it.each(corpus.stop.map((c) => [label(c), c] as const))('stops %s', (_, c) => {
      expect(hits(c).length).toBeGreaterThan(0);
    });

    it.each(corpus.pass.map((c) => [label(c), c] as const))('lets through %s', (_, c) => {
      expect(hits(c)).toEqual([]);
    });
  });
}
