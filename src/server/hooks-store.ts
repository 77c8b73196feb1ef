import { statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { HookwerkError } from '../core/errors.ts';
import type { ConfigIssue } from '../core/issues.ts';
import { jsonPath } from '../core/issues.ts';
import { readSourceFile } from '../core/read-source.ts';
import { PRX_LIMITS } from '../dialects/prx/schema.ts';
import { type PrxAction, parsePrxConfigText, prxHooksPath } from '../dialects/prx/source.ts';
import type { ReloadResult } from '../engine-api.ts';
import type { PrxEventName } from '../events/prx-events.ts';
import { type Logger, stderrLogger } from '../records/logger.ts';
import type { HookBody } from './bodies.ts';
import { etagOf, type IfMatch, ifMatchAllows } from './etag.ts';
import { derivedHookId } from './hook-ids.ts';

/** [P-API-2] The action part of a HOOK; `cwd` is left out when not set (the workspace). */
interface HookAction {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  timeout_ms: number;
  stdin_json: boolean;
  /** [P-SEC-7] Only when set on the action (the file-level default is not repeated here). */
  sandbox?: 'none' | 'bwrap';
  sandbox_workspace?: 'rw' | 'ro';
}

/** [P-API-2] HOOK. */
export interface Hook {
  id: string;
  event: PrxEventName;
  action: HookAction;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

interface StoreIssue {
  path: string;
  message: string;
  file?: string;
}

/** A hook as a GET of it answers, with the ETag of that answer. */
interface HookRead {
  hook: Hook;
  etag: string;
}

/** `GET /api/hooks`: every hook, with the ETag of that answer. */
interface ListRead {
  hooks: readonly Hook[];
  etag: string;
}

/**
 * A request the store refuses: 400 (the new hook is invalid), 404 (unknown id), 409 (the file
 * on disk is invalid, or the change would break a whole-file limit) or 412 (`If-Match` does not
 * match: someone else changed it since the client read it).
 */
export class StoreError extends HookwerkError {
  readonly status: 400 | 404 | 409 | 412;
  readonly issues: StoreIssue[];
  constructor(status: 400 | 404 | 409 | 412, message: string, issues: StoreIssue[] = []) {
    super('STORE', message);
    this.status = status;
    this.issues = issues;
  }
}

interface HooksStoreOptions {
  /** The PRX workspace holding hooks.json. */
  workspace: string;
  /** Puts the file just written in force (the engine's `reload()`); awaited before a write resolves. */
  reload: () => ReloadResult | undefined;
  /** Clock for created_at/updated_at (tests). */
  now?: () => Date;
  logger?: Logger;
}

type RawAction = Record<string, unknown>;
/** The file as the store edits it: only the shape it walks is checked (the loader checked the rest). */
const rawDocSchema = z.looseObject({
  hooks: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
type RawDoc = z.infer<typeof rawDocSchema>;
/** A type guard rather than `parse`: the store edits the original object, whose key order must be kept. */
function isRawDoc(value: unknown): value is RawDoc {
  return rawDocSchema.safeParse(value).success;
}
const stateSchema = z.looseObject({ hook_id_high_water: z.number().int().nonnegative().optional() });

/** What a mutation sees: the file as JSON (ids and timestamps already assigned) and an id source. */
interface Txn {
  readonly doc: RawDoc;
  readonly now: string;
  newId(): string;
  find(id: string): { event: string; index: number; list: RawAction[]; action: RawAction } | undefined;
}

/** Where the changed action sits, to report its problems as `action.<field>`. */
interface Focus {
  event: string;
  index: number;
}

/**
 * A write's precondition (issue 11): `If-Match` against the hook `id` (PUT, DELETE, toggle) or,
 * without an id, against the list (POST).
 */
interface Precondition {
  ifMatch: IfMatch;
  id?: string;
}

/** hooks.json as read: its text (undefined: no file) and its mtime, the birth date of hand-written hooks. */
interface FileRead {
  text: string | undefined;
  born: string;
}

/** A change to the doc; returns where the changed action sits (undefined: a removal). */
type Mutation = (t: Txn) => Focus | undefined;

const ID_RE = /^hook_(\d+)$/;
/** A hand edit racing our write makes us start over; this many times at most. */
const MAX_ATTEMPTS = 5;
/** `.hookwerk/state.json` holds one number: anything bigger is not ours. */
const STATE_MAX_BYTES = 64 * 1024;
export const STATE_DIR = '.hookwerk';
const STATE_FILE = 'state.json';

/** `hook_01`, `hook_02`, … `hook_99`, `hook_100`: two digits at least. */
function formatHookId(n: number): string {
  return `hook_${String(n).padStart(2, '0')}`;
}

/**
 * The hooks.json writer behind the hooks API [P-API-2, P-API-3].
 *
 * - One change at a time (a promise queue). Each re-reads hooks.json right before changing it,
 *   so a hand edit made between two API writes is kept; and checks again right before the
 *   rename, starting over if the file changed meanwhile.
 * - The whole new file is validated with the loader's own function before it is written: an
 *   invalid file is never written. A file that is invalid on disk (hand-broken, a duplicate key)
 *   is not overwritten either: 409 with its problems.
 * - Written atomically (temp + fsync + rename, file mode kept), then `reload()` puts it in force
 *   before the caller answers. The watcher fires too; the engine ignores unchanged content.
 * - Ids `hook_NN` are never reused: the highest id ever handed out is kept in
 *   `<workspace>/.hookwerk/state.json`, and the next id is above both it and every `hook_NN` in
 *   the file (so neither a deleted hook nor a hand-written id is ever handed out again).
 * - Reads never write (issue 11). Hand-written actions without `id`/`created_at`/`updated_at`
 *   are shown with a derived id (`derivedHookId`) and the file's mtime as timestamps; the first
 *   API write stores exactly those, so an id a client saw keeps working.
 * - ETags (issue 11): the SHA-256 of the answer's JSON (`etagOf`). A write with `If-Match` checks
 *   it against the hook's current ETag (or the list's) in the same queue turn that writes, and
 *   again on every restart: a stale one is a 412 and nothing is written.
 */
export class HooksStore {
  readonly workspace: string;
  readonly file: string;
  readonly stateFile: string;
  readonly #reload: () => ReloadResult | undefined;
  readonly #now: () => Date;
  readonly #logger: Logger;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(opts: HooksStoreOptions) {
    this.workspace = path.resolve(opts.workspace);
    this.file = prxHooksPath(this.workspace);
    this.stateFile = path.join(this.workspace, STATE_DIR, STATE_FILE);
    this.#reload = opts.reload;
    this.#now = opts.now ?? (() => new Date());
    this.#logger = opts.logger ?? stderrLogger;
  }

  /** Every hook in file order (events in file order, then position). Never writes. */
  async list(): Promise<ListRead> {
    return listRead(await this.#queue(() => this.#read()));
  }

  async get(id: string): Promise<HookRead> {
    return hookRead(pick(await this.#queue(() => this.#read()), id));
  }

  /** `ifMatch` is checked against the list's ETag: "add it only if nobody changed the hooks". */
  async create(body: HookBody, ifMatch?: IfMatch): Promise<HookRead> {
    let id = '';
    const hooks = await this.#write((t) => {
      id = t.newId();
      const list = listOf(t.doc, body.event);
      list.push(actionToRaw(id, body, body.enabled ?? true, t.now, t.now));
      return { event: body.event, index: list.length - 1 };
    }, precondition(ifMatch));
    return hookRead(pick(hooks, id));
  }

  /** Replaces event, action and (when given) enabled; keeps id and created_at. A new event moves it to the end of that event's list. */
  async update(id: string, body: HookBody, ifMatch?: IfMatch): Promise<HookRead> {
    const hooks = await this.#write(
      (t) => {
        const at = t.find(id);
        if (at === undefined) throw notFound(id);
        const enabled = body.enabled ?? at.action.enabled !== false;
        const created = typeof at.action.created_at === 'string' ? at.action.created_at : t.now;
        const next = actionToRaw(id, body, enabled, created, t.now);
        if (at.event === body.event) {
          at.list[at.index] = next;
          return { event: at.event, index: at.index };
        }
        at.list.splice(at.index, 1);
        const list = listOf(t.doc, body.event);
        list.push(next);
        return { event: body.event, index: list.length - 1 };
      },
      precondition(ifMatch, id),
    );
    return hookRead(pick(hooks, id));
  }

  async remove(id: string, ifMatch?: IfMatch): Promise<void> {
    await this.#write(
      (t) => {
        const at = t.find(id);
        if (at === undefined) throw notFound(id);
        // The event's (possibly empty) list stays: the file keeps its shape and event order.
        at.list.splice(at.index, 1);
        return undefined;
      },
      precondition(ifMatch, id),
    );
  }

  /** Flips `enabled`; the answer is the hook after the flip (its ETag is what a GET would give). */
  async toggle(id: string, ifMatch?: IfMatch): Promise<HookRead> {
    const hooks = await this.#write(
      (t) => {
        const at = t.find(id);
        if (at === undefined) throw notFound(id);
        at.action.enabled = at.action.enabled === false;
        at.action.updated_at = t.now;
        return { event: at.event, index: at.index };
      },
      precondition(ifMatch, id),
    );
    return hookRead(pick(hooks, id));
  }

  /** Runs `job` after every change queued before it: reads see whole writes, in order. */
  #queue<T>(job: () => T): Promise<T> {
    const run = this.#tail.then(job);
    this.#tail = run.catch(() => {});
    return run;
  }

  /** The hooks as the next write would store them (hand-written ones adopted in memory only). */
  #read(): Hook[] {
    const file = this.#readFile();
    const doc = this.#current(file.text);
    adopt(doc, file.born);
    return this.#validate(doc, undefined).hooks;
  }

  #write(mutate: Mutation, cond: Precondition | undefined): Promise<Hook[]> {
    return this.#queue(() => this.#attempt(mutate, cond));
  }

  #attempt(mutate: Mutation, cond: Precondition | undefined): Hook[] {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const before = this.#readFile();
      const doc = this.#current(before.text);
      const stored = this.#readMark();
      let mark = Math.max(stored, highestId(doc));
      const t: Txn = {
        doc,
        now: this.#now().toISOString(),
        newId: () => formatHookId(++mark),
        find: (id) => find(doc, id),
      };
      adopt(doc, before.born);
      // Checked on this very read, so a change that sneaks in before the rename restarts the
      // loop and is checked again: a stale ETag never writes.
      if (cond !== undefined) this.#check(cond, this.#validate(doc, undefined).hooks);
      const focus = mutate(t);
      const { text, hooks } = this.#validate(doc, focus);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > PRX_LIMITS.maxFileBytes) {
        throw new StoreError(
          409,
          `the change would make hooks.json ${bytes} bytes; the limit is ${PRX_LIMITS.maxFileBytes}`,
        );
      }
      // The mark goes to disk first: a crash between the two writes wastes ids, never reuses one.
      if (mark > stored) this.#writeMark(mark);
      const written = writeFileAtomic(this.file, text, {
        beforeRename: () => readHooksText(this.file) === before.text,
      });
      if (!written) continue;
      const reloaded = this.#reload();
      if (reloaded !== undefined && !reloaded.ok) {
        // Only possible if the file changed again after our rename; the watcher will follow up.
        this.#logger.warn(`hooks.json changed right after an API write; it is not in force yet`);
      }
      return hooks;
    }
    throw new StoreError(409, 'hooks.json kept changing while the API tried to write it; try again');
  }

  /** 404 for an unknown id comes first (RFC 9110 §13.2.1), then the ETag comparison. */
  #check(cond: Precondition, hooks: readonly Hook[]): void {
    const current = [listRead(hooks).etag];
    if (cond.id !== undefined) current.push(hookRead(pick(hooks, cond.id)).etag);
    if (ifMatchAllows(cond.ifMatch, current)) return;
    const what = cond.id !== undefined ? `hook ${JSON.stringify(cond.id)}` : 'the hooks';
    throw new StoreError(
      412,
      `If-Match does not match: ${what} changed since you read it (now ETag ${current.at(-1)}); read it again, then retry`,
    );
  }

  /** The doc as text, validated by the loader; its HOOKs. */
  #validate(doc: RawDoc, focus: Focus | undefined): { text: string; hooks: Hook[] } {
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    const next = parsePrxConfigText(this.workspace, this.file, text);
    if (!next.ok) throw rejected(next.issues, focus);
    return { text, hooks: views(doc, next.actions) };
  }

  #readFile(): FileRead {
    const text = readHooksText(this.file);
    return { text, born: text === undefined ? '' : mtimeOf(this.file, this.#now()) };
  }

  /** The file as JSON, after checking it is valid; a hand-broken file is never overwritten. */
  #current(text: string | undefined): RawDoc {
    if (text === undefined) return { hooks: {} };
    const current = parsePrxConfigText(this.workspace, this.file, text);
    if (!current.ok) throw invalidOnDisk(this.file, current.issues);
    const doc: unknown = JSON.parse(text);
    if (!isRawDoc(doc))
      throw new StoreError(409, `${this.file} does not have the shape {"hooks": {event: [action…]}}`);
    return doc;
  }

  #readMark(): number {
    const read = readSourceFile(this.stateFile, STATE_MAX_BYTES);
    if (read.kind === 'missing') return 0;
    try {
      if (read.kind === 'refused') throw new Error(read.message);
      const state = stateSchema.safeParse(JSON.parse(read.text));
      const n = state.success ? state.data.hook_id_high_water : undefined;
      if (n !== undefined && Number.isSafeInteger(n)) return n;
    } catch {
      // fall through
    }
    this.#logger.warn(
      `${this.stateFile} is unreadable; ids continue after the highest hook_NN in hooks.json`,
    );
    return 0;
  }

  #writeMark(mark: number): void {
    const text = `${JSON.stringify({ hook_id_high_water: mark }, null, 2)}\n`;
    writeFileAtomic(this.stateFile, text, { mode: 0o600, privateDir: true });
  }
}

