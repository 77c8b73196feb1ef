/**
 * [T-SELF-1, T-SELF-2] A command that runs hookwerk's own command line, and what it asks of it:
 * `hookwerk …`, `/path/to/bin/hookwerk.js …`, `node …/hookwerk/… …`, `npx [-y] hookwerk[@v] …`,
 * `pnpm exec|dlx hookwerk …`, `npm exec|x hookwerk …`, `yarn [dlx] hookwerk …`, `bunx hookwerk …`
 * (the wrappers and `-c` strings around them are the action view's). The `self-protect` guard stops
 * `trust` (but `trust --list`), `install`, `uninstall` and `daemon stop`.
 */
import path from 'node:path';
import type { SimpleCommand } from '../action/view-types.ts';

const HOOKWERK = /^hookwerk(\.[cm]?js)?$/;
const PACKAGE = /^hookwerk(@.+)?$/;
const RUNTIMES = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx']);
const EXECUTORS = new Set(['npx', 'bunx', 'pnpx']);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** The words after `hookwerk` when `c` runs hookwerk's command line; undefined otherwise. */
export function hookwerkArgs(c: SimpleCommand): readonly string[] | undefined {
  if (c.dynamic) return undefined;
  const words = c.argv.slice(1);
  if (HOOKWERK.test(c.name)) return words;
  const p = c.positionals;
  if (RUNTIMES.has(c.name)) {
    const script = p[0] === 'run' && c.name === 'deno' ? p[1] : p[0];
    if (script === undefined) return undefined;
    const base = path.posix.basename(script);
    if (!HOOKWERK.test(base) && !script.split('/').includes('hookwerk')) return undefined;
    return after(words, script);
  }
  if (EXECUTORS.has(c.name)) return p[0] !== undefined && PACKAGE.test(p[0]) ? after(words, p[0]) : undefined;
  if (PACKAGE_MANAGERS.has(c.name)) {
    const at = p.slice(0, 2).findIndex((w) => PACKAGE.test(w));
    return at < 0 ? undefined : after(words, p[at]!);
  }
  return undefined;
}

function after(words: readonly string[], word: string): readonly string[] {
  const k = words.indexOf(word);
  return k < 0 ? [] : words.slice(k + 1);
}

/** What an agent may not ask of hookwerk: `trust`, `install`, `uninstall`, `daemon stop`; undefined for the rest. */
export function forbiddenHookwerk(args: readonly string[]): string | undefined {
  const plain = args.filter((w) => !w.startsWith('-'));
  const [sub, next] = plain;
  if (sub === 'trust') return args.includes('--list') ? undefined : 'hookwerk trust';
  if (sub === 'install' || sub === 'uninstall') return `hookwerk ${sub}`;
  if (sub === 'daemon' && next === 'stop') return 'hookwerk daemon stop';
  return undefined;
}
