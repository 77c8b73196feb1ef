/**
 * (issue 23) `GET /api/gate`: every gate source of the project by dialect, each hook with its
 * consent state, and the project's trust summary. Each dialect's own loader reads its files with
 * the engine's consent policy, as an engine does at start; nothing here decides consent anew.
 */
import { admitProject, type ConsentPolicy } from '../consent/project-admission.ts';
import { trustHint } from '../consent/run-consent.ts';
import { projectKey } from '../consent/trust-store.ts';
import { homeFolder } from '../core/home.ts';
import { groupReadings } from '../core/readings.ts';
import { shownIssue, tildePath } from '../core/tilde-path.ts';
import type { DialectOptions } from '../dialects/agent/gate-dialect.ts';
import {
  GATE_DIALECT_NAMES,
  type GateConfig,
  type GateDialect,
  loadGateDialect,
} from '../dialects/gate-dialects.ts';
import { readGateProject } from '../dialects/surfaces/gate-project.ts';
import { type HandlerFacts, handlerFactsOf } from '../registry/handler-facts.ts';
import type { GateEntry } from '../registry/hook-definition.ts';
import { ConsentChecks, type HookConsentView, hookConsentState } from './hook-consent-state.ts';

export interface GateSourceView {
  file: string;
  label: string;
  scope: string;
  exists: boolean;
  /** `ok`, `invalid` (skipped whole), `unapproved` (listed, never evaluated), `absent`. */
  state: 'ok' | 'invalid' | 'unapproved' | 'absent';
  hookCount: number;
  /** The file differs from the approved text, which is what runs [L-TRUST-6]. */
  newerVersionPending: boolean;
}

export interface GateHookView extends HookConsentView {
  name: string;
  event: string;
  /** The matcher as written; absent when there is none, or (unapproved) it was not read. */
  matcher?: string;
  /** `file#/json/pointer`: what the hook's run records name as their `source`. */
  source: string;
  file?: string;
  path?: string;
  scope: string;
  /** `process`, `http`…; absent for an unapproved hook (nothing of it was evaluated). */
  kind?: string;
  /** [G-FAIL-5] Its `if`, `failMode` and `timeout`, as `explain` shows them; absent for an unapproved hook. */
  handler?: HandlerFacts;
  enabled: boolean;
  disabledReason?: string;
  /** Only in the newer version of its source, which waits for consent: not loaded, never run. */
  newer?: true;
  /**
   * (issue 31) Every dialect that reads this hook (`.claude/settings.json`: Claude Code, Copilot,
   * Cursor). It is listed once, under the first of them.
   */
  readBy: GateDialect[];
}

export interface GateDialectView {
  dialect: GateDialect;
  label: string;
  /** The dialect `/api/decide` speaks when the body names none. */
  default: boolean;
  sources: GateSourceView[];
  hooks: GateHookView[];
  /** Sources skipped whole, one line each. */
  issues: string[];
}

export interface GateListing {
  project: {
    dir: string;
    home: string;
    /** An approval of this project is in the trust store. */
    approved: boolean;
    approvedAt?: string;
    /** One line: `approved <ISO>`, `not approved`… */
    reason: string;
    /** Project sources whose file differs from the approved text. */
    pending: string[];
    /** Pinned files other than sources that changed: project hooks do not run as approved. */
    changed: string[];
    /** The trust store could not be used. */
    problem?: string;
    /** What reviews and approves the project. */
    review: string;
  };
  defaultDialect: GateDialect;
  /** Every dialect of the gate table, whether its sources exist or not. */
  known: GateDialect[];
  /**
   * The dialects whose sources exist in the project or home (or wait as a newer version), and
   * always Lurus and the default.
   */
  dialects: GateDialectView[];
}

export interface GateListingOptions {
  projectDir: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  consent: ConsentPolicy;
  options: DialectOptions;
  defaultDialect: GateDialect;
}