function precondition(ifMatch: IfMatch | undefined, id?: string): Precondition | undefined {
  if (ifMatch === undefined) return undefined;
  return id === undefined ? { ifMatch } : { ifMatch, id };
}

/** The ETag is over the very text the app answers (`c.json` is `JSON.stringify`). */
function hookRead(hook: Hook): HookRead {
  return { hook, etag: etagOf(JSON.stringify(hook)) };
}

function listRead(hooks: readonly Hook[]): ListRead {
  return { hooks, etag: etagOf(JSON.stringify({ hooks })) };
}

/**
 * When hooks.json last changed, as the timestamps of hand-written hooks: they existed by then.
 * The same value on every read until the file changes, and the one the first write stores.
 */
function mtimeOf(file: string, fallback: Date): string {
  try {
    return statSync(file).mtime.toISOString();
  } catch {
    // Gone since it was read: the next read sees that.
    return fallback.toISOString();
  }
}

/**
 * Gives hand-written actions the id and timestamps a read shows and a write stores: a derived id
 * (stable while the action is unchanged) and the file's mtime. Never `hook_NN`, so the id
 * counter is not spent on reads.
 */
function adopt(doc: RawDoc, born: string): void {
  const taken = new Set<string>();
  for (const list of Object.values(doc.hooks))
    for (const action of list) if (typeof action.id === 'string') taken.add(action.id);
  for (const [event, list] of Object.entries(doc.hooks)) {
    for (let i = 0; i < list.length; i++) {
      let action = list[i]!;
      if (typeof action.id !== 'string') {
        const id = derivedHookId(event, action, taken);
        taken.add(id);
        action = { id, ...action };
        list[i] = action;
      }
      if (typeof action.created_at !== 'string') action.created_at = born;
      if (typeof action.updated_at !== 'string') action.updated_at = action.created_at;
    }
  }
}

