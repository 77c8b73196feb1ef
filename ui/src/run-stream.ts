import type { Api } from './api.ts';
import type { RunsStore } from './runs-store.ts';
import {
  decisionNoteSchema,
  decisionsAnswerSchema,
  runRecordSchema,
  runsAnswerSchema,
  streamFrameSchema,
} from './schemas.ts';
import { SseParser } from './sse-parser.ts';

export type FeedState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'retrying'; inMs: number; why: string };

/** Run records (`hookwerk.run.<outcome>`) and the decisions answered (`hookwerk.decision`). */
const TOPICS = 'hookwerk.*';
const DECISION_TOPIC = 'hookwerk.decision';
const MAX_BACKOFF_MS = 10_000;

/**
 * Keeps `store` in step with the server: subscribes to the run records and decisions on the event
 * stream, and once subscribed loads the recorded ones (`/api/runs`, `/api/decisions`) so nothing
 * falls between the two; what arrives while the lists load is merged in after them. On a dropped stream (server restart,
 * a slow client cut off) it reconnects with backoff and loads again: what happened meanwhile is
 * in the server's run log. Returns a function that stops it.
 */
export function followRuns(api: Api, store: RunsStore, onState: (s: FeedState) => void): () => void {
  const abort = new AbortController();
  void (async () => {
    let backoff = 500;
    while (!abort.signal.aborted) {
      onState({ state: 'connecting' });
      let why: string;
      try {
        why = await followOnce(api, store, abort.signal, () => {
          backoff = 500;
          onState({ state: 'live' });
        });
      } catch (err) {
        if (abort.signal.aborted) return;
        why = err instanceof Error ? err.message : String(err);
      }
      if (why === 'unauthorized') return;
      onState({ state: 'retrying', inMs: backoff, why });
      await new Promise((r) => setTimeout(r, backoff));
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  })();
  return () => abort.abort();
}

/** One connection; resolves with why it ended. */
async function followOnce(
  api: Api,
  store: RunsStore,
  signal: AbortSignal,
  onLive: () => void,
): Promise<string> {
  const res = await fetch(`/api/events/stream?topic=${encodeURIComponent(TOPICS)}`, {
    headers: { authorization: api.authorization, accept: 'text/event-stream' },
    cache: 'no-store',
    signal,
  });
  if (res.status === 401) {
    api.unauthorized();
    return 'unauthorized';
  }
  if (!res.ok || res.body === null) return `the stream answered ${res.status}`;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  // Frames from the stream wait here until the initial lists are in.
  let pending: Array<{ topic: string; payload: unknown }> | undefined = [];
  const loadInitial = async () => {
    const [runs, decisions] = await Promise.all([
      api.call('GET', '/api/runs?limit=1000', runsAnswerSchema),
      api.call('GET', '/api/decisions', decisionsAnswerSchema),
    ]);
    if (!runs.ok) throw new Error(runs.error);
    if (!decisions.ok) throw new Error(decisions.error);
    store.reset(runs.value.runs, decisions.value.decisions);
    for (const frame of pending ?? []) addFrame(store, frame);
    pending = undefined;
    onLive();
  };
  let loading: Promise<void> | undefined;
  let failure: string | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return failure ?? 'the stream ended';
    for (const item of parser.push(value)) {
      if (item.kind === 'comment') {
        // The server's first frame: from here on nothing is missed, so the list can be loaded.
        if (item.text.startsWith('subscribed') && loading === undefined) {
          loading = loadInitial();
          loading.catch((err: unknown) => {
            failure = err instanceof Error ? err.message : String(err);
            void reader.cancel();
          });
        }
        continue;
      }
      const frame = parseJson(item.data);
      const parsed = streamFrameSchema.safeParse(frame);
      if (!parsed.success) continue;
      if (pending !== undefined) pending.push(parsed.data);
      else addFrame(store, parsed.data);
    }
  }
}

function addFrame(store: RunsStore, frame: { topic: string; payload: unknown }): void {
  if (frame.topic === DECISION_TOPIC) {
    const note = decisionNoteSchema.safeParse(frame.payload);
    if (note.success) store.addDecision(note.data);
    else console.warn('hookwerk: a decision the page does not understand', frame.payload);
    return;
  }
  // Other hookwerk.* topics (NATS dead letters) are not this page's.
  if (!frame.topic.startsWith('hookwerk.run.')) return;
  const record = runRecordSchema.safeParse(frame.payload);
  if (record.success) store.add(record.data);
  else console.warn('hookwerk: a run record the page does not understand', frame.payload);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
