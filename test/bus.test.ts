import { describe, expect, it } from 'vitest';
import { currentDepth, MAX_DEPTH, runAtDepth } from '../src/bus/depth.ts';
import { type BusDropReason, type BusMessage, MemoryBus } from '../src/bus/memory-bus.ts';
import { isValidTopic, parsePattern, splitTopic, TopicTrie, topicMatches } from '../src/bus/topic-trie.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Independent reference for [P-BUS-2]: string operations only, no trie. */
function referenceMatch(pattern: string, topic: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -1); // keeps the trailing dot
    return topic.startsWith(prefix) && topic.length > prefix.length;
  }
  return pattern === topic;
}

const PATTERNS = [
  '*',
  'prx.*',
  'prx.lifecycle.*',
  'prx.lifecycle.tool_call',
  'prx.lifecycle',
  'prx.lifecycle.x.*',
  'hookwerk.run.*',
] as const;

/** topic → the patterns that must match it. */
const TABLE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['prx.lifecycle.tool_call', ['*', 'prx.*', 'prx.lifecycle.*', 'prx.lifecycle.tool_call']],
  ['prx.lifecycle.x.y', ['*', 'prx.*', 'prx.lifecycle.*', 'prx.lifecycle.x.*']],
  ['prx.lifecycle.x.y.z', ['*', 'prx.*', 'prx.lifecycle.*', 'prx.lifecycle.x.*']],
  ['prx.lifecycle.x', ['*', 'prx.*', 'prx.lifecycle.*']],
  ['prx.lifecycle.tool_call.extra', ['*', 'prx.*', 'prx.lifecycle.*']],
  // `a.b.*` needs at least one token after `a.b`: `prx.lifecycle.*` does not get `prx.lifecycle`.
  ['prx.lifecycle', ['*', 'prx.*', 'prx.lifecycle']],
  ['prx.other', ['*', 'prx.*']],
  ['prx.x', ['*', 'prx.*']],
  ['prx', ['*']],
  ['prxx.lifecycle.tool_call', ['*']],
  ['lifecycle.tool_call', ['*']],
  ['prx.lifecyclex.tool_call', ['*', 'prx.*']],
  ['hookwerk.run.ok', ['*', 'hookwerk.run.*']],
  ['hookwerk.run', ['*']],
];

/** A payload whose JSON is exactly `bytes` bytes of UTF-8, built from 1-, 2-, 3- and 4-byte characters. */
function payloadOfBytes(bytes: number): string {
  const unit = 'a' + 'é' + '€' + '😀'; // 1 + 2 + 3 + 4 = 10 bytes
  const content = bytes - 2; // the JSON string's quotes
  const s = unit.repeat(Math.floor(content / 10)) + 'a'.repeat(content % 10);
  expect(Buffer.byteLength(JSON.stringify(s), 'utf8')).toBe(bytes);
  return s;
}