/** The event's list, created (at the end of the event map) when the file has none. */
function listOf(doc: RawDoc, event: string): RawAction[] {
  let list = doc.hooks[event];
  if (list === undefined) {
    list = [];
    doc.hooks[event] = list;
  }
  return list;
}

function find(doc: RawDoc, id: string) {
  for (const [event, list] of Object.entries(doc.hooks)) {
    const index = list.findIndex((a) => a.id === id);
    if (index >= 0) return { event, index, list, action: list[index]! };
  }
  return undefined;
}

function highestId(doc: RawDoc): number {
  let max = 0;
  for (const list of Object.values(doc.hooks)) {
    for (const action of list) {
      const m = typeof action.id === 'string' ? ID_RE.exec(action.id) : null;
      if (m === null) continue;
      const n = Number(m[1]);
      if (Number.isSafeInteger(n) && n > max) max = n;
    }
  }
  return max;
}

/** An API-written action: every field explicit, in a fixed order. */
function actionToRaw(
  id: string,
  body: HookBody,
  enabled: boolean,
  created: string,
  updated: string,
): RawAction {
  const a = body.action;
  return {
    id,
    enabled,
    command: a.command,
    args: a.args,
    env: a.env,
    ...(a.cwd !== undefined ? { cwd: a.cwd } : {}),
    timeout_ms: a.timeout_ms,
    stdin_json: a.stdin_json,
    ...(a.sandbox !== undefined ? { sandbox: a.sandbox } : {}),
    ...(a.sandbox_workspace !== undefined ? { sandbox_workspace: a.sandbox_workspace } : {}),
    created_at: created,
    updated_at: updated,
  };
}

