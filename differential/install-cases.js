// The install suite's cases: one guard in `~/.hookwerk/policy.json`, `hookwerk install` into each
// agent's own hook file, and the real agent driven against its mock model (issue 21, SPEC §11).
// Each agent: how its model asks for a shell call, where the tool result is in its next request,
// and how "hookwerk said nothing" is told apart from "hookwerk allowed" for that agent [R-HOOK-2].

export const GUARD_REASON = 'rm -rf is blocked by policy';
export const RM = 'rm -rf victim';
export const ECHO = 'echo ok > done.txt';

/** The starter policy's run: what it must stop (and the guard the model is told of), and what it lets run. */
export const STARTER_STOPS = [
  { command: 'rm -fr ~', guard: 'destructive-delete' },
  { command: 'git push origin main --force', guard: 'force-push' },
  { command: 'cat .env', guard: 'secrets' },
];
export const STARTER_RUNS = ['rm -rf node_modules', 'git push origin feature', 'npm test'];
/** In `.env` of the starter's world: the model must never see it. */
export const SECRET_MARKER = 'HWE2E_SECRET_5f1c';

/** The managed steps, in the order they are printed (install-managed.js runs them). */
export const MANAGED_STEPS = [
  {
    name: 'managed-installed',
    about:
      "Codex CLI only, as root in a mount namespace: `hookwerk install --agent codex --system` adds its block to `/etc/codex/requirements.toml`, the administrator's text before it unchanged [T-MGD-2]",
  },
  {
    name: 'managed-blocks',
    about:
      'the managed policy (`/etc/hookwerk/policy.json`) denies `touch`: Codex, with no hook trust given or bypassed, does not run the call and the model is told the rule [T-MGD-1]',
  },
  {
    name: 'managed-allow-runs',
    about: 'under the same managed hooks `echo ok > done.txt` runs (PreToolUse `Completed`) [R-HOOK-2]',
  },
  {
    name: 'managed-pin-holds',
    about:
      'with `[features] hooks = true` in the requirements: the user\'s `[features] hooks = false`, `--disable hooks` and `[hooks.state."…"] enabled = false`, one run each, do not stop the deny [T-MGD-2]',
  },
  {
    name: 'managed-unpinned',
    about:
      "without the pin: `[features] hooks = false` and `--disable hooks` turn hookwerk's managed hooks off (the touch runs), `enabled = false` does not; as docs/managed.md says (a deliberate limit: the pin is the administrator's)",
  },
  {
    name: 'managed-uninstall',
    about:
      '`hookwerk uninstall --agent codex --system` gives the file back byte for byte, and Codex then runs with no hook (the touch runs) [R-INST-1]',
  },
];

/** The steps, in the order they are printed for each agent. */
export const INSTALL_STEPS = [
  { name: 'installed', about: "the agent's own hook file names `hookwerk hook --agent A` [R-INST-1]" },
  { name: 'rm-blocked', about: 'the model asks for `rm -rf victim`: the agent does not run it [R-HOOK-1]' },
  {
    name: 'reason-to-model',
    about: 'the tool result of that call in the next model request holds "rm -rf is blocked by policy"',
  },
  { name: 'echo-runs', about: 'the model asks for `echo ok > done.txt`: it runs (no objection) [R-HOOK-2]' },
  {
    name: 'no-hook-errors',
    about:
      "every hook call of every installed event was read as an answer, never as a failed hook (the agent's own log)",
  },
  {
    name: 'no-allow-leaked',
    about: "hookwerk's silence is not an allow: the agent's own permission rules still decide [R-HOOK-2]",
  },
  {
    name: 'allow-passes',
    about: "control: a policy hook that allows explicitly does skip the agent's permission rules [R-HOOK-2]",
  },
  { name: 'journal', about: '`hookwerk runs --agent A --json` lists the denied Bash run [R-HOOK-3]' },
  {
    name: 'starter-stops',
    about:
      'with `examples/policy/starter.json` as the policy: `rm -fr ~`, `git push origin main --force` and `cat .env` are stopped, each with its guard named to the model [G-LIB-1]',
  },
  {
    name: 'starter-lets-through',
    about:
      'with the starter policy: `rm -rf node_modules`, `git push origin feature` and `npm test` run, no guard named [G-LIB-1, G-TEST-2]',
  },
  {
    name: 'uninstall',
    about:
      '`hookwerk uninstall --agent A` restores the file byte for byte, or removes the one it made [R-INST-1]',
  },
  ...MANAGED_STEPS,
];

const text = (v) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));

/**
 * Per agent: `call(command)` is the model's shell call in the mock's terms; `toolResults(body)`
 * the tool results a model request carries; `existing` a hook file the project already has
 * (install must keep it; uninstall must give it back byte for byte), or none.
 */
export const INSTALL_AGENTS = {
  claude: {
    call: (command) => ({ name: 'Bash', input: { command, description: 'install suite step' } }),
    toolResults: (body) =>
      (body?.messages ?? []).flatMap((m) =>
        Array.isArray(m.content)
          ? m.content.filter((b) => b.type === 'tool_result').map((b) => text(b.content))
          : [],
      ),
    // Four-space indentation and a setting of the user's own: kept as they are.
    existing: '{\n    "env": {\n        "HWE2E_KEPT": "1"\n    }\n}\n',
    // Without Bash in --allowedTools, Claude Code's own rules refuse it headless.
    noAllow: { kind: 'flags', flags: { allowedTools: 'Read' } },
  },
  gemini: {
    call: (command) => ({ name: 'run_shell_command', input: { command } }),
    toolResults: (body) =>
      (body?.contents ?? []).flatMap((c) =>
        (c.parts ?? []).filter((p) => p.functionResponse).map((p) => text(p.functionResponse.response)),
      ),
    // Gemini CLI's settings allow comments: install keeps this one.
    existing: '{\n  // the project\'s own setting, kept by install\n  "general": { "vimMode": false }\n}\n',
    // Gemini CLI 0.61 reads no allow from BeforeTool (only block, ask, stop, a rewrite), and
    // headless without --yolo it offers no shell tool at all: what hookwerk answered is read
    // from Gemini CLI's own log of each hook call (its local telemetry: stdout, exit code).
    noAllow: { kind: 'answers' },
  },
  codex: {
    call: (command) => ({ name: 'exec_command', input: { command } }),
    // Codex refuses `rm -rf …` on its own ("rm -f style commands are not permitted"), after the
    // hooks had no objection: the starter's pass is then Codex's refusal, not hookwerk's.
    ownRefusal: /rm -f style commands are not permitted/,
    toolResults: (body) =>
      (Array.isArray(body?.input) ? body.input : [])
        .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')
        .map((i) => text(i.output)),
    existing: undefined,
    // Codex has no permission prompt to skip under exec's bypass; an allow without a rewrite is
    // a hook it marks Failed, so "no allow" is the echo's PreToolUse reported Completed.
    noAllow: { kind: 'statuses' },
  },
  copilot: {
    call: (command) => ({ name: 'bash', input: { command, description: 'install suite step' } }),
    toolResults: (body) =>
      (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => text(m.content)),
    existing: undefined,
    // Without --allow-all-tools, Copilot CLI's own rules refuse the shell headless.
    noAllow: { kind: 'flags', flags: { allowAll: false } },
  },
};