describe('topic patterns and trie', () => {
  it('[P-BUS-2] table: every kind of pattern against a table of topics', () => {
    const trie = new TopicTrie<string>();
    for (const p of PATTERNS) trie.add(p, p);
    for (const [topic, expected] of TABLE) {
      const out: string[] = [];
      trie.match(splitTopic(topic), out);
      expect([...out].sort(), topic).toEqual([...expected].sort());
      for (const p of PATTERNS) {
        expect(topicMatches(p, topic), `${p} vs ${topic}`).toBe(expected.includes(p));
        expect(referenceMatch(p, topic), `reference ${p} vs ${topic}`).toBe(expected.includes(p));
      }
    }
  });

  it('[P-BUS-2] the trie lists each subscriber once and orders broad to specific', () => {
    const trie = new TopicTrie<string>();
    trie.add('prx.lifecycle.tool_call', 'exact');
    trie.add('prx.lifecycle.*', 'lifecycle');
    trie.add('*', 'all');
    trie.add('prx.*', 'prx');
    const out: string[] = [];
    trie.match(splitTopic('prx.lifecycle.tool_call'), out);
    expect(out).toEqual(['all', 'prx', 'lifecycle', 'exact']);
  });

  it('[P-BUS-2] invalid patterns throw TypeError', () => {
    const bad = [
      '',
      'a.*.b',
      'a*',
      '*a',
      '*.a',
      '**',
      'a.**',
      'a.b*',
      'a..b',
      '.a',
      'a.',
      '.',
      '.*',
      'a.*.*',
      'a..*',
    ];
    const bus = new MemoryBus();
    for (const p of bad) {
      expect(() => parsePattern(p), p).toThrow(TypeError);
      expect(() => bus.subscribe(p, () => {}), p).toThrow(TypeError);
    }
    expect(() => bus.subscribe(42 as unknown as string, () => {})).toThrow(TypeError);
    expect(bus.subscriptionCount()).toBe(0);
    for (const p of PATTERNS) expect(() => parsePattern(p)).not.toThrow();
  });

  it('[P-BUS-2] invalid topics throw TypeError from publish', () => {
    const bus = new MemoryBus();
    bus.subscribe('*', () => {});
    for (const t of ['', 'a..b', '.a', 'a.', '*', 'a.*', 'a*b', 'prx.lifecycle.*']) {
      expect(isValidTopic(t), t).toBe(false);
      expect(() => bus.publish(t, {}), t).toThrow(TypeError);
    }
    expect(() => bus.publish(undefined as unknown as string, {})).toThrow(TypeError);
    expect(bus.stats().published).toBe(0);
  });

  it('[P-BUS-2] many distinct topics stay valid (bounded token cache)', () => {
    for (let i = 0; i < 5000; i++) expect(splitTopic(`t.n${i}.x`)).toEqual(['t', `n${i}`, 'x']);
    expect(splitTopic('t.n0.x')).toEqual(['t', 'n0', 'x']);
  });
});

