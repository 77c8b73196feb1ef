/**
 * What `hookwerk install` and `uninstall` report for one file [R-INST-1]. Its own file so the
 * writers (`install-agent.ts`, `uninstall-agent.ts`, `codex-requirements.ts`, `file-commit.ts`)
 * do not import each other for a type (issue 31: no file-level cycles).
 */

export interface InstallResult {
  readonly agent: string;
  readonly scope: 'project' | 'user' | 'system';
  readonly file: string;
  /** The file did not exist (and was created, unless `dryRun`). */
  readonly created: boolean;
  /** The file's text changed (or would have, with `dryRun`). */
  readonly changed: boolean;
  /** Events that got our entry. */
  readonly events: string[];
  /**
   * Events whose entry calling hookwerk was not what install writes now (another timeout or
   * command line, a matcher, `async`…), replaced by install's own.
   */
  readonly updated: string[];
  /** Events that had our entry already, as it is. */
  readonly unchanged: string[];
  /** One line per entry replaced that install had not written (for stderr): where, and what it held. */
  readonly replaced: string[];
  /** The entries' command line, without `--event` and `--timeout` (each entry adds its own). */
  readonly command: string;
  /** [G-FAIL-4] Each event's entry timeout, in seconds (the command's `--timeout`). */
  readonly timeouts: Readonly<Record<string, number>>;
  /** Why the entries might not run as meant (hooks that run twice, switches that turn them off). */
  readonly warnings: string[];
  /** What the user must still do before the agent runs them. */
  readonly notes: string[];
  /** A unified diff of the change (`''`: none). */
  readonly diff: string;
  readonly dryRun: boolean;
}

export interface UninstallResult {
  readonly agent: string;
  readonly scope: 'project' | 'user' | 'system';
  readonly file: string;
  /** The file's text changed, or it was removed (or would have been, with `dryRun`). */
  readonly changed: boolean;
  /** The file was removed: install had created it and it holds nothing else. */
  readonly removed: boolean;
  /** The file got back its text from before install, byte for byte. */
  readonly restored: boolean;
  /** Events whose entry of ours was removed. */
  readonly events: string[];
  readonly warnings: string[];
  /** A unified diff of the change (`''`: none). */
  readonly diff: string;
  readonly dryRun: boolean;
}
