/**
 * Property tests (issue 11): the bus's topic trie (src/bus/topic-trie.ts) agrees with a naive
 * matcher written from [P-BUS-2] — exact, `a.b.*` (every topic that begins with `a.b.`, at any
 * depth) and `*` — on generated subscription sets (with removals) and topics; and the bus itself
 * delivers each publish once to exactly the subscribers the naive matcher names.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryBus } from '../src/bus/memory-bus.ts';
import { splitTopic, TopicTrie, type TrieEntry } from '../src/bus/topic-trie.ts';
import { runs, timeout } from './property-runs.ts';

/** [P-BUS-2] by string operations only: `*` all; `p.*` every topic starting with `p.`; else equal. */
function naiveMatch(pattern: string, topic: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return topic.startsWith(pattern.slice(0, -1));
  return pattern === topic;
}

// Few, overlapping tokens so that prefixes are shared often; `prx`/`lifecycle` as in real topics.
const token = fc.constantFrom('a', 'b', 'ab', 'prx', 'lifecycle', 'tool_call', 'x-1');
const topic = fc.array(token, { minLength: 1, maxLength: 4 }).map((ts) => ts.join('.'));
const pattern = fc.oneof(
  { arbitrary: topic, weight: 3 },
  { arbitrary: fc.array(token, { minLength: 1, maxLength: 3 }).map((ts) => `${ts.join('.')}.*`), weight: 3 },
  { arbitrary: fc.constant('*'), weight: 1 },
);

/** A script of subscriptions: add one (id, pattern), or remove the n-th added so far. */
type Step = { add: string } | { remove: number };
const steps = fc.array(
  fc.oneof(
    { arbitrary: pattern.map((p): Step => ({ add: p })), weight: 4 },
    { arbitrary: fc.nat().map((n): Step => ({ remove: n })), weight: 1 },
  ),
  { maxLength: 40 },
);

/** Runs the script on a trie and on a naive list; returns both. */
function build(script: readonly Step[]) {
  const trie = new TopicTrie<number>();
  const entries: Array<{ id: number; pattern: string; entry: TrieEntry<number> }> = [];
  const live = new Map<number, string>();
  script.forEach((step, id) => {
    if ('add' in step) {
      entries.push({ id, pattern: step.add, entry: trie.add(step.add, id) });
      live.set(id, step.add);
    } else if (entries.length > 0) {
      const victim = entries[step.remove % entries.length]!;
      trie.remove(victim.entry); // a second removal of the same entry must change nothing
      live.delete(victim.id);
    }
  });
  return { trie, live };
}

describe('issue 11: bus topic trie properties', () => {
  it(
    '[P-BUS-2] issue 11: the trie matches exactly the subscribers the naive matcher names, each once, after adds and removes',
    () => {
      fc.assert(
        fc.property(steps, fc.array(topic, { minLength: 1, maxLength: 8 }), (script, topics) => {
          const { trie, live } = build(script);
          expect(trie.size).toBe(live.size);
          for (const t of topics) {
            const got: number[] = [];
            trie.match(splitTopic(t), got);
            const want = [...live].filter(([, p]) => naiveMatch(p, t)).map(([id]) => id);
            expect(got.length, `${t}: duplicates in ${got}`).toBe(new Set(got).size);
            expect(
              [...got].sort((x, y) => x - y),
              t,
            ).toEqual(want.sort((x, y) => x - y));
          }
        }),
        { numRuns: runs(1000) },
      );
    },
    timeout(),
  );

  it(
    '[P-BUS-2] issue 11: removing every subscription leaves an empty trie that matches nothing',
    () => {
      fc.assert(
        fc.property(fc.array(pattern, { maxLength: 20 }), topic, (patterns, t) => {
          const trie = new TopicTrie<number>();
          const entries = patterns.map((p, i) => trie.add(p, i));
          for (const e of entries) trie.remove(e);
          const got: number[] = [];
          trie.match(splitTopic(t), got);
          expect(got).toEqual([]);
          expect(trie.size).toBe(0);
        }),
        { numRuns: runs(300) },
      );
    },
    timeout(),
  );

  it(
    '[P-BUS-1] [P-BUS-2] issue 11: each bus publish reaches exactly the subscribers matching then, once each, across subscribes and unsubscribes',
    async () => {
      type BusStep = { subscribe: string } | { unsubscribe: number } | { publish: string };
      const script = fc.array(
        fc.oneof(
          { arbitrary: pattern.map((p): BusStep => ({ subscribe: p })), weight: 3 },
          { arbitrary: fc.nat().map((n): BusStep => ({ unsubscribe: n })), weight: 1 },
          { arbitrary: topic.map((t): BusStep => ({ publish: t })), weight: 3 },
        ),
        { maxLength: 30 },
      );
      await fc.assert(
        fc.asyncProperty(script, async (steps) => {
          const bus = new MemoryBus();
          const subs: Array<{ pattern: string; off: () => void; active: boolean }> = [];
          const got: string[] = [];
          const want: string[] = [];
          let n = 0;
          for (const step of steps) {
            if ('subscribe' in step) {
              const id = subs.length;
              const off = bus.subscribe(step.subscribe, (msg) => void got.push(`${msg.topic}#${id}`));
              subs.push({ pattern: step.subscribe, off, active: true });
            } else if ('unsubscribe' in step) {
              const sub = subs[step.unsubscribe % Math.max(1, subs.length)];
              sub?.off();
              if (sub) sub.active = false;
            } else {
              // Topics repeat often (few tokens): the bus caches the matches of recent topics, and
              // every subscribe / unsubscribe must invalidate that cache.
              const t = step.publish;
              bus.publish(t, { n: n++ });
              subs.forEach((s, id) => {
                if (s.active && naiveMatch(s.pattern, t)) want.push(`${t}#${id}`);
              });
              await bus.flush();
            }
          }
          expect(got.sort()).toEqual(want.sort());
        }),
        { numRuns: runs(300) },
      );
    },
    timeout(),
  );
});