describe('MemoryBus delivery', () => {
  it('[P-BUS-2] table: bus delivers each topic to exactly the matching subscriptions', async () => {
    const bus = new MemoryBus();
    const got = new Map<string, string[]>();
    for (const p of PATTERNS) {
      got.set(p, []);
      bus.subscribe(p, (m) => {
        got.get(p)!.push(m.topic);
      });
    }
    for (const [topic] of TABLE) bus.publish(topic, { topic });
    await bus.flush();
    for (const p of PATTERNS) {
      expect(got.get(p), p).toEqual(TABLE.filter(([, exp]) => exp.includes(p)).map(([t]) => t));
    }
  });

  it('[P-BUS-2] message shape: topic, payload, depth (frozen, with its JSON)', async () => {
    const bus = new MemoryBus();
    const msgs: BusMessage[] = [];
    bus.subscribe('prx.lifecycle.tool_call', (m) => {
      msgs.push(m);
    });
    const payload = { tool: 'shell', success: true, output: 'ok' };
    bus.publish('prx.lifecycle.tool_call', payload);
    await bus.flush();
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ topic: 'prx.lifecycle.tool_call', payload, depth: 1 });
    expect(msgs[0]!.json).toBe(JSON.stringify(payload));
    expect(Object.isFrozen(msgs[0])).toBe(true);
  });

  it('[P-BUS-3] delivery is asynchronous: no handler runs inside publish', async () => {
    const bus = new MemoryBus();
    const calls: string[] = [];
    bus.subscribe('*', (m) => {
      calls.push(m.topic);
    });
    bus.publish('a', 1);
    bus.publish('b', 2);
    expect(calls).toEqual([]);
    calls.push('publisher done');
    await bus.flush();
    expect(calls).toEqual(['publisher done', 'a', 'b']);
  });

  it('[P-BUS-2] at most once per subscription per publish, even with overlapping patterns', async () => {
    const bus = new MemoryBus();
    let all = 0;
    let exact = 0;
    bus.subscribe('*', () => {
      all++;
    });
    bus.subscribe('prx.lifecycle.tool_call', () => {
      exact++;
    });
    // The same function under two patterns is two subscriptions: one delivery each.
    let shared = 0;
    const handler = () => {
      shared++;
    };
    bus.subscribe('prx.*', handler);
    bus.subscribe('prx.lifecycle.*', handler);
    bus.publish('prx.lifecycle.tool_call', {});
    await bus.flush();
    expect([all, exact, shared]).toEqual([1, 1, 2]);
    expect(bus.stats()).toMatchObject({ published: 1, delivered: 4 });
  });

  it('[P-BUS-2] unsubscribe is returned, works and is idempotent', async () => {
    const bus = new MemoryBus();
    let n = 0;
    const off = bus.subscribe('a.*', () => {
      n++;
    });
    expect(bus.subscriptionCount()).toBe(1);
    bus.publish('a.b', 1);
    await bus.flush();
    off();
    off();
    expect(bus.subscriptionCount()).toBe(0);
    bus.publish('a.b', 2);
    await bus.flush();
    expect(n).toBe(1);
    // Resubscribing the same pattern after the trie was pruned works.
    bus.subscribe('a.*', () => {
      n++;
    });
    bus.publish('a.b.c', 3);
    await bus.flush();
    expect(n).toBe(2);
  });

  it('[P-BUS-2] an unsubscribed handler gets none of the messages already queued', async () => {
    const bus = new MemoryBus();
    let n = 0;
    const off = bus.subscribe('t', () => {
      n++;
    });
    bus.publish('t', 1);
    bus.publish('t', 2);
    off();
    await bus.flush();
    expect(n).toBe(0);
  });

  it('[P-BUS-2] unsubscribe during dispatch: self and others, no further messages', async () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    const offSelf = bus.subscribe('t', (m) => {
      seen.push(`self:${m.payload}`);
      offSelf();
    });
    let offB: () => void = () => {};
    bus.subscribe('t', (m) => {
      seen.push(`a:${m.payload}`);
      offB();
    });
    offB = bus.subscribe('t', (m) => {
      seen.push(`b:${m.payload}`);
    });
    bus.publish('t', 1);
    bus.publish('t', 2);
    bus.publish('t', 3);
    await bus.flush();
    expect(seen).toEqual(['self:1', 'a:1', 'a:2', 'a:3']);
    expect(bus.subscriptionCount()).toBe(1);
  });

  it('[P-BUS-2] subscribe during dispatch: the new subscription gets only later messages', async () => {
    const bus = new MemoryBus();
    const late: unknown[] = [];
    let added = false;
    bus.subscribe('t', () => {
      if (added) return;
      added = true;
      bus.subscribe('t', (m) => {
        late.push(m.payload);
      });
      bus.publish('t', 'after');
    });
    bus.publish('t', 'first');
    bus.publish('t', 'queued-before');
    await bus.flush();
    expect(late).toEqual(['after']);
  });

  it('[P-BUS-2] a subscription does not receive messages published before it subscribed', async () => {
    const bus = new MemoryBus();
    bus.subscribe('other', () => {});
    bus.publish('t', 'before');
    const got: unknown[] = [];
    bus.subscribe('t', (m) => {
      got.push(m.payload);
    });
    bus.publish('t', 'after');
    await bus.flush();
    expect(got).toEqual(['after']);
  });

  it('[P-BUS-1] publishing with no subscriber is counted and never serializes the payload', async () => {
    const bus = new MemoryBus();
    let serialized = 0;
    const payload = {
      toJSON() {
        serialized++;
        return {};
      },
    };
    bus.publish('prx.lifecycle.tool_call', payload);
    bus.subscribe('hookwerk.run.*', () => {});
    bus.publish('prx.lifecycle.tool_call', payload);
    await bus.flush();
    expect(serialized).toBe(0);
    expect(bus.stats()).toMatchObject({ published: 2, delivered: 0, droppedOversize: 0, droppedInvalid: 0 });
  });

  it('[P-BUS-3] 64 KiB boundary: 65 536 bytes of UTF-8 JSON delivered, 65 537 dropped and counted', async () => {
    const drops: Array<[BusDropReason, string]> = [];
    const bus = new MemoryBus({ onDrop: (reason, topic) => drops.push([reason, topic]) });
    const got: string[] = [];
    bus.subscribe('big.*', (m) => {
      got.push(m.topic);
    });
    const exact = payloadOfBytes(65_536);
    const over = payloadOfBytes(65_537);
    expect(exact.length).toBeLessThan(65_536); // multi-byte: fewer UTF-16 units than bytes
    bus.publish('big.exact', exact);
    bus.publish('big.over', over);
    bus.publish('big.ascii', 'x'.repeat(65_534));
    bus.publish('big.ascii_over', 'x'.repeat(65_535));
    await bus.flush();
    expect(got).toEqual(['big.exact', 'big.ascii']);
    expect(bus.stats()).toMatchObject({ published: 4, delivered: 2, droppedOversize: 2 });
    expect(drops).toEqual([
      ['oversize', 'big.over'],
      ['oversize', 'big.ascii_over'],
    ]);
  });

  it('[P-BUS-3] the publisher-supplied json is what is measured and delivered', async () => {
    const bus = new MemoryBus({ maxPayloadBytes: 10 });
    const got: BusMessage[] = [];
    bus.subscribe('t', (m) => {
      got.push(m);
    });
    bus.publish('t', { a: 1 }, { json: '{"a":1}' });
    bus.publish('t', { a: 1 }, { json: '€€€€' }); // 12 bytes
    await bus.flush();
    expect(got.map((m) => m.json)).toEqual(['{"a":1}']);
    expect(bus.stats().droppedOversize).toBe(1);
  });

  it('[P-BUS-3] lazyJson is called once, only for a matched message, and a failing one is invalid', async () => {
    const bus = new MemoryBus({ maxPayloadBytes: 20 });
    const got: Array<string | undefined> = [];
    bus.subscribe('t.*', (m) => {
      got.push(m.json);
    });
    bus.subscribe('t.*', () => {});
    let calls = 0;
    const lazy = () => {
      calls++;
      return '{"lazy":true}';
    };
    bus.publish('u', {}, { lazyJson: lazy }); // no match: never called
    bus.publish('t.a', {}, { lazyJson: lazy });
    bus.publish('t.b', {}, { lazyJson: () => 'x'.repeat(21) });
    bus.publish(
      't.c',
      {},
      {
        lazyJson: () => {
          throw new Error('no json');
        },
      },
    );
    bus.publish('t.d', {}, { json: '"given"', lazyJson: lazy }); // json wins
    await bus.flush();
    expect(calls).toBe(1);
    expect(got).toEqual(['{"lazy":true}', '"given"']);
    expect(bus.stats()).toMatchObject({ published: 5, delivered: 4, droppedOversize: 1, droppedInvalid: 1 });
  });

  it('[P-BUS-1] publishLazy builds the payload only for a matched message, once, and a failing one is invalid', async () => {
    const drops: BusDropReason[] = [];
    const bus = new MemoryBus({ maxPayloadBytes: 40, onDrop: (reason) => drops.push(reason) });
    const got: BusMessage[] = [];
    bus.subscribe('t.*', (m) => {
      got.push(m);
    });
    bus.subscribe('t.*', () => {});
    const reads = { value: 0, json: 0 };
    const lazy = (payload: object, json: string) => ({
      get value() {
        reads.value++;
        return payload;
      },
      get json() {
        reads.json++;
        return json;
      },
    });
    const envelope = { event: 'tool_call' };
    bus.publishLazy('u', lazy(envelope, '{}')); // no match: never built
    bus.publishLazy('t.a', lazy(envelope, JSON.stringify(envelope)), 3);
    bus.publishLazy('t.b', lazy({}, 'x'.repeat(41)));
    bus.publishLazy('t.c', {
      get value() {
        return {};
      },
      get json(): string {
        throw new Error('no json');
      },
    });
    await bus.flush();
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ topic: 't.a', depth: 3, json: '{"event":"tool_call"}' });
    expect(got[0]!.payload).toBe(envelope);
    // Two matched messages read once each (t.a delivered, t.b measured and dropped); u never.
    expect(reads).toEqual({ value: 2, json: 2 });
    expect(drops).toEqual(['oversize', 'invalid']);
    expect(bus.stats()).toMatchObject({ published: 4, delivered: 2, droppedOversize: 1, droppedInvalid: 1 });
  });

  it('[P-BUS-3] unserializable payloads are dropped as invalid and counted', async () => {
    const drops: BusDropReason[] = [];
    const bus = new MemoryBus({ onDrop: (reason) => drops.push(reason) });
    let n = 0;
    bus.subscribe('*', () => {
      n++;
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    bus.publish('a', cyclic);
    bus.publish('b', { n: 1n });
    bus.publish('c', undefined); // a bare ping: delivered with json "null"
    await bus.flush();
    expect(n).toBe(1);
    expect(drops).toEqual(['invalid', 'invalid']);
    expect(bus.stats()).toMatchObject({ published: 3, delivered: 1, droppedInvalid: 2, droppedOversize: 0 });
  });
});

