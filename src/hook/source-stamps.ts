/**
 * [R-HOOK-4] What a warm engine's gate read, to be stamped (`path-stamps.ts`): every source file
 * its config names (absent ones too: the managed policy's among them), every project source of every dialect (consent reads them
 * all), the hook folders (a file added there changes the folder), and the trust store. A changed
 * stamp means a fresh engine would read something else, so the warm one reloads before it decides.
 */
import { trustStorePath } from '../consent/trust-store.ts';
import type { GateConfig } from '../dialects/gate-dialects.ts';
import { MANAGED_POLICY_DIR } from '../dialects/surfaces/policy-files.ts';

/** The paths a fresh engine's gate reads for `config`. */
export function watchedPaths(config: GateConfig): string[] {
  const out = new Set<string>();
  for (const source of config.sources) out.add(source.file);
  for (const file of config.surface.sourceFiles) out.add(file);
  for (const folder of config.surface.hookFolders) out.add(folder);
  out.add(trustStorePath(config.home));
  // [T-MGD-1] The managed policy is used only while its folder is root's: a chmod or chown of the
  // folder changes what a fresh load reads, though not the file's own stamp.
  out.add(MANAGED_POLICY_DIR);
  return [...out];
}
