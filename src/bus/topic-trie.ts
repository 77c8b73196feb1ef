/**
 * Topic patterns and the token trie that matches them ([P-BUS-2]).
 *
 * A topic is one or more non-empty tokens joined by `.` and never contains `*`.
 * A pattern is one of:
 * - an exact topic: `prx.lifecycle.tool_call`;
 * - a prefix wildcard `a.b.*`: every topic that begins with `a.b.` at any depth (`a.b.c`,
 *   `a.b.c.d`, …). At least one token must follow the prefix, so `a.b.*` does NOT match `a.b`
 *   itself (subscribe to `a.b` as well if you want it). This is not NATS semantics, where `*`
 *   is exactly one token and `>` is the tail;
 * - `*` alone: every topic.
 * Anything else (`a.*.b`, `a*`, `*.a`, `a..b`, `.a`, ``) is rejected with a TypeError.
 *
 * Matching walks the topic's tokens down the trie once: its cost grows with the depth of the
 * topic, not with the number of subscriptions.
 */
import { HookInputError } from '../core/errors.ts';

/** A parsed pattern: the prefix/exact tokens and whether it ends in a wildcard. */
interface ParsedPattern {
  readonly tokens: readonly string[];
  /** `true` for `*` (with no tokens) and for `a.b.*` (tokens `['a', 'b']`). */
  readonly wildcard: boolean;
}

const CACHE_LIMIT = 1024;
const tokenCache = new Map<string, readonly string[]>();

function checkTokens(text: string, what: string, original: string): string[] {
  if (text.length === 0)
    throw new HookInputError('pattern', `invalid ${what} ${JSON.stringify(original)}: empty`);
  const tokens = text.split('.');
  for (const token of tokens) {
    if (token.length === 0) {
      throw new HookInputError('pattern', `invalid ${what} ${JSON.stringify(original)}: empty token`);
    }
    if (token.includes('*')) {
      throw new HookInputError(
        'pattern',
        `invalid ${what} ${JSON.stringify(original)}: '*' is only allowed as the whole pattern or as the last token`,
      );
    }
  }
  return tokens;
}

/**
 * Splits a topic into its tokens, validating it (TypeError on an invalid topic). Results are
 * cached (at most 1024 topics, oldest evicted first); the returned array must not be mutated.
 */
export function splitTopic(topic: string): readonly string[] {
  const cached = tokenCache.get(topic);
  if (cached !== undefined) return cached;
  if (typeof topic !== 'string')
    throw new HookInputError('pattern', `invalid topic: expected a string, got ${typeof topic}`);
  const tokens = Object.freeze(checkTokens(topic, 'topic', topic));
  if (tokenCache.size >= CACHE_LIMIT) {
    const oldest = tokenCache.keys().next();
    if (!oldest.done) tokenCache.delete(oldest.value);
  }
  tokenCache.set(topic, tokens);
  return tokens;
}

/** `true` when `topic` is a valid topic (see {@link splitTopic}). */
export function isValidTopic(topic: string): boolean {
  try {
    splitTopic(topic);
    return true;
  } catch {
    return false;
  }
}

/** Parses and validates a subscription pattern; throws a TypeError on a bad one. */
export function parsePattern(pattern: string): ParsedPattern {
  if (typeof pattern !== 'string') {
    throw new HookInputError('pattern', `invalid pattern: expected a string, got ${typeof pattern}`);
  }
  if (pattern === '*') return { tokens: [], wildcard: true };
  if (pattern.endsWith('.*')) {
    return { tokens: checkTokens(pattern.slice(0, -2), 'pattern', pattern), wildcard: true };
  }
  return { tokens: checkTokens(pattern, 'pattern', pattern), wildcard: false };
}

/** One-off test of a pattern against a topic (both validated). Prefer a trie for many patterns. */
export function topicMatches(pattern: string, topic: string): boolean {
  const p = parsePattern(pattern);
  const t = splitTopic(topic);
  if (p.wildcard ? t.length <= p.tokens.length : t.length !== p.tokens.length) return false;
  for (let i = 0; i < p.tokens.length; i++) if (p.tokens[i] !== t[i]) return false;
  return true;
}

/** Internal trie node (exported only for typing {@link TrieEntry}). */
class TrieNode<S> {
  children: Map<string, TrieNode<S>> | undefined;
  /** Subscribers of the exact topic ending at this node. */
  exact: Set<S> | undefined;
  /** Subscribers of `<this node's prefix>.*` (at the root: `*`). */
  wildcard: Set<S> | undefined;

  constructor(
    readonly parent: TrieNode<S> | undefined,
    readonly token: string,
  ) {}

  isEmpty(): boolean {
    return (
      (this.children === undefined || this.children.size === 0) &&
      (this.exact === undefined || this.exact.size === 0) &&
      (this.wildcard === undefined || this.wildcard.size === 0)
    );
  }
}

/** Where a subscriber was put; hand it back to {@link TopicTrie.remove}. */
export interface TrieEntry<S> {
  readonly node: TrieNode<S>;
  readonly wildcard: boolean;
  readonly subscriber: S;
}

/**
 * A token trie of subscribers keyed by pattern. Each subscriber is added under one pattern;
 * adding the same subscriber twice under different patterns is the caller's business (the bus
 * never does: one `subscribe()` is one subscriber with one pattern).
 */
export class TopicTrie<S> {
  private readonly root = new TrieNode<S>(undefined, '');
  private count = 0;

  /** Number of (pattern, subscriber) entries. */
  get size(): number {
    return this.count;
  }

  /** Adds `subscriber` under `pattern` (TypeError on a bad pattern). */
  add(pattern: string, subscriber: S): TrieEntry<S> {
    const parsed = parsePattern(pattern);
    let node = this.root;
    for (const token of parsed.tokens) {
      node.children ??= new Map();
      let next = node.children.get(token);
      if (next === undefined) {
        next = new TrieNode<S>(node, token);
        node.children.set(token, next);
      }
      node = next;
    }
    let set: Set<S>;
    if (parsed.wildcard) set = node.wildcard ??= new Set();
    else set = node.exact ??= new Set();
    if (!set.has(subscriber)) {
      set.add(subscriber);
      this.count++;
    }
    return { node, wildcard: parsed.wildcard, subscriber };
  }

  /** Removes an entry returned by {@link add}; idempotent. Prunes nodes left empty. */
  remove(entry: TrieEntry<S>): void {
    const set = entry.wildcard ? entry.node.wildcard : entry.node.exact;
    if (set === undefined || !set.delete(entry.subscriber)) return;
    this.count--;
    let node: TrieNode<S> | undefined = entry.node;
    while (node?.parent !== undefined && node.isEmpty()) {
      node.parent.children?.delete(node.token);
      node = node.parent;
    }
  }

  /**
   * Appends every subscriber whose pattern matches the topic given by its tokens to `out`:
   * `*` first, then the prefix wildcards from the shortest prefix to the longest, then the exact
   * subscribers. A subscriber added under one pattern appears at most once.
   */
  match(tokens: readonly string[], out: S[]): void {
    let node: TrieNode<S> | undefined = this.root;
    if (node.wildcard !== undefined) for (const s of node.wildcard) out.push(s);
    const last = tokens.length - 1;
    for (let i = 0; i <= last; i++) {
      node = node.children?.get(tokens[i]!);
      if (node === undefined) return;
      // `prefix.*` needs at least one token after the prefix: only collect before the last token.
      if (i < last) {
        if (node.wildcard !== undefined) for (const s of node.wildcard) out.push(s);
      } else if (node.exact !== undefined) {
        for (const s of node.exact) out.push(s);
      }
    }
  }
}
