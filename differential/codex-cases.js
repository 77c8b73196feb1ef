// The Codex CLI cases. Each: the model's turns (the mock makes Codex call `exec_command` or its
// `apply_patch` tool), the hooks (project `.codex/hooks.json`; user `~/.codex/hooks.json`,
// `userToml` / `projectToml` for `[hooks]` in config.toml), and what each hook id does (spec: see
// hook.mjs). A silent recorder hook is added on every event by world.js. Tokens never appear in a
// command or a patch: Codex repeats those to the model.

const hook = (id, extra = {}) => ({ type: 'command', command: `node .codex/hooks/h.mjs ${id}`, ...extra });
const group = (matcher, ...hooks) => (matcher === null ? { hooks } : { matcher, hooks });
const sh = (command) => ({ name: 'shell', input: { command } });
const patch = (file, line) => ({
  name: 'apply_patch',
  input: { patch: `*** Begin Patch\n*** Add File: ${file}\n+${line}\n*** End Patch\n` },
});
const calls = (...tools) => ({ tools });
const TOUCH = [calls(sh('touch m_orig'))];
const PATCH = [calls(patch('p.txt', 'patched'))];
const out = (o) => ({ out: o });
const hso = (event, fields, top = {}) =>
  out({ ...top, hookSpecificOutput: { hookEventName: event, ...fields } });
const pre = (fields, top = {}) => hso('PreToolUse', fields, top);
const deny = (reason) => pre({ permissionDecision: 'deny', permissionDecisionReason: reason });
const onceThen = (first) => ({ when: [{ if: { stop_hook_active: false }, use: first }] });

/** One PreToolUse hook `a` on Bash, the model running `touch m_orig`. */
const preCase = (name, about, a, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { PreToolUse: [group('Bash', hook('a', extra.handler ?? {}))] },
  spec: { a },
  ...extra,
});
/** Hook `a` on PreToolUse under `matcher`, denying, and the given turns. */
const matchCase = (name, about, matcher, turns = TOUCH) => ({
  name,
  about,
  turns,
  hooks: { PreToolUse: [group(matcher, hook('a'))] },
  spec: { a: deny('ZQMATCHED') },
});
const onEvent = (event, name, about, a, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { [event]: [group(null, hook('a'))] },
  spec: { a },
  ...extra,
});
const tomlHook = (event, matcher, id) =>
  `[[hooks.${event}]]\n${matcher === null ? '' : `matcher = ${JSON.stringify(matcher)}\n`}[[hooks.${event}.hooks]]\ntype = "command"\ncommand = "node .codex/hooks/h.mjs ${id}"\n`;

