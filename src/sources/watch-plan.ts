import { readlinkSync } from 'node:fs';
import path from 'node:path';
import { isDirectory, realPathOr } from '../core/real-path.ts';

/** Folders to watch, each with the names of the entries in it whose changes matter. */
type WatchPlan = Map<string, Set<string>>;

/** Symlink hops followed at most: the kernel gives up at 40 (ELOOP) too. */
const MAX_HOPS = 40;

/**
 * What to watch so that no change to what reading `file` gives is missed (issue 11):
 * - each hop of its symlink chain: the path itself, then every target (a link re-pointed changes
 *   the chain: the plan is made again after each change);
 * - the folder of each hop, in its own parent: a watch on a folder that is deleted or moved away
 *   goes silent, and one recreated in its place is a new folder;
 * - for a path that does not exist (yet), its nearest existing ancestor, for the next name down.
 */
export function watchPlan(file: string): WatchPlan {
  const plan: WatchPlan = new Map();
  for (const hop of symlinkHops(path.resolve(file))) {
    addNearest(plan, hop);
    addNearest(plan, path.dirname(hop));
  }
  return plan;
}

/** `file`, then each target its symlinks lead to; relative targets count from the link's real folder, as the kernel's do. */
function symlinkHops(file: string): string[] {
  const hops = [file];
  let hop = file;
  while (hops.length <= MAX_HOPS) {
    let target: string;
    try {
      target = readlinkSync(hop);
    } catch {
      break; // not a symlink, or not there: the chain ends here
    }
    hop = path.resolve(realPathOr(path.dirname(hop)), target);
    if (hops.includes(hop)) break; // a loop: every hop of it is already in the plan
    hops.push(hop);
  }
  return hops;
}

/** Adds the nearest existing folder above `p`, with the name of its child on the way down to `p`. */
function addNearest(plan: WatchPlan, p: string): void {
  for (let child = p, dir = path.dirname(p); dir !== child; child = dir, dir = path.dirname(dir)) {
    if (!isDirectory(dir)) continue;
    const names = plan.get(dir) ?? new Set<string>();
    names.add(path.basename(child));
    plan.set(dir, names);
    return;
  }
}