describe('MemoryBus depth', () => {
  it('[P-BUS-3] currentDepth is 0 outside handlers; runAtDepth sets it', () => {
    expect(MAX_DEPTH).toBe(8);
    expect(currentDepth()).toBe(0);
    expect(runAtDepth(3, () => currentDepth())).toBe(3);
    expect(runAtDepth(2, (a: number, b: number) => a + b + currentDepth(), 1, 1)).toBe(4);
    expect(currentDepth()).toBe(0);
  });

  it('[P-BUS-3] top-level publish has depth 1, a publish from a handler depth 2', async () => {
    const bus = new MemoryBus();
    const depths: Array<[string, number, number]> = [];
    bus.subscribe('first', (m) => {
      depths.push([m.topic, m.depth, currentDepth()]);
      bus.publish('second', null);
    });
    bus.subscribe('second', (m) => {
      depths.push([m.topic, m.depth, currentDepth()]);
    });
    bus.publish('first', null);
    await bus.flush();
    expect(depths).toEqual([
      ['first', 1, 1],
      ['second', 2, 2],
    ]);
    expect(currentDepth()).toBe(0);
  });

  it('[P-BUS-3] a republishing chain stops at depth 8; the 9th is dropped and counted', async () => {
    const drops: Array<[BusDropReason, string]> = [];
    const bus = new MemoryBus({ onDrop: (reason, topic) => drops.push([reason, topic]) });
    const depths: number[] = [];
    bus.subscribe('chain', (m) => {
      depths.push(m.depth);
      expect(() => bus.publish('chain', m.depth + 1)).not.toThrow();
    });
    bus.publish('chain', 1);
    await bus.flush();
    expect(depths).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(bus.stats()).toEqual({
      published: 8,
      delivered: 8,
      droppedOversize: 0,
      droppedDepth: 1,
      droppedInvalid: 0,
      droppedQueueFull: 0,
      handlerErrors: 0,
    });
    expect(drops).toEqual([['depth', 'chain']]);
  });

  it('[P-BUS-3] depth is carried across awaits inside async handlers', async () => {
    const bus = new MemoryBus();
    const seen: Array<[number, number]> = [];
    bus.subscribe('chain', async (m) => {
      await sleep(1);
      await Promise.resolve();
      seen.push([m.depth, currentDepth()]);
      bus.publish('chain', null);
    });
    bus.publish('chain', null);
    await bus.flush();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((d) => [d, d]));
    expect(bus.stats()).toMatchObject({ published: 8, delivered: 8, droppedDepth: 1 });
  });

  it('[P-BUS-3] one batch of mixed depths: every handler sees its own message depth, also after awaits', async () => {
    const errors: unknown[] = [];
    const bus = new MemoryBus({ onHandlerError: (err) => errors.push(err) });
    const seen: Array<[string, number, number]> = [];
    const later: Array<Promise<void>> = [];
    bus.subscribe('in.*', (m) => {
      seen.push([`sync ${m.topic}`, m.depth, currentDepth()]);
      bus.publish(`out.${m.topic.slice(3)}`, null);
    });
    // A handler that nests its own depth context, and one that throws, change nothing for the next.
    bus.subscribe('in.*', (m) => {
      runAtDepth(7, () => seen.push([`nested ${m.topic}`, m.depth, currentDepth()]));
    });
    bus.subscribe('in.*', () => {
      throw new Error('boom');
    });
    bus.subscribe('in.*', async (m) => {
      const done = (async () => {
        await sleep(1);
        seen.push([`async ${m.topic}`, m.depth, currentDepth()]);
      })();
      later.push(done);
      await done;
    });
    bus.subscribe('out.*', (m) => {
      seen.push([m.topic, m.depth, currentDepth()]);
    });
    // Published in one tick: one drain batch with runs of depth 1, 3, 3 and 2.
    bus.publish('in.a', null, { depth: 1 });
    bus.publish('in.b', null, { depth: 3 });
    bus.publish('in.c', null, { depth: 3 });
    bus.publish('in.d', null, { depth: 2 });
    await bus.flush();
    await Promise.all(later);
    const depthOf = { a: 1, b: 3, c: 3, d: 2 };
    for (const [name, d] of Object.entries(depthOf)) {
      expect(seen).toContainEqual([`sync in.${name}`, d, d]);
      expect(seen).toContainEqual([`nested in.${name}`, d, 7]);
      expect(seen).toContainEqual([`async in.${name}`, d, d]);
      expect(seen).toContainEqual([`out.${name}`, d + 1, d + 1]);
    }
    expect(seen).toHaveLength(16);
    expect(errors).toHaveLength(4);
    expect(currentDepth()).toBe(0);
  });

  it('[P-BUS-4] an explicit depth overrides the ambient one', async () => {
    const bus = new MemoryBus();
    const depths: number[] = [];
    bus.subscribe('t', (m) => {
      depths.push(m.depth);
    });
    bus.publish('t', null, { depth: 8 });
    bus.publish('t', null, { depth: 9 });
    runAtDepth(5, () => bus.publish('t', null));
    await bus.flush();
    expect(depths).toEqual([8, 6]);
    expect(bus.stats().droppedDepth).toBe(1);
  });
});