/** HOOKs in file order, from the validated (defaults filled in) actions. */
function views(doc: RawDoc, actions: readonly PrxAction[]): Hook[] {
  const byPlace = new Map<string, PrxAction>();
  for (const a of actions) byPlace.set(`${a.event}\0${a.index}`, a);
  const out: Hook[] = [];
  for (const [event, list] of Object.entries(doc.hooks)) {
    for (let i = 0; i < list.length; i++) {
      const a = byPlace.get(`${event}\0${i}`);
      if (a !== undefined) out.push(toHook(a));
    }
  }
  return out;
}

function toHook(a: PrxAction): Hook {
  const c = a.config;
  return {
    id: c.id ?? a.name,
    event: a.event,
    action: {
      command: c.command,
      args: [...c.args],
      env: { ...c.env },
      ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
      timeout_ms: c.timeout_ms,
      stdin_json: c.stdin_json,
      ...(c.sandbox !== undefined ? { sandbox: c.sandbox } : {}),
      ...(c.sandbox_workspace !== undefined ? { sandbox_workspace: c.sandbox_workspace } : {}),
      ...(c.keep_children !== undefined ? { keep_children: c.keep_children } : {}),
    },
    enabled: c.enabled,
    created_at: c.created_at ?? '',
    updated_at: c.updated_at ?? '',
  };
}

