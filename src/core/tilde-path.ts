/**
 * [G-FAIL-5] Paths in the reasons and messages hookwerk writes for people show the home folder as
 * `~` (`~/.hookwerk/policy.json`, not `/home/ann/.hookwerk/policy.json`): shorter, the same on
 * every account, and no user name in a reason an agent passes on. Identifiers (a record's or an
 * explanation's `source`, an issue's `file`) stay absolute: tools and tests join on them.
 */
import { type ConfigIssue, formatIssue } from './issues.ts';

/** `p` with a leading home folder written `~`; any other path (or text) unchanged. */
export function tildePath(p: string, home: string | undefined): string {
  if (home === undefined || home === '' || home === '/') return p;
  const base = home.endsWith('/') ? home.slice(0, -1) : home;
  if (p === base) return '~';
  return p.startsWith(`${base}/`) ? `~${p.slice(base.length)}` : p;
}

/** An issue as one line for people (`formatIssue`'s), its file under the home shown with `~`. */
export function shownIssue(issue: ConfigIssue, home: string | undefined): string {
  return formatIssue({ ...issue, file: tildePath(issue.file, home) });
}
