// The GitHub Copilot CLI cases. Each: the model's turns (the mock makes Copilot CLI call these
// tools), the hooks (`hooks` → `.github/hooks/case.json`; `userHooks`, `moreHooks`, `claudeHooks`,
// `repoSettings`, `userSettings`: see world.js), and what each hook id does (spec: see hook.mjs).
// A silent recorder hook runs first on every event (a user hook file, world.js). In an entry,
// `@H@ ID` is the hook script with id ID.
// `deliberate`: a difference docs/differences.md keeps on purpose; printed, not counted.

const hook = (id, extra = {}) => ({ type: 'command', bash: `@H@ ${id}`, ...extra });
const bash = (command) => ({ name: 'bash', input: { command, description: 'differential step' } });
const calls = (...tools) => ({ tools });
const TOUCH = [calls(bash('touch m_orig'))];
const out = (o) => ({ out: o });
const deny = (reason) => out({ permissionDecision: 'deny', permissionDecisionReason: reason });
const onceThen = (first) => ({ when: [{ if: { stop_hook_active: false }, use: first }] });

/** One preToolUse hook `a` (and `b`, …), the model running `touch m_orig`. */
const preCase = (
  name,
  about,
  spec,
  hooks = { preToolUse: Object.keys(spec).map((id) => hook(id)) },
  extra = {},
) => ({
  name,
  about,
  turns: TOUCH,
  hooks,
  spec,
  ...extra,
});
const onEvent = (event, name, about, a, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { [event]: [hook('a')] },
  spec: { a },
  ...extra,
});

