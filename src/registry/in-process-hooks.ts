/**
 * (beyond) `engine.use()`: the definition of an in-process hook, checked as any other source's.
 * Gate events get a gate hook that answers like a command hook; observe events an observer run
 * fire-and-forget like a shell hook.
 */
import { HookInputError } from '../core/errors.ts';
import { isLurusEvent, LURUS_EVENT_NAMES } from '../events/lurus-events.ts';
import { isPrxEvent, PRX_EVENT_NAMES } from '../events/prx-events.ts';
import type { InProcessGateHook, InProcessObserverHook } from './hook-definition.ts';
import { compileMatcher } from './matcher.ts';

const DEFAULT_IN_PROCESS_TIMEOUT_MS = 30_000;
const ALWAYS = compileMatcher(undefined);

type InProcessHook = { observer: InProcessObserverHook } | { gate: InProcessGateHook };

/** `use(event, fn, opts?)` (observe) or `use(event, opts, fn)` (gate); `n` numbers unnamed hooks. */
export function inProcessHookOf(event: string, a: unknown, b: unknown, n: number): InProcessHook {
  if (isPrxEvent(event)) {
    if (typeof a !== 'function') throw new HookInputError('fn', 'use(event, fn): fn must be a function');
    const opts = typeof b === 'object' && b !== null ? b : {};
    const timeout: unknown = Reflect.get(opts, 'timeout');
    const name: unknown = Reflect.get(opts, 'name');
    return {
      observer: {
        kind: 'in-process',
        dialect: 'prx',
        name: typeof name === 'string' ? name : `in-process:${event}#${n}`,
        event,
        origin: { source: 'in-process', scope: 'in-process' },
        matcher: ALWAYS,
        timeoutMs: typeof timeout === 'number' ? timeout : DEFAULT_IN_PROCESS_TIMEOUT_MS,
        failMode: 'open',
        enabled: true,
        fn: (envelope, info) => a(envelope, info),
      },
    };
  }
  if (!isLurusEvent(event)) {
    throw new HookInputError(
      'event',
      `unknown event "${event}" (gate events: ${LURUS_EVENT_NAMES.join(', ')}; observe events: ${PRX_EVENT_NAMES.join(', ')})`,
    );
  }
  if (typeof b !== 'function')
    throw new HookInputError('fn', 'use(event, options, fn): fn must be a function');
  const opts = typeof a === 'object' && a !== null ? a : {};
  const matcherOpt: unknown = Reflect.get(opts, 'matcher');
  const timeout: unknown = Reflect.get(opts, 'timeout');
  const failMode: unknown = Reflect.get(opts, 'failMode');
  const name: unknown = Reflect.get(opts, 'name');
  const matcher = compileMatcher(typeof matcherOpt === 'string' ? matcherOpt : undefined);
  if (matcher.error !== undefined) throw new HookInputError('matcher', matcher.error);
  return {
    gate: {
      kind: 'in-process',
      dialect: 'lurus',
      name: typeof name === 'string' ? name : `in-process:${event}#${n}`,
      event,
      origin: { source: 'in-process', scope: 'in-process' },
      matcher,
      timeoutMs: typeof timeout === 'number' ? timeout : DEFAULT_IN_PROCESS_TIMEOUT_MS,
      failMode: failMode === 'closed' ? 'closed' : 'open',
      enabled: true,
      fn: (ctx, info) => b(ctx, info),
    },
  };
}