describe('MemoryBus isolation and limits', () => {
  it('[P-BUS-3] throwing and rejecting handlers are isolated and counted', async () => {
    const errors: Array<[unknown, string]> = [];
    const bus = new MemoryBus({ onHandlerError: (err, topic) => errors.push([err, topic]) });
    const ok: unknown[] = [];
    const boom = new Error('boom');
    const nope = new Error('nope');
    bus.subscribe('t.*', () => {
      throw boom;
    });
    bus.subscribe('t.*', async () => {
      await sleep(1);
      throw nope;
    });
    bus.subscribe('t.*', (m) => {
      ok.push(m.payload);
    });
    expect(() => bus.publish('t.x', 1)).not.toThrow();
    bus.publish('t.y', 2);
    await bus.flush();
    expect(ok).toEqual([1, 2]);
    expect(bus.stats()).toMatchObject({ published: 2, delivered: 6, handlerErrors: 4 });
    expect(errors.filter(([e]) => e === boom).map(([, t]) => t)).toEqual(['t.x', 't.y']);
    expect(errors.filter(([e]) => e === nope).map(([, t]) => t)).toEqual(['t.x', 't.y']);
  });

  it('[P-BUS-3] failing reporters never reach the publisher', async () => {
    const bus = new MemoryBus({
      maxDepth: 1,
      onDrop: () => {
        throw new Error('drop reporter');
      },
      onHandlerError: () => {
        throw new Error('error reporter');
      },
    });
    let after = 0;
    bus.subscribe('t', () => {
      throw new Error('handler');
    });
    bus.subscribe('t', () => {
      after++;
    });
    bus.publish('t', null);
    expect(() => bus.publish('t', null, { depth: 2 })).not.toThrow();
    await bus.flush();
    expect(after).toBe(1);
    expect(bus.stats()).toMatchObject({ handlerErrors: 1, droppedDepth: 1 });
  });

  it('[P-BUS-3] the pending queue is capped; overflow is dropped and counted', async () => {
    const drops: BusDropReason[] = [];
    const bus = new MemoryBus({ maxPending: 5, onDrop: (reason) => drops.push(reason) });
    const got: unknown[] = [];
    bus.subscribe('q', (m) => {
      got.push(m.payload);
    });
    for (let i = 0; i < 8; i++) bus.publish('q', i);
    await bus.flush();
    expect(got).toEqual([0, 1, 2, 3, 4]);
    expect(drops).toEqual(['queue_full', 'queue_full', 'queue_full']);
    expect(bus.stats()).toMatchObject({ published: 5, delivered: 5, droppedQueueFull: 3 });
    // Once drained, the queue accepts again.
    bus.publish('q', 'again');
    await bus.flush();
    expect(got).toHaveLength(6);
  });

  it('[P-BUS-3] the default cap is 10 000 pending messages', async () => {
    const bus = new MemoryBus();
    let n = 0;
    bus.subscribe('q', () => {
      n++;
    });
    for (let i = 0; i < 10_050; i++) bus.publish('q', i);
    await bus.flush();
    expect(n).toBe(10_000);
    expect(bus.stats().droppedQueueFull).toBe(50);
  });

  it('[P-BUS-2] 1000 mixed subscriptions deliver correctly', async () => {
    const bus = new MemoryBus();
    const kinds = (i: number): string => {
      switch (i % 7) {
        case 0:
          return '*';
        case 1:
          return 'prx.*';
        case 2:
          return 'prx.lifecycle.*';
        case 3:
          return `prx.lifecycle.e${i % 10}`;
        case 4:
          return `prx.lifecycle.e${i % 10}.*`;
        case 5:
          return 'hookwerk.run.*';
        default:
          return `other.t${i % 13}`;
      }
    };
    const topics = [
      ...Array.from({ length: 10 }, (_, k) => `prx.lifecycle.e${k}`),
      ...Array.from({ length: 10 }, (_, k) => `prx.lifecycle.e${k}.sub.deep`),
      'prx.lifecycle',
      'prx.misc',
      'hookwerk.run.ok',
      'hookwerk.run',
      ...Array.from({ length: 13 }, (_, k) => `other.t${k}`),
      'unrelated',
    ];
    const patterns: string[] = [];
    const counts: number[] = [];
    const offs: Array<() => void> = [];
    for (let i = 0; i < 1000; i++) {
      patterns.push(kinds(i));
      counts.push(0);
      offs.push(
        bus.subscribe(patterns[i]!, () => {
          counts[i]!++;
        }),
      );
    }
    expect(bus.subscriptionCount()).toBe(1000);
    for (const t of topics) bus.publish(t, { t });
    await bus.flush();
    const expected = patterns.map((p) => topics.filter((t) => referenceMatch(p, t)).length);
    expect(counts).toEqual(expected);
    const total = expected.reduce((a, b) => a + b, 0);
    expect(bus.stats()).toMatchObject({ published: topics.length, delivered: total });

    // Unsubscribe every other one and publish again: only the survivors get the second round.
    for (let i = 0; i < 1000; i += 2) offs[i]!();
    expect(bus.subscriptionCount()).toBe(500);
    for (const t of topics) bus.publish(t, { t });
    await bus.flush();
    expect(counts).toEqual(expected.map((e, i) => (i % 2 === 0 ? e : 2 * e)));
  });

  it('[P-BUS-2] subscribe and unsubscribe between publishes of one topic take effect at once', async () => {
    const bus = new MemoryBus();
    const got: string[] = [];
    const offA = bus.subscribe('prx.lifecycle.tool_call', (m) => {
      got.push(`a${String(m.payload)}`);
    });
    bus.publish('prx.lifecycle.tool_call', 1);
    await bus.flush();
    const offB = bus.subscribe('prx.*', (m) => {
      got.push(`b${String(m.payload)}`);
    });
    bus.publish('prx.lifecycle.tool_call', 2);
    await bus.flush();
    offA();
    bus.publish('prx.lifecycle.tool_call', 3);
    await bus.flush();
    offB();
    bus.publish('prx.lifecycle.tool_call', 4);
    await bus.flush();
    expect(got).toEqual(['a1', 'b2', 'a2', 'b3']);
    expect(bus.stats()).toMatchObject({ published: 4, delivered: 4 });
  });

  it('[P-BUS-2] many distinct topics (more than any cache holds) each reach exactly their subscribers', async () => {
    const bus = new MemoryBus();
    const got = new Map<string, number>();
    const count = (key: string): void => {
      got.set(key, (got.get(key) ?? 0) + 1);
    };
    bus.subscribe('*', () => count('*'));
    bus.subscribe('t.*', () => count('t.*'));
    bus.subscribe('t.x500', () => count('t.x500'));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3000; i++) bus.publish(`t.x${i}`, i);
      await bus.flush();
    }
    expect(Object.fromEntries(got)).toEqual({ '*': 6000, 't.*': 6000, 't.x500': 2 });
  });

  it('flush resolves at once when idle', async () => {
    const bus = new MemoryBus();
    await bus.flush();
    bus.publish('nobody.listens', 1);
    await bus.flush();
    expect(bus.stats().published).toBe(1);
  });
});
