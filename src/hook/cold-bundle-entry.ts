/**
 * [G-PERF-1] The cold bundle's entry (scripts/bundle-hook.js makes dist/cli/cold-bundle.cjs of
 * it): the cold decider, with the bundle's own zod set for a one-shot process first
 * (hook/one-shot-zod.ts). The daemon and `hookwerk test` import cold-decider.ts itself.
 */
import { parseWithoutCompiling } from './one-shot-zod.ts';

parseWithoutCompiling();

export { coldDecider } from './cold-decider.ts';