export const COPILOT_CASES = [
  // preToolUse: output and exit codes.
  preCase('pre-exit0-silent', 'exit 0, no output: no opinion, the tool runs', { a: {} }),
  preCase('pre-exit0-plain', 'exit 0, plain stdout: no opinion', { a: { out: 'ZQPLAIN_A plain text\n' } }),
  preCase('pre-invalid-json', 'exit 0, invalid JSON: no opinion', { a: { out: '{ZQBAD_A\n' } }),
  preCase('pre-deny', 'permissionDecision deny: the tool does not run, the reason reaches the model', {
    a: deny('ZQDENY_A'),
  }),
  preCase('pre-deny-noreason', 'deny without a reason', { a: out({ permissionDecision: 'deny' }) }),
  preCase('pre-allow', 'permissionDecision allow: runs', { a: out({ permissionDecision: 'allow' }) }),
  preCase('pre-ask', 'ask, headless: denied, the reason reaches the model', {
    a: out({ permissionDecision: 'ask', permissionDecisionReason: 'ZQASK_A' }),
  }),
  preCase('pre-modifiedargs', 'modifiedArgs without a decision: the tool runs with the new args', {
    a: out({ modifiedArgs: { command: 'touch m_mod', description: 'rewritten' } }),
  }),
  preCase('pre-modifiedargs-allow', 'modifiedArgs with allow', {
    a: out({ permissionDecision: 'allow', modifiedArgs: { command: 'touch m_mod2', description: 'x' } }),
  }),
  preCase('pre-exit2', 'exit 2: denied with a fixed reason, stderr unused', {
    a: { err: 'ZQEXIT2_A\n', exit: 2 },
  }),
  preCase('pre-exit2-json-allow', 'exit 2 with an allow on stdout: still denied', {
    a: { out: { permissionDecision: 'allow' }, err: 'ZQEXIT2B_A\n', exit: 2 },
  }),
  preCase('pre-exit1', 'exit 1: denied (fail-closed)', { a: { err: 'ZQEXIT1_A\n', exit: 1 } }),
  preCase('pre-exit3', 'exit 3: denied (fail-closed)', { a: { exit: 3 } }),
  preCase('pre-exit1-json-allow', 'exit 1 with an allow on stdout: denied', {
    a: { out: { permissionDecision: 'allow' }, exit: 1 },
  }),
  preCase(
    'pre-timeout',
    'a timeout fails open: the tool runs',
    { a: { sleepMs: 4000, ...deny('ZQLATE_A') } },
    { preToolUse: [hook('a', { timeoutSec: 1 })] },
  ),
  // Several hooks: one after another, the first deny stops the chain.
  preCase('pre-chain-allow-deny', 'allow then deny: denied; both ran', {
    a: out({ permissionDecision: 'allow' }),
    b: deny('ZQDENY_B'),
  }),
  preCase('pre-chain-first-deny-stops', 'a deny stops the chain: the next hook does not run', {
    a: deny('ZQDENY_A'),
    b: {},
  }),
  preCase('pre-chain-two-denies', 'two denies: only the first runs, its reason counts', {
    a: deny('ZQDENY_A'),
    b: deny('ZQDENY_B'),
  }),
  preCase('pre-chain-rewrite-then-silent', 'modifiedArgs from the first, a silent second', {
    a: out({ modifiedArgs: { command: 'touch m_chain', description: 'x' } }),
    b: {},
  }),
  // Matchers: anchored regexes on the camelCase tool name.
  preCase(
    'pre-matcher-nomatch',
    'matcher view: not run for bash',
    { a: deny('ZQM_A') },
    {
      preToolUse: [hook('a', { matcher: 'view' })],
    },
  ),
  preCase(
    'pre-matcher-anchored',
    'matcher bas: anchored, does not match bash',
    { a: deny('ZQM_A') },
    {
      preToolUse: [hook('a', { matcher: 'bas' })],
    },
  ),
  preCase(
    'pre-matcher-alternation',
    'matcher ba.h|view matches bash',
    { a: deny('ZQM_A') },
    {
      preToolUse: [hook('a', { matcher: 'ba.h|view' })],
    },
  ),
  preCase(
    'pre-matcher-empty',
    'matcher "": never runs',
    { a: deny('ZQM_A') },
    {
      preToolUse: [hook('a', { matcher: '' })],
    },
  ),
  preCase(
    'pre-matcher-pascal',
    'matcher Bash on a camelCase key: does not match bash',
    { a: deny('ZQM_A') },
    {
      preToolUse: [hook('a', { matcher: 'Bash' })],
    },
  ),
  preCase(
    'pre-group-matcher',
    'one {matcher, hooks} level',
    { a: deny('ZQG_A') },
    {
      preToolUse: [{ matcher: 'bash', hooks: [hook('a')] }],
    },
  ),
  // Input forms.
  preCase(
    'pre-input-camel',
    "camelCase key: Copilot's own input form",
    { a: {} },
    { preToolUse: [hook('a')] },
    {
      compare: ['input'],
      inputFields: ['cwd', 'toolName', 'toolArgs', 'hook_event_name', 'tool_name'],
    },
  ),
  preCase(
    'pre-input-pascal',
    'PascalCase key: the VS Code form (snake_case, Bash)',
    { a: {} },
    {
      PreToolUse: [hook('a')],
    },
    { compare: ['input'], inputFields: ['hook_event_name', 'cwd', 'tool_name', 'tool_input', 'toolName'] },
  ),
  preCase(
    'pre-pascal-deny',
    "PascalCase key, Copilot's deny fields",
    { a: deny('ZQPD_A') },
    {
      PreToolUse: [hook('a')],
    },
  ),
  preCase(
    'pre-claude-settings',
    '.claude/settings.json PreToolUse (Bash matcher) with a Copilot deny',
    { a: deny('ZQCL_A') },
    {},
    {
      claudeHooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '@H@ a' }] }] },
    },
  ),
  preCase(
    'pre-claude-hso-deny',
    ".claude/settings.json with Claude's hookSpecificOutput deny",
    {
      a: out({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'ZQHSO_A',
        },
      }),
    },
    {},
    { claudeHooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '@H@ a' }] }] } },
  ),
  preCase(
    'pre-claude-exit2',
    '.claude/settings.json hook exiting 2',
    { a: { err: 'ZQCL2_A\n', exit: 2 } },
    {},
    {
      claudeHooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '@H@ a' }] }] },
    },
  ),
  // Claude's hookSpecificOutput (pre-claude-hso-deny showed Copilot CLI reads it in .claude files).
  preCase(
    'pre-pascal-hso-deny',
    "PascalCase key in .github/hooks, Claude's hookSpecificOutput deny",
    {
      a: out({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'ZQPHSO_A',
        },
      }),
    },
    { PreToolUse: [hook('a')] },
  ),
  preCase('pre-camel-hso-deny', "camelCase key, Claude's hookSpecificOutput deny", {
    a: out({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'ZQCHSO_A',
      },
    }),
  }),
  preCase(
    'pre-claude-hso-updated',
    '.claude/settings.json: hookSpecificOutput allow with updatedInput',
    {
      a: out({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { command: 'touch m_hso', description: 'x' },
        },
      }),
    },
    {},
    { claudeHooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '@H@ a' }] }] } },
  ),
  preCase(
    'pre-claude-hso-noevent',
    '.claude/settings.json: hookSpecificOutput deny without hookEventName',
    {
      a: out({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'ZQHSONE_A' } }),
    },
    {},
    { claudeHooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '@H@ a' }] }] } },
  ),
  preCase(
    'pre-claude-decision-block',
    '.claude/settings.json: the old decision: block',
    {
      a: out({ decision: 'block', reason: 'ZQOLD_A' }),
    },
    {},
    { claudeHooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '@H@ a' }] }] } },
  ),
  preCase(
    'pre-claude-hso-ask',
    '.claude/settings.json: hookSpecificOutput ask, headless',
    {
      a: out({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'ask',
          permissionDecisionReason: 'ZQHASK_A',
        },
      }),
    },
    {},
    { claudeHooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '@H@ a' }] }] } },
  ),
  preCase('pre-hso-and-copilot', 'both forms in one answer: Copilot allow, hookSpecificOutput deny', {
    a: out({
      permissionDecision: 'allow',
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'ZQBOTH_A',
      },
    }),
  }),
  onEvent(
    'PostToolUse',
    'post-pascal-hso-context',
    'PascalCase PostToolUse, hookSpecificOutput additionalContext',
    out({
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ZQPOSTCTX_A' },
    }),
  ),
  onEvent(
    'sessionStart',
    'start-hso-context',
    'sessionStart, hookSpecificOutput additionalContext',
    out({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ZQSHSO_A' },
    }),
  ),
  // Sources and order.
  preCase(
    'pre-order-mtime',
    'the older file runs first: its deny stops the newer one',
    { a: deny('ZQA'), b: deny('ZQB') },
    {
      preToolUse: [hook('a')],
    },
    { moreHooks: { preToolUse: [hook('b')] }, moreFirst: true },
  ),
  preCase(
    'pre-order-mtime-newer',
    'the newer file runs after',
    { a: deny('ZQA'), b: deny('ZQB') },
    {
      preToolUse: [hook('a')],
    },
    { moreHooks: { preToolUse: [hook('b')] } },
  ),
  preCase(
    'pre-user-before-repo',
    'user hooks run before repo hooks',
    { a: deny('ZQREPO'), u: deny('ZQUSER') },
    {
      preToolUse: [hook('a')],
    },
    { userHooks: { preToolUse: [hook('u')] } },
  ),
  preCase(
    'pre-repo-settings',
    'inline hooks in .github/copilot/settings.json',
    { a: deny('ZQRS_A') },
    {},
    {
      repoSettings: { hooks: { preToolUse: [hook('a')] } },
    },
  ),
  preCase(
    'pre-user-settings',
    'inline hooks in ~/.copilot/settings.json',
    { a: deny('ZQUS_A') },
    {},
    {
      userSettings: { hooks: { preToolUse: [hook('a')] } },
    },
  ),
  preCase('pre-version-2', 'version 2: the file is not loaded', { a: deny('ZQV2_A') }, undefined, {
    version: 2,
  }),
  preCase('pre-version-omitted', 'no version: loaded', { a: deny('ZQV0_A') }, undefined, {
    version: undefined,
  }),
  preCase(
    'pre-disableall-repo',
    'disableAllHooks in the repo settings: no hook runs',
    { a: deny('ZQOFF_A') },
    undefined,
    {
      repoSettings: { disableAllHooks: true },
    },
  ),
  preCase(
    'pre-disableall-user',
    'disableAllHooks in ~/.copilot/settings.json: not honoured',
    { a: deny('ZQON_A') },
    undefined,
    {
      userSettings: { disableAllHooks: true },
    },
  ),
  preCase(
    'pre-env-cwd',
    'COPILOT_* variables, cwd from `cwd`, literal env',
    { a: {} },
    {
      preToolUse: [hook('a', { cwd: 'sub', env: { MARK: 'x-$HOME' } })],
    },
    { files: { 'sub/keep': '' }, compare: ['env'], envVars: ['MARK'] },
  ),
  preCase('pre-env-root', 'the hook runs in the repo root', { a: {} }, undefined, { compare: ['env'] }),
  // permissionRequest.
  onEvent('permissionRequest', 'perm-allow', 'behavior allow: runs', out({ behavior: 'allow' })),
  onEvent(
    'permissionRequest',
    'perm-deny',
    'behavior deny with a message',
    out({ behavior: 'deny', message: 'ZQPDENY_A' }),
  ),
  {
    name: 'perm-deny-then-allow',
    about: 'a later hook overrides an earlier one: allow wins',
    turns: TOUCH,
    hooks: { permissionRequest: [hook('a'), hook('b')] },
    spec: { a: out({ behavior: 'deny', message: 'ZQPD_A' }), b: out({ behavior: 'allow' }) },
  },
  onEvent('permissionRequest', 'perm-exit2-message', "exit 2: deny with stdout's message", {
    out: { message: 'ZQP2_A' },
    err: 'ZQP2ERR_A\n',
    exit: 2,
  }),
  onEvent('permissionRequest', 'perm-exit1', 'exit 1: deny (Permission request hook failed)', { exit: 1 }),
  onEvent(
    'permissionRequest',
    'perm-interrupt',
    'deny with interrupt: the agent stops',
    out({ behavior: 'deny', message: 'ZQINT_A', interrupt: true }),
  ),
  {
    name: 'perm-matcher',
    about: 'matcher on the camelCase tool name',
    turns: TOUCH,
    hooks: { permissionRequest: [hook('a', { matcher: 'view' }), hook('b', { matcher: 'ba.h' })] },
    spec: { a: out({ behavior: 'deny', message: 'ZQPMA' }), b: out({ behavior: 'deny', message: 'ZQPMB' }) },
  },
  // After the tool.
  onEvent(
    'postToolUse',
    'post-block',
    'decision block replaces the tool result',
    out({ decision: 'block', reason: 'ZQPOST_A' }),
  ),
  onEvent(
    'postToolUse',
    'post-silent',
    'postToolUse silent',
    {},
    { compare: ['input'], inputFields: ['toolName', 'toolArgs', 'toolResult'] },
  ),
  // Prompts.
  onEvent(
    'userPromptSubmitted',
    'ups-block',
    'decision block: the prompt is dropped',
    out({ decision: 'block', reason: 'ZQUPSB_A' }),
  ),
  onEvent(
    'userPromptSubmitted',
    'ups-modify',
    'modifiedPrompt and additionalContext reach the model',
    out({ modifiedPrompt: 'ZQUPSMOD_A', additionalContext: 'ZQUPSCTX_A' }),
  ),
  onEvent('userPromptSubmitted', 'ups-exit2', 'exit 2: a warning, the prompt goes through', {
    err: 'ZQUPSW_A\n',
    exit: 2,
  }),
  onEvent(
    'UserPromptSubmit',
    'ups-pascal-hso',
    "PascalCase key, Claude's hookSpecificOutput context: ignored",
    out({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ZQHSOCTX_A' },
    }),
  ),
  // Stop.
  onEvent(
    'agentStop',
    'stop-block-once',
    'decision block once: the reason is the next prompt',
    onceThen(out({ decision: 'block', reason: 'ZQSTOP_A' })),
  ),
  onEvent(
    'Stop',
    'stop-pascal-block-once',
    'PascalCase Stop, block once',
    onceThen(out({ decision: 'block', reason: 'ZQSTOPP_A' })),
  ),
  onEvent(
    'agentStop',
    'stop-input',
    'agentStop input',
    {},
    { compare: ['input'], inputFields: ['stopReason', 'stop_hook_active'] },
  ),
  // Session start.
  onEvent(
    'sessionStart',
    'start-context',
    'additionalContext reaches the model',
    out({ additionalContext: 'ZQSTART_A' }),
  ),
];
