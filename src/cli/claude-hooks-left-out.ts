/**
 * `mcp-proxy` read the project's Claude Code files by default until it read the hookwerk policy
 * [G-PERM-1]. A project whose `.claude/settings.json` still guards tool calls would lose those
 * guards without a word: this is the one line that says so at start, and what to do instead.
 */
import { tildePath } from '../core/tilde-path.ts';
import { loadClaudeConfig } from '../dialects/claude/source.ts';
import type { GateConfig } from '../dialects/gate-dialects.ts';

/** The tool-call events an MCP gate asks. */
const TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/**
 * The line, when the policy in force does not include the Claude Code files and the project's own
 * (`.claude/settings.json`, `.claude/settings.local.json`) hold tool-call hooks; else undefined.
 */
export function claudeHooksLeftOut(policy: GateConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (policy.sources.some((s) => 'dialect' in s && s.dialect === 'claude')) return undefined;
  // Read as `validate` reads them (approved or not): this only counts what the files hold.
  const claude = loadClaudeConfig({ projectDir: policy.projectDir, home: policy.home, env });
  const files = new Set<string>();
  for (const entry of claude.entries) {
    const scope = entry.origin.scope;
    if ((scope === 'project' || scope === 'local') && TOOL_EVENTS.has(entry.event))
      files.add(tildePath(entry.origin.file ?? entry.origin.source, policy.home));
  }
  if (files.size === 0) return undefined;
  return (
    `the Claude Code hooks of ${[...files].join(', ')} do not run here: mcp-proxy reads the hookwerk ` +
    'policy (~/.hookwerk/policy.json, .hookwerk/policy.json); add "include": ["claude"] to it, or pass --dialect claude'
  );
}
