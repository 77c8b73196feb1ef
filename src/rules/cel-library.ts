/**
 * [G-CEL-1] The CEL implementation, @bufbuild/cel (why this one: docs/rules.md), loaded the first
 * time a rule is compiled and never before: `hookwerk hook`'s fast path, and any engine whose
 * policy has no rule, never pay its import (~150 ms). It is loaded synchronously, through
 * `createRequire` (the package ships a CommonJS build), because a policy is loaded synchronously —
 * the strict check, the registry build and hot reload — and a rule that does not compile must be
 * an error of its file right at load [G-CEL-3]. The hook's bundle (scripts/bundle-hook.js) never
 * reaches this file: rules come with the engine, which it imports on demand.
 */
import { createRequire } from 'node:module';
import type * as Cel from '@bufbuild/cel';
import type * as CelExt from '@bufbuild/cel/ext';

export interface CelLibrary {
  readonly cel: typeof Cel;
  readonly ext: typeof CelExt;
}

let loaded: CelLibrary | undefined;

export function celLibrary(): CelLibrary {
  if (loaded === undefined) {
    const load = createRequire(import.meta.url);
    const cel: typeof Cel = load('@bufbuild/cel');
    const ext: typeof CelExt = load('@bufbuild/cel/ext');
    loaded = { cel, ext };
  }
  return loaded;
}
