/**
 * [G-TEST-1] What policy a test run is up against, said before its results: the files the engine
 * loaded (an engine made as for the cases, then closed), and above all a project policy that is
 * not approved — its hooks do not run, as in `hookwerk hook`, and a test that expects them to
 * fails; the note says why and how to approve — or one changed since its approval (the approved
 * text is what runs: a file under edit is tested with `--policy`).
 */
import { trustHint } from '../consent/run-consent.ts';
import { tildePath } from '../core/tilde-path.ts';
import type { HookAgentName } from '../dialects/hook-agents.ts';
import { policyEngine } from '../hook/cold-decider.ts';

export interface PolicyInForce {
  /** One line per policy file read: the file (home as `~`), its scope and its state. */
  readonly files: readonly string[];
  /** What the results depend on and the user may not expect: an unapproved or unusable file, no policy at all. */
  readonly notes: readonly string[];
}

export async function policyInForce(q: {
  projectDir: string;
  home: string;
  agent: HookAgentName;
  env: NodeJS.ProcessEnv;
  files?: readonly string[];
}): Promise<PolicyInForce> {
  const engine = await policyEngine(q, 'hookwerk-test', q.files);
  try {
    const config = engine.gate.config;
    const shown = (file: string) => tildePath(file, q.home);
    const files: string[] = [];
    const notes: string[] = [];
    for (const s of config.sources) {
      if (s.state === 'absent') continue;
      files.push(`${shown(s.file)} (${s.label}, ${s.state})`);
      if (s.state === 'unapproved')
        notes.push(
          `${shown(s.file)} is not approved: its hooks do not run, as in hookwerk hook (${trustHint(tildePath(q.projectDir, q.home))})`,
        );
      else if ('newerVersionPending' in s && s.newerVersionPending === true)
        notes.push(
          `${shown(s.file)} changed since it was approved: the approved text runs, not the file as it is now (test the file itself with --policy ${shown(s.file)}; approve it: ${trustHint(tildePath(q.projectDir, q.home))})`,
        );
      else if (s.state === 'invalid')
        notes.push(
          `${shown(s.file)} cannot be used: the gate events are denied (hookwerk validate says why)`,
        );
    }
    if (files.length === 0)
      notes.push(
        q.files !== undefined
          ? `none of the policy files given exists: ${q.files.map(shown).join(', ')}`
          : `no policy file exists (${shown(q.home)}/.hookwerk/policy.json, ${shown(q.projectDir)}/.hookwerk/policy.json)`,
      );
    return { files, notes };
  } finally {
    await engine.close();
  }
}
