import type { Api } from './api.ts';
import type { RunsStore } from './runs-store.ts';
import { runRecordSchema, runsAnswerSchema, streamFrameSchema } from './schemas.ts';
import { SseParser } from './sse-parser.ts';

export type FeedState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'retrying'; inMs: number; why: string };

const RUN_TOPIC = 'hookwerk.run.*';
const MAX_BACKOFF_MS = 10_000;

/**
 * Keeps `store` in step with the server: subscribes to the run records on the event stream, and
 * once subscribed loads the recorded ones (`/api/runs`) so nothing falls between the two; records
 * that arrive while the list loads are merged in after it. On a dropped stream (server restart,
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
  const res = await fetch(`/api/events/stream?topic=${encodeURIComponent(RUN_TOPIC)}`, {
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
  // Records from the stream wait here until the initial list is in.
  let pending: unknown[] | undefined = [];
  const loadInitial = async () => {
    const answer = await api.call('GET', '/api/runs?limit=1000', runsAnswerSchema);
    if (!answer.ok) throw new Error(answer.error);
    store.reset(answer.value.runs);
    for (const payload of pending ?? []) addRecord(store, payload);
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
      if (!parsed.success || !parsed.data.topic.startsWith('hookwerk.run.')) continue;
      if (pending !== undefined) pending.push(parsed.data.payload);
      else addRecord(store, parsed.data.payload);
    }
  }
}

function addRecord(store: RunsStore, payload: unknown): void {
  const record = runRecordSchema.safeParse(payload);
  if (record.success) store.add(record.data);
  else console.warn('hookwerk: a run record the page does not understand', payload);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