export const CODEX_CASES = [
  // Exit codes and plain output.
  preCase('pre-exit0-silent', 'exit 0, no output: no objection', {}),
  preCase('pre-exit0-plain', 'exit 0, plain stdout: ignored', { out: 'ZQPLAIN_A plain text\n' }),
  preCase('pre-exit0-stderr', 'exit 0 with stderr: nothing', { err: 'ZQERR0_A\n' }),
  preCase('pre-exit1', 'exit 1: a failed hook, the tool runs', { err: 'ZQERR1_A\n', exit: 1 }),
  preCase('pre-exit2', 'exit 2 with stderr: blocks, stderr is the reason', { err: 'ZQEXIT2_A\n', exit: 2 }),
  preCase('pre-exit2-empty-stderr', 'exit 2 with an empty stderr: failed, not a block', {
    out: 'ZQOUT2_A\n',
    exit: 2,
  }),
  preCase('pre-exit2-json-deny', 'exit 2: stderr is the reason, a JSON deny on stdout is ignored', {
    ...deny('ZQJSONDENY_A'),
    err: 'ZQEXIT2STDERR_A\n',
    exit: 2,
  }),
  preCase('pre-exit3', 'exit 3: a failed hook', { err: 'ZQEXIT3_A\n', exit: 3 }),
  preCase('pre-exit1-json-deny', 'exit 1 with a JSON deny: ignored, the tool runs', {
    ...deny('ZQDENY1_A'),
    exit: 1,
  }),
  // JSON output.
  preCase('pre-json-deny', 'permissionDecision deny + reason: blocks', deny('ZQDENY_A')),
  preCase(
    'pre-json-deny-noreason',
    'deny without a reason: unsupported, the tool runs',
    pre({ permissionDecision: 'deny' }),
  ),
  preCase(
    'pre-json-block',
    'legacy decision block + reason: blocks',
    out({ decision: 'block', reason: 'ZQBLOCK_A' }),
  ),
  preCase(
    'pre-json-block-blank',
    'decision block with a blank reason: unsupported',
    out({ decision: 'block', reason: ' ' }),
  ),
  preCase(
    'pre-json-decision-deny',
    'decision "deny": not a Codex value, failed',
    out({ decision: 'deny', reason: 'ZQDD_A' }),
  ),
  preCase(
    'pre-json-approve',
    'decision approve: unsupported',
    out({ decision: 'approve', reason: 'ZQAPPROVE_A' }),
  ),
  preCase(
    'pre-json-ask',
    'permissionDecision ask: unsupported, the tool runs',
    pre({ permissionDecision: 'ask', permissionDecisionReason: 'ZQASK_A' }),
  ),
  preCase(
    'pre-json-allow-alone',
    'permissionDecision allow without updatedInput: unsupported',
    pre({ permissionDecision: 'allow', permissionDecisionReason: 'ZQALLOW_A' }),
  ),
  preCase(
    'pre-json-allow-updated',
    'allow + updatedInput: the rewritten command runs',
    pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_new' } }),
  ),
  preCase(
    'pre-json-updated-no-allow',
    'updatedInput without allow: unsupported, the original runs',
    pre({ updatedInput: { command: 'touch m_new' } }),
  ),
  preCase(
    'pre-json-unknown-field',
    'an unknown top-level field: the whole output is invalid',
    out({ decision: 'block', reason: 'ZQUNKNOWN_A', extra: 1 }),
  ),
  preCase(
    'pre-json-no-eventname',
    'hookSpecificOutput without hookEventName: invalid',
    out({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'ZQNOEVENT_A' } }),
  ),
  preCase(
    'pre-json-continue-false',
    'continue:false: unsupported on PreToolUse',
    out({ continue: false, stopReason: 'ZQSTOP_A' }),
  ),
  preCase(
    'pre-json-context',
    'additionalContext: a developer message',
    pre({ additionalContext: 'ZQCTX_A' }),
  ),
  preCase(
    'pre-json-deny-context',
    'a deny with additionalContext: both reach the model',
    pre({ permissionDecision: 'deny', permissionDecisionReason: 'ZQDENYC_A', additionalContext: 'ZQCTXD_A' }),
  ),
  preCase(
    'pre-json-systemmessage',
    'systemMessage: accepted, not given to the model',
    out({ systemMessage: 'ZQSYS_A' }),
  ),
  preCase('pre-json-broken', 'stdout starting with { that is not JSON: failed', {
    out: '{"decision": "block", "reason": "ZQBROKEN_A"',
  }),
  preCase(
    'pre-timeout',
    'a hook past its timeout (1 s) is killed: the tool runs',
    { sleepMs: 4000, err: 'ZQSLOW_A\n', exit: 2 },
    {
      handler: { timeout: 1 },
    },
  ),
  // Several hooks.
  {
    name: 'pre-two-blocks',
    about: 'two blocks: the first hook in configuration order gives the reason',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: { a: { sleepMs: 600, ...deny('ZQFIRST_A') }, b: { err: 'ZQSECOND_B\n', exit: 2 } },
  },
  {
    name: 'pre-block-beats-rewrite',
    about: "a block wins over another hook's rewrite",
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: {
      a: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_new' } }),
      b: deny('ZQDENYB_B'),
    },
  },
  {
    name: 'pre-same-command-twice',
    about: 'the same hook in two groups runs twice (no de-duplication)',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a')), group('*', hook('a'))] },
    spec: { a: pre({ additionalContext: 'ZQTWICE_A' }) },
  },
  {
    name: 'pre-user-before-project',
    about: 'user and project hooks add up; the user layer comes first',
    turns: TOUCH,
    userHooks: { PreToolUse: [group('Bash', hook('u'))] },
    hooks: { PreToolUse: [group('Bash', hook('a'))] },
    spec: { u: deny('ZQUSER_U'), a: deny('ZQPROJECT_A') },
  },
  {
    name: 'pre-two-contexts',
    about: "every hook's additionalContext reaches the model",
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: { a: pre({ additionalContext: 'ZQCTX1_A' }), b: pre({ additionalContext: 'ZQCTX2_B' }) },
  },
  // Matchers.
  matchCase('match-bash', 'matcher Bash matches the shell tool', 'Bash'),
  matchCase('match-regex', 'matcher ^Ba.*$ is a regex on the tool name', '^Ba.*$'),
  matchCase('match-lowercase', 'matcher bash does not match (case-sensitive)', 'bash'),
  matchCase(
    'match-exec-command',
    "matcher exec_command (the model's tool name) does not match",
    'exec_command',
  ),
  matchCase('match-star', 'matcher * matches everything', '*'),
  matchCase('patch-write', 'a patch is matched by Write', 'Write', PATCH),
  matchCase('patch-edit-write', 'a patch is matched by Edit|Write', 'Edit|Write', PATCH),
  matchCase('patch-apply-patch', 'a patch is matched by apply_patch', 'apply_patch', PATCH),
  matchCase('patch-bash', 'a patch is not matched by Bash', 'Bash', PATCH),
  // PostToolUse.
  onEvent(
    'PostToolUse',
    'post-block',
    'decision block: the output is replaced by the reason',
    out({ decision: 'block', reason: 'ZQPOSTB_A' }),
  ),
  onEvent('PostToolUse', 'post-exit2', 'exit 2: the output is replaced by stderr', {
    err: 'ZQPOST2_A\n',
    exit: 2,
  }),
  onEvent(
    'PostToolUse',
    'post-context',
    'additionalContext: a developer message',
    hso('PostToolUse', { additionalContext: 'ZQPOSTC_A' }),
  ),
  onEvent(
    'PostToolUse',
    'post-continue-false',
    'continue:false: the output is replaced by stopReason, the turn goes on',
    out({ continue: false, stopReason: 'ZQPOSTSTOP_A' }),
  ),
  onEvent(
    'PostToolUse',
    'post-reason-alone',
    'a reason without a decision: failed',
    out({ reason: 'ZQPOSTR_A' }),
  ),
  // UserPromptSubmit.
  onEvent('UserPromptSubmit', 'ups-plain', 'plain stdout: context after the prompt', {
    out: 'ZQUPSPLAIN_A\n',
  }),
  onEvent(
    'UserPromptSubmit',
    'ups-block',
    'decision block: the model is never called',
    out({ decision: 'block', reason: 'ZQUPSB_A' }),
  ),
  onEvent('UserPromptSubmit', 'ups-exit2', 'exit 2: the model is never called', {
    err: 'ZQUPS2_A\n',
    exit: 2,
  }),
  onEvent(
    'UserPromptSubmit',
    'ups-context',
    'additionalContext',
    hso('UserPromptSubmit', { additionalContext: 'ZQUPSC_A' }),
  ),
  onEvent(
    'UserPromptSubmit',
    'ups-continue-false',
    'continue:false: the model is never called',
    out({ continue: false, stopReason: 'ZQUPSS_A' }),
  ),
  // Stop.
  onEvent(
    'Stop',
    'stop-block-once',
    'decision block: its reason is the next prompt',
    onceThen(out({ decision: 'block', reason: 'ZQSTOPB_A' })),
  ),
  onEvent(
    'Stop',
    'stop-exit2-once',
    'exit 2: stderr is the next prompt',
    onceThen({ err: 'ZQSTOP2_A\n', exit: 2 }),
  ),
  onEvent('Stop', 'stop-plain', 'plain stdout: a failed hook, nothing happens', { out: 'ZQSTOPPLAIN_A\n' }),
  onEvent(
    'Stop',
    'stop-continue-false',
    'continue:false: no further model call',
    out({ continue: false, stopReason: 'ZQSTOPS_A' }),
  ),
  onEvent(
    'Stop',
    'stop-hso',
    'hookSpecificOutput on Stop: an unknown field, failed',
    onceThen(hso('Stop', { additionalContext: 'ZQSTOPH_A' }, { decision: 'block', reason: 'ZQSTOPHB_A' })),
  ),
  // SessionStart.
  onEvent('SessionStart', 'ss-plain', 'plain stdout: context before the prompt', { out: 'ZQSSPLAIN_A\n' }),
  onEvent(
    'SessionStart',
    'ss-context',
    'additionalContext',
    hso('SessionStart', { additionalContext: 'ZQSSC_A' }),
  ),
  onEvent('SessionStart', 'ss-exit2', 'exit 2: failed, the session goes on', { err: 'ZQSS2_A\n', exit: 2 }),
  onEvent(
    'SessionStart',
    'ss-decision-block',
    'decision block: an unknown field on SessionStart',
    out({ decision: 'block', reason: 'ZQSSB_A' }),
  ),
  {
    name: 'ss-matcher-resume',
    about: 'SessionStart matcher resume does not run on startup',
    turns: TOUCH,
    hooks: { SessionStart: [group('resume', hook('a')), group('startup', hook('b'))] },
    spec: { a: { out: 'ZQRESUME_A\n' }, b: { out: 'ZQSTARTUP_B\n' } },
  },
  // Sources.
  {
    name: 'src-project-toml',
    about: '[hooks] in the project config.toml',
    turns: TOUCH,
    projectToml: tomlHook('PreToolUse', 'Bash', 'a'),
    spec: { a: deny('ZQTOML_A') },
  },
  {
    name: 'src-user-toml',
    about: '[hooks] in the user config.toml',
    turns: TOUCH,
    userToml: tomlHook('PreToolUse', 'Bash', 'u'),
    spec: { u: deny('ZQUSERTOML_U') },
  },
  {
    name: 'src-json-and-toml',
    about: 'hooks.json and config.toml of one layer both load',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'))] },
    projectToml: tomlHook('PreToolUse', 'Bash', 'b'),
    spec: { a: pre({ additionalContext: 'ZQJSON_A' }), b: pre({ additionalContext: 'ZQTOML_B' }) },
  },
  {
    name: 'src-unknown-handler-type',
    about: 'a handler of an unknown type: Codex skips the whole hooks.json',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), { type: 'http', url: 'http://127.0.0.1:9/hook' })] },
    spec: { a: deny('ZQSKIPPED_A') },
  },
  {
    name: 'feature-hooks-disabled',
    about: '[features] hooks = false: no hook runs',
    turns: TOUCH,
    userToml: '[features]\nhooks = false\n',
    hooks: { PreToolUse: [group('Bash', hook('a'))] },
    spec: { a: deny('ZQOFF_A') },
  },
  // What hooks get.
  onEvent('PreToolUse', 'input-pretooluse', 'the stdin of a PreToolUse hook', {}, { compare: ['input'] }),
  onEvent('PostToolUse', 'input-posttooluse', 'the stdin of a PostToolUse hook', {}, { compare: ['input'] }),
  onEvent(
    'UserPromptSubmit',
    'input-userpromptsubmit',
    'the stdin of a UserPromptSubmit hook',
    {},
    { compare: ['input'] },
  ),
  onEvent('Stop', 'input-stop', 'the stdin of a Stop hook', {}, { compare: ['input'] }),
  onEvent(
    'PreToolUse',
    'env-pretooluse',
    'cwd, argv and variables of a hook (no CLAUDE_PROJECT_DIR)',
    {},
    { compare: ['env'] },
  ),
];