export async function gateListing(opts: GateListingOptions): Promise<GateListing> {
  const projectDir = projectKey(opts.projectDir);
  const home = homeFolder(opts.home);
  const project = readGateProject(projectDir, home);
  const summary = admitProject(opts.consent, home, project.surface, project.reads).consent;
  const checks = new ConsentChecks();
  const base = { projectDir, home, ...(opts.env !== undefined ? { env: opts.env } : {}) };
  const dialects: GateDialectView[] = [];
  const pending = new Set<string>();
  for (const dialect of GATE_DIALECT_NAMES) {
    const plugin = await loadGateDialect(dialect);
    const config = plugin.load({ ...base, consent: opts.consent }, opts.options);
    for (const file of config.consent.pending) pending.add(file);
    const listed = dialect === 'lurus' || dialect === opts.defaultDialect;
    // A file created after an approval that found none has "absent" as its approved version: it
    // is not loaded (exists false), yet it is there and waits for consent.
    if (!listed && !config.sources.some((s) => s.exists || s.newerVersionPending === true)) continue;
    const sources = config.sources.map(sourceView);
    const hooks = config.entries.map((entry) => hookView(entry, config, summary.reason, checks, home));
    // Hooks only a newer version has: read from the current text, as `validate` does, never run.
    if (sources.some((s) => s.newerVersionPending))
      hooks.push(...newerHooks(plugin.load(base, opts.options), config, hooks));
    dialects.push({
      dialect,
      label: plugin.label,
      default: dialect === opts.defaultDialect,
      sources,
      hooks,
      issues: config.issues.map((issue) => shownIssue(issue, home)),
    });
  }
  listOnce(dialects);
  const approval = summary.consent;
  const changed = approval === undefined ? [] : checks.of(approval).changed;
  return {
    project: {
      dir: projectDir,
      home,
      approved: approval !== undefined,
      ...(approval !== undefined ? { approvedAt: approval.approvedAt } : {}),
      reason: summary.reason,
      pending: [...pending].sort(),
      changed,
      ...(summary.problem !== undefined ? { problem: summary.problem } : {}),
      review: `hookwerk trust --project ${projectDir}`,
    },
    defaultDialect: opts.defaultDialect,
    known: [...GATE_DIALECT_NAMES],
    dialects,
  };
}

/** (issue 31) Each hook under the first dialect that reads it, naming every reader. */
function listOnce(dialects: GateDialectView[]): void {
  const readings = groupReadings(
    dialects.flatMap((d) => d.hooks.map((item) => ({ dialect: d.dialect, item }))),
    (h) => h.source,
  );
  const first = new Set<GateHookView>();
  for (const { item, dialects: readers } of readings) {
    item.readBy = readers;
    first.add(item);
  }
  for (const d of dialects) d.hooks = d.hooks.filter((h) => first.has(h));
}

function sourceView(s: GateConfig['sources'][number]): GateSourceView {
  return {
    file: s.file,
    label: s.label,
    scope: s.scope,
    exists: s.exists,
    state: s.state,
    hookCount: s.hookCount,
    newerVersionPending: s.newerVersionPending === true,
  };
}

function hookView(
  entry: GateEntry,
  config: GateConfig,
  reason: string,
  checks: ConsentChecks,
  home: string,
): GateHookView {
  const source = config.sources.find((s) => s.file === entry.origin.file);
  const view: GateHookView = {
    name: entry.name,
    event: entry.event,
    source: entry.origin.source,
    ...(entry.origin.file !== undefined ? { file: entry.origin.file } : {}),
    ...(entry.origin.path !== undefined ? { path: entry.origin.path } : {}),
    scope: entry.origin.scope,
    enabled: entry.kind === 'unapproved' ? false : entry.enabled,
    readBy: [],
    ...hookConsentState(entry, source, reason, checks, home),
  };
  if (entry.kind === 'unapproved') return view;
  view.kind = entry.kind;
  const handler = handlerFactsOf(entry);
  if (handler !== undefined) view.handler = handler;
  if (entry.matcher.source !== undefined) view.matcher = entry.matcher.source;
  if (entry.disabledReason !== undefined) view.disabledReason = entry.disabledReason;
  return view;
}

/**
 * The hooks of a source's current text that its approved version lacks (same file, event and
 * name): they wait for consent. Hooks the new text drops still run (the approved version).
 */
function newerHooks(
  current: GateConfig,
  approved: GateConfig,
  listed: readonly GateHookView[],
): GateHookView[] {
  const pendingFiles = new Set(approved.sources.filter((s) => s.newerVersionPending).map((s) => s.file));
  const key = (file: string | undefined, event: string, name: string) => `${file}\u0000${event}\u0000${name}`;
  const known = new Set(listed.map((h) => key(h.file, h.event, h.name)));
  const out: GateHookView[] = [];
  for (const entry of current.entries) {
    const file = entry.origin.file;
    if (file === undefined || !pendingFiles.has(file) || known.has(key(file, entry.event, entry.name)))
      continue;
    const view: GateHookView = {
      name: entry.name,
      event: entry.event,
      source: entry.origin.source,
      file,
      ...(entry.origin.path !== undefined ? { path: entry.origin.path } : {}),
      scope: entry.origin.scope,
      enabled: false,
      consent: 'pending',
      consentDetail: `only in the newer version of ${tildePath(file, approved.home)}, which waits for consent: ${trustHint(tildePath(approved.projectDir, approved.home))}`,
      newer: true,
      readBy: [],
    };
    if (entry.kind !== 'unapproved') {
      view.kind = entry.kind;
      const handler = handlerFactsOf(entry);
      if (handler !== undefined) view.handler = handler;
      if (entry.matcher.source !== undefined) view.matcher = entry.matcher.source;
    }
    out.push(view);
  }
  return out;
}