function pick(hooks: readonly Hook[], id: string): Hook {
  const hook = hooks.find((h) => h.id === id);
  if (hook === undefined) throw notFound(id);
  return hook;
}

function notFound(id: string): StoreError {
  return new StoreError(404, `no hook with id ${JSON.stringify(id)}`);
}

/**
 * hooks.json's text, or undefined when it does not exist. Read bounded [L-TRUST-4]: a FIFO, a
 * device or a file over the limit is refused unread, as invalid on disk.
 */
function readHooksText(file: string): string | undefined {
  const read = readSourceFile(file, PRX_LIMITS.maxFileBytes);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'text') return read.text;
  throw invalidOnDisk(file, [{ file, path: '$', message: `file ${read.message}` }]);
}

function invalidOnDisk(file: string, issues: readonly ConfigIssue[]): StoreError {
  return new StoreError(
    409,
    `${file} is invalid on disk (the last good hooks stay in force); fix it by hand, then retry`,
    issues.map(fileIssue),
  );
}

function fileIssue(issue: ConfigIssue): StoreIssue {
  return { file: issue.file, path: issue.path, message: issue.message };
}

/**
 * The new file failed validation. Problems inside the changed action are the request's fault
 * (400, reported as `action.<field>`); anything else is a whole-file limit (409).
 */
function rejected(issues: readonly ConfigIssue[], focus: Focus | undefined): StoreError {
  if (focus !== undefined) {
    const prefix = jsonPath(['hooks', focus.event, focus.index]);
    const belongs = (p: string) =>
      p === prefix || (p.startsWith(prefix) && /^[.[]/.test(p.slice(prefix.length)));
    if (issues.every((i) => belongs(i.path))) {
      return new StoreError(
        400,
        'invalid hook',
        issues.map((i) => ({ path: toBodyPath(i.path.slice(prefix.length)), message: i.message })),
      );
    }
  }
  return new StoreError(409, 'the change would make hooks.json invalid', issues.map(fileIssue));
}

/** `.cwd` → `action.cwd`; the fields the API manages stay top-level. */
function toBodyPath(rest: string): string {
  if (rest === '') return 'action';
  const top = /^\.(id|enabled|created_at|updated_at)$/.exec(rest);
  if (top !== null) return top[1]!;
  return `action${rest}`;
}