// Probes of what docs/codex.md decided from Codex's code rather than from an observation.
CODEX_CASES.push(
  preCase(
    'pre-json-other-eventname',
    'hookEventName of another event: Codex checks only that it is an event name',
    out({
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'ZQOTHER_A',
      },
    }),
  ),
  preCase(
    'pre-json-defer',
    'permissionDecision defer: not a Codex value, failed',
    pre({ permissionDecision: 'defer' }),
  ),
  preCase(
    'pre-timeout-zero',
    'timeout 0 is 1 s',
    { sleepMs: 4000, err: 'ZQZERO_A\n', exit: 2 },
    { handler: { timeout: 0 } },
  ),
  preCase(
    'pre-async',
    'async: true runs in the background and never decides',
    { err: 'ZQASYNC_A\n', exit: 2 },
    {
      handler: { async: true },
    },
  ),
  {
    name: 'pre-two-rewrites',
    about: 'two rewrites, the first slower: Codex runs the one that finished last',
    deliberate:
      'differences.md "updatedInput of several hooks" (Codex): hookwerk the last in configuration order',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: {
      a: {
        sleepMs: 600,
        ...pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_first' } }),
      },
      b: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_second' } }),
    },
  },
  {
    name: 'pre-two-rewrites-slowsecond',
    about: 'two rewrites, the second slower: which one runs',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: {
      a: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_first' } }),
      b: {
        sleepMs: 600,
        ...pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_second' } }),
      },
    },
  },
  {
    name: 'match-invalid-regex',
    about: 'a matcher that is not a valid regex: Codex skips its group',
    turns: TOUCH,
    hooks: { PreToolUse: [group('([', hook('a')), group('Bash', hook('b'))] },
    spec: { a: deny('ZQBADRE_A'), b: pre({ additionalContext: 'ZQGOODRE_B' }) },
  },
  matchCase('match-alternatives', 'matcher Edit|Bash: exact names split on |', 'Edit|Bash'),
  matchCase('match-substring', 'matcher Bas (exact name): does not match Bash', 'Bas'),
  matchCase('match-dot-regex', 'matcher B.sh is an unanchored regex', 'B.sh'),
  onEvent(
    'UserPromptSubmit',
    'ups-plain-bracket',
    'plain stdout that starts with [: JSON-like, not context',
    {
      out: '[note] ZQBRACKET_A\n',
    },
  ),
  onEvent(
    'UserPromptSubmit',
    'ups-block-context',
    'a block with additionalContext: the model is never called',
    {
      ...hso(
        'UserPromptSubmit',
        { additionalContext: 'ZQUPSBC_A' },
        { decision: 'block', reason: 'ZQUPSBR_A' },
      ),
    },
  ),
  onEvent(
    'SessionStart',
    'ss-continue-false',
    'continue:false on SessionStart: the model is never called',
    out({ continue: false, stopReason: 'ZQSSSTOP_A' }),
  ),
  onEvent(
    'PostToolUse',
    'post-mcp-output-shell',
    'updatedMCPToolOutput on the shell tool: the whole answer fails',
    {
      ...hso(
        'PostToolUse',
        { updatedMCPToolOutput: { content: [] } },
        { decision: 'block', reason: 'ZQMCP_A' },
      ),
    },
  ),
  onEvent(
    'Stop',
    'stop-block-noreason',
    'Stop decision block without a reason: failed',
    out({ decision: 'block' }),
  ),
  onEvent(
    'PostToolUse',
    'post-suppress',
    'suppressOutput on PostToolUse: unsupported',
    out({ suppressOutput: true, decision: 'block', reason: 'ZQSUPP_A' }),
  ),
);
