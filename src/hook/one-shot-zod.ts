/**
 * [G-PERF-1][R-HOOK-4] zod for a process that validates each schema once (a lone `hookwerk hook`
 * call: the cold bundle, the startup snapshot). zod compiles an object schema's first parse into a
 * new function (`new Function`), which pays off over many parses; a cold call parses a guard's
 * options once and paid ~5–15 ms of compiling for it. `jitless` parses the same way without
 * compiling (the results are zod's own, either way). Never for the daemon, which parses the same
 * schemas for hours: only the lone process's entries call this.
 */
import { z } from 'zod';

/** Schemas made from now on parse without generated code. */
export function parseWithoutCompiling(): void {
  z.config({ jitless: true });
}
