// The Claude Code cases. Each: the model's turns (the mock makes Claude Code call these tools), the
// hooks (project `.claude/settings.json`, and user / local / plugin where named), and what each
// hook id does (spec: see hook.mjs). A silent recorder hook is added on every event by world.js.
// `@PROJ@` is replaced by the project's path (Write and Edit take absolute paths).
// `deliberate`: a difference SPEC C-ANS-4 / issue 19 keep on purpose; printed, not counted.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${CLAUDE_PLUGIN_ROOT}`-style strings are hook file syntax, expanded by the tools.

const hook = (id, extra = {}) => ({
  type: 'command',
  command: `node "$CLAUDE_PROJECT_DIR"/.claude/hooks/h.mjs ${id}`,
  ...extra,
});
const group = (matcher, ...hooks) => (matcher === null ? { hooks } : { matcher, hooks });
const bash = (command) => ({ name: 'Bash', input: { command, description: 'differential step' } });
const calls = (...tools) => ({ tools });
const TOUCH = [calls(bash('touch m_orig'))];
const WRITE = [calls({ name: 'Write', input: { file_path: '@PROJ@/w.txt', content: 'written\n' } })];
const EDIT = [
  calls({ name: 'Read', input: { file_path: '@PROJ@/e.txt' } }),
  calls({
    name: 'Edit',
    input: { file_path: '@PROJ@/e.txt', old_string: 'old line', new_string: 'new line' },
  }),
];
const out = (o) => ({ out: o });
const pre = (fields, top = {}) =>
  out({ ...top, hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
const deny = (reason) => pre({ permissionDecision: 'deny', permissionDecisionReason: reason });

/** A case with one PreToolUse hook `a` on Bash, the model running `touch m_orig`. */
const preCase = (name, about, a, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { PreToolUse: [group('Bash', hook('a'))] },
  spec: { a },
  ...extra,
});
/** A case with hook `a` on PreToolUse under `matcher`, denying, and the given turns. */
const matchCase = (name, about, matcher, turns = TOUCH, extra = {}) => ({
  name,
  about,
  turns,
  hooks: { PreToolUse: [group(matcher, hook('a'))] },
  spec: { a: deny('ZQMATCHED') },
  ...extra,
});
const onEvent = (event, name, about, a, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { [event]: [group(null, hook('a'))] },
  spec: { a },
  ...extra,
});
/** A case with one HTTP PreToolUse hook `a` on Bash. */
const httpCase = (name, about, a, handler = {}, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { PreToolUse: [group('Bash', { type: 'http', url: '@HOOKS@/hook/a', ...handler })] },
  spec: { a },
  ...extra,
});
const WRONG_TYPE =
  'docs/differences.md "Wrong-typed fields": hookwerk ignores the one field, Claude Code the whole output';
const onceThen = (first) => ({ when: [{ if: { stop_hook_active: false }, use: first }] });

export const CLAUDE_CASES = [
  // Exit codes and plain output.
  preCase('pre-exit0-silent', 'exit 0, no output: no objection', {}),
  preCase('pre-exit0-plain', 'exit 0, plain stdout: recorded only', { out: 'ZQPLAIN_A plain text\n' }),
  preCase('pre-exit0-stderr', 'exit 0 with stderr: nothing', { err: 'ZQERR0_A\n' }),
  preCase('pre-exit1', 'exit 1: a non-blocking error', { err: 'ZQERR1_A\n', exit: 1 }),
  preCase('pre-exit2', 'exit 2: blocks, stderr to the model', { err: 'ZQEXIT2_A\n', exit: 2 }),
  preCase('pre-exit3', 'exit 3: a non-blocking error', { err: 'ZQEXIT3_A\n', exit: 3 }),
  preCase('pre-exit2-json-allow', 'exit 2 with an allow JSON: blocks, stderr is the reason', {
    ...pre({ permissionDecision: 'allow', permissionDecisionReason: 'ZQJSONALLOW_A' }),
    err: 'ZQEXIT2STDERR_A\n',
    exit: 2,
  }),
  preCase('pre-exit1-json-deny', 'exit 1 with a deny JSON: the JSON decides', {
    ...deny('ZQJ1DENY_A'),
    exit: 1,
  }),
  preCase('pre-invalid-json', 'stdout starting with { that is not JSON', { out: '{not json ZQBAD_A\n' }),
  // Every JSON answer field on PreToolUse.
  preCase('pre-deny', 'permissionDecision deny with a reason', deny('ZQDENY_A')),
  preCase('pre-allow', 'permissionDecision allow (its reason is for the user)', {
    ...pre({ permissionDecision: 'allow', permissionDecisionReason: 'ZQALLOW_A' }),
  }),
  preCase('pre-ask', 'permissionDecision ask, headless', {
    ...pre({ permissionDecision: 'ask', permissionDecisionReason: 'ZQASK_A' }),
  }),
  preCase('pre-defer', 'permissionDecision defer, headless', {
    ...pre({ permissionDecision: 'defer', permissionDecisionReason: 'ZQDEFER_A' }),
  }),
  preCase('pre-updated-allow', 'allow with updatedInput: the rewritten command runs', {
    ...pre({
      permissionDecision: 'allow',
      updatedInput: { command: 'touch m_upd', description: 'rewritten' },
    }),
  }),
  preCase('pre-updated-only', 'updatedInput without a permissionDecision', {
    ...pre({ updatedInput: { command: 'touch m_upd', description: 'rewritten' } }),
  }),
  preCase('pre-context', 'additionalContext on an allowed call', {
    ...pre({ additionalContext: 'ZQCTX_A' }),
  }),
  preCase('pre-deny-context', 'deny with additionalContext', {
    ...pre({
      permissionDecision: 'deny',
      permissionDecisionReason: 'ZQDENY_A',
      additionalContext: 'ZQCTX_A',
    }),
  }),
  preCase('pre-continue-false', 'continue:false with stopReason', {
    out: { continue: false, stopReason: 'ZQSTOP_A' },
  }),
  preCase('pre-systemmessage', 'systemMessage (for the user, not the model)', {
    out: { systemMessage: 'ZQSYS_A' },
  }),
  preCase('pre-suppress', 'suppressOutput with an allow', {
    ...pre({ permissionDecision: 'allow' }, { suppressOutput: true }),
  }),
  preCase('pre-deny-noevent', 'hookSpecificOutput without hookEventName (deny)', {
    out: { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'ZQDENYNOEV_A' } },
  }),
  preCase('pre-deny-wrongevent', 'hookSpecificOutput naming another event (deny)', {
    out: {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'ZQDENYWRONG_A',
      },
    },
  }),
  preCase(
    'pre-deny-reason-number',
    'a deny whose permissionDecisionReason is a number',
    pre({ permissionDecision: 'deny', permissionDecisionReason: 975310 }),
    { deliberate: WRONG_TYPE },
  ),
  preCase(
    'pre-continue-string',
    'a deny with "continue": "no" (a wrong-typed field)',
    { ...deny('ZQDENY_A'), out: { ...deny('ZQDENY_A').out, continue: 'no' } },
    { deliberate: WRONG_TYPE },
  ),
  preCase('pre-top-decision-deny', 'top-level decision: "deny" (not a value Claude Code knows)', {
    out: { decision: 'deny', reason: 'ZQTOPDENY_A' },
  }),
  // Exit 2 with JSON on stdout: docs/differences.md asks for one case each.
  preCase('pre-exit2-json-deny', 'exit 2 with a deny JSON and stderr', {
    ...deny('ZQJSONDENY_A'),
    err: 'ZQEXIT2STDERR_A\n',
    exit: 2,
  }),
  preCase('pre-exit2-json-block', 'exit 2 with decision: block JSON and stderr', {
    out: { decision: 'block', reason: 'ZQJSONBLOCK_A' },
    err: 'ZQEXIT2STDERR_A\n',
    exit: 2,
  }),
  preCase('pre-exit2-json-context', 'exit 2 with additionalContext in the JSON', {
    ...pre({ additionalContext: 'ZQJSONCTX_A' }),
    err: 'ZQEXIT2STDERR_A\n',
    exit: 2,
  }),
  preCase('pre-exit2-json-continue', 'exit 2 with continue:false in the JSON', {
    out: { continue: false, stopReason: 'ZQSTOP_A' },
    err: 'ZQEXIT2STDERR_A\n',
    exit: 2,
  }),
  preCase('pre-exit2-json-noevent', 'exit 2 with a JSON lacking hookEventName', {
    out: { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'ZQJSONNOEV_A' } },
    err: 'ZQEXIT2STDERR_A\n',
    exit: 2,
  }),
  preCase('pre-legacy-block', 'decision: block (old form of deny)', {
    out: { decision: 'block', reason: 'ZQBLOCK_A' },
  }),
  preCase(
    'pre-legacy-approve',
    'decision: approve lets a tool outside --allowedTools run',
    { out: { decision: 'approve' } },
    {
      allowedTools: 'Read',
    },
  ),
  preCase(
    'pre-silent-notallowed',
    'a silent hook leaves the permission rules to decide',
    {},
    { allowedTools: 'Read' },
  ),
  preCase(
    'pre-allow-notallowed',
    'an explicit allow runs a tool outside --allowedTools',
    pre({ permissionDecision: 'allow' }),
    { allowedTools: 'Read' },
  ),
  preCase(
    'pre-timeout',
    '"timeout": 1 on a hook that sleeps 4 s, then denies',
    { sleepMs: 4000, ...deny('ZQLATE_A') },
    {
      hooks: { PreToolUse: [group('Bash', hook('a', { timeout: 1 }))] },
    },
  ),
  preCase('pre-async', 'async: true never decides', deny('ZQASYNC_A'), {
    hooks: { PreToolUse: [group('Bash', hook('a', { async: true }))] },
  }),
  preCase('config-disable-all-hooks', 'disableAllHooks: true in the project settings', deny('ZQDENY_A'), {
    settings: { disableAllHooks: true },
  }),
  preCase('pre-exec-form', 'exec form: command + args, ${CLAUDE_PROJECT_DIR} substituted', deny('ZQEXEC_A'), {
    hooks: {
      PreToolUse: [
        group('Bash', {
          type: 'command',
          command: 'node',
          args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/h.mjs', 'a'],
        }),
      ],
    },
  }),
  preCase('pre-relative-command', 'a command relative to the cwd', deny('ZQREL_A'), {
    hooks: { PreToolUse: [group('Bash', { type: 'command', command: 'node .claude/hooks/h.mjs a' })] },
  }),

  // Matchers.
  matchCase('match-exact', 'matcher Bash on Bash', 'Bash'),
  matchCase('match-pipe-list', 'matcher Bash|Write on Write', 'Bash|Write', WRITE),
  matchCase('match-edit-write', 'matcher Edit|Write on a Read then an Edit', 'Edit|Write', EDIT, {
    files: { 'e.txt': 'old line\n' },
  }),
  matchCase('match-comma-list', 'matcher "Write, Bash"', 'Write, Bash'),
  matchCase('match-star', 'matcher *', '*'),
  matchCase('match-empty', 'matcher ""', ''),
  matchCase('match-none', 'no matcher', null),
  matchCase('match-regex', 'matcher B.sh (a regex)', 'B.sh'),
  matchCase('match-regex-unanchored', 'matcher as.* (unanchored)', 'as.*'),
  matchCase('match-lowercase', 'matcher bash: case-sensitive, no match', 'bash'),
  matchCase('match-partial-name', 'matcher ash: a plain name is exact, no match', 'ash'),
  matchCase('match-mcp-regex', 'matcher mcp__.*: no match', 'mcp__.*'),
  onEvent(
    'UserPromptSubmit',
    'match-ups-ignored',
    'a matcher on UserPromptSubmit is ignored',
    out({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ZQUPSCTX_A' } }),
    {
      hooks: { UserPromptSubmit: [group('Bash', hook('a'))] },
    },
  ),
  {
    name: 'match-sessionstart-source',
    about: 'SessionStart matchers startup (runs) and resume (does not)',
    turns: TOUCH,
    hooks: { SessionStart: [group('startup', hook('a')), group('resume', hook('b'))] },
    spec: {
      a: out({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ZQSTARTUP_A' } }),
      b: out({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ZQRESUME_B' } }),
    },
  },

  // `if` rules.
  matchCase('if-rm-match', 'if Bash(rm *) on rm -f', 'Bash', [calls(bash('rm -f m_none'))], {
    hooks: { PreToolUse: [group('Bash', hook('a', { if: 'Bash(rm *)' }))] },
  }),
  matchCase(
    'if-compound',
    'if Bash(rm *) on touch && rm: every subcommand',
    'Bash',
    [calls(bash('touch m_orig && rm -f m_none'))],
    {
      hooks: { PreToolUse: [group('Bash', hook('a', { if: 'Bash(rm *)' }))] },
    },
  ),
  matchCase('if-nomatch', 'if Bash(rm *) on touch: the hook does not run', 'Bash', TOUCH, {
    hooks: { PreToolUse: [group('Bash', hook('a', { if: 'Bash(rm *)' }))] },
  }),
  matchCase(
    'if-env-prefix',
    'if Bash(rm *) on FOO=1 rm -f: the assignment is skipped',
    'Bash',
    [calls(bash('FOO=1 rm -f m_none'))],
    {
      hooks: { PreToolUse: [group('Bash', hook('a', { if: 'Bash(rm *)' }))] },
    },
  ),
  matchCase('if-write-glob', 'if Write(*.txt) on a Write of w.txt', 'Write', WRITE, {
    hooks: { PreToolUse: [group('Write', hook('a', { if: 'Write(*.txt)' }))] },
  }),
  matchCase('if-write-glob-nomatch', 'if Write(*.md) on a Write of w.txt', 'Write', WRITE, {
    hooks: { PreToolUse: [group('Write', hook('a', { if: 'Write(*.md)' }))] },
  }),

  // Several hooks on one firing: parallel, merged.
  {
    name: 'multi-allow-deny',
    about: 'allow + deny: deny wins',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: { a: pre({ permissionDecision: 'allow' }), b: deny('ZQDENY_B') },
  },
  {
    name: 'multi-ask-allow',
    about: 'ask + allow: ask wins',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: {
      a: pre({ permissionDecision: 'ask', permissionDecisionReason: 'ZQASK_A' }),
      b: pre({ permissionDecision: 'allow' }),
    },
  },
  {
    name: 'multi-deny-deny',
    about: 'two denies at once: whose reason the model gets',
    deliberate:
      'C-ANS-4: every deny reason joined in configuration order; Claude Code keeps the last to finish',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: { a: deny('ZQDENY_A'), b: deny('ZQDENY_B') },
  },
  {
    name: 'multi-deny-deny-slowfirst',
    about: 'A sleeps 1.5 s then denies, B denies at once',
    deliberate:
      'C-ANS-4: every deny reason joined in configuration order; Claude Code keeps the last to finish',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: { a: { sleepMs: 1500, ...deny('ZQLATE_A') }, b: deny('ZQDENY_B') },
  },
  {
    name: 'multi-updated-slowfirst',
    about: 'two updatedInputs, the first-configured finishing last',
    deliberate:
      'C-ANS-4: updatedInput of the last hook in configuration order; Claude Code: the last to finish',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: {
      a: {
        sleepMs: 1500,
        ...pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_upd_a' } }),
      },
      b: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_upd_b' } }),
    },
  },
  {
    name: 'multi-updated-slowsecond',
    about: 'two updatedInputs, the last-configured finishing last',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'), hook('b'))] },
    spec: {
      a: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_upd_a' } }),
      b: {
        sleepMs: 1500,
        ...pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_upd_b' } }),
      },
    },
  },
  {
    name: 'multi-context-two',
    about: 'two additionalContexts: both reach the model',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a')), group('*', hook('b'))] },
    spec: { a: pre({ additionalContext: 'ZQCTX_A' }), b: pre({ additionalContext: 'ZQCTX_B' }) },
  },
  {
    name: 'multi-dedup-sources',
    about: 'the same command in project and local settings runs once',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'))] },
    localHooks: { PreToolUse: [group('Bash', hook('a'))] },
    spec: { a: pre({ additionalContext: 'ZQCTX_A' }) },
  },
  {
    name: 'multi-user-and-project',
    about: 'a user hook and a project hook both run',
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'))] },
    userHooks: { PreToolUse: [group('Bash', hook('b'))] },
    spec: { a: pre({ additionalContext: 'ZQCTX_A' }), b: deny('ZQUSERDENY_B') },
  },

  {
    name: 'pre-two-calls',
    about: 'two Bash calls in one turn, the hook (if Bash(touch m_b*)) denies one',
    turns: [calls(bash('touch m_a'), bash('touch m_b'))],
    hooks: { PreToolUse: [group('Bash', hook('a', { if: 'Bash(touch m_b*)' }))] },
    spec: { a: deny('ZQDENY_A') },
  },
  {
    name: 'pre-once',
    about: 'once: true: the hook runs on the first call only',
    turns: [calls(bash('touch m_a')), calls(bash('touch m_b'))],
    hooks: { PreToolUse: [group('Bash', hook('a', { once: true }))] },
    spec: { a: pre({ additionalContext: 'ZQONCE_A' }) },
  },

  // PostToolUse feedback.
  onEvent('PostToolUse', 'post-block', 'decision: block after the tool ran: feedback to the model', {
    out: { decision: 'block', reason: 'ZQPOST_A' },
  }),
  onEvent('PostToolUse', 'post-exit2', 'exit 2 after the tool ran: stderr to the model', {
    err: 'ZQPOSTERR_A\n',
    exit: 2,
  }),
  onEvent('PostToolUse', 'post-context', 'additionalContext after the tool ran', {
    out: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ZQPOSTCTX_A' } },
  }),
  onEvent('PostToolUse', 'post-continue-false', 'continue:false after the tool ran', {
    out: { continue: false, stopReason: 'ZQSTOP_A' },
  }),
  onEvent(
    'PostToolUseFailure',
    'post-failure-context',
    'a failed Bash call: PostToolUseFailure context',
    {
      out: { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'ZQFAILCTX_A' } },
    },
    { turns: [calls(bash('touch m_orig; exit 3'))] },
  ),
  onEvent('PostToolUse', 'post-exit1', 'exit 1 after the tool ran: nothing', {
    err: 'ZQPOSTERR1_A\n',
    exit: 1,
  }),

  // UserPromptSubmit.
  onEvent('UserPromptSubmit', 'ups-block', 'decision: block: the prompt never reaches the model', {
    out: { decision: 'block', reason: 'ZQUPSBLOCK_A' },
  }),
  onEvent('UserPromptSubmit', 'ups-exit2', 'exit 2: the prompt never reaches the model', {
    err: 'ZQUPSERR_A\n',
    exit: 2,
  }),
  onEvent('UserPromptSubmit', 'ups-context', 'additionalContext reaches the model', {
    out: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ZQUPSCTX_A' } },
  }),
  onEvent('UserPromptSubmit', 'ups-plain', 'plain stdout becomes context', { out: 'ZQUPSPLAIN_A\n' }),
  onEvent('UserPromptSubmit', 'ups-continue-false', 'continue:false', {
    out: { continue: false, stopReason: 'ZQSTOP_A' },
  }),

  // SessionStart.
  onEvent('SessionStart', 'ss-context', 'additionalContext reaches the model', {
    out: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ZQSSCTX_A' } },
  }),
  onEvent('SessionStart', 'ss-plain', 'plain stdout becomes context', { out: 'ZQSSPLAIN_A\n' }),
  onEvent('SessionStart', 'ss-exit2', 'exit 2 cannot block SessionStart', { err: 'ZQSSERR_A\n', exit: 2 }),
  onEvent(
    'SessionStart',
    'ss-env-file',
    'CLAUDE_ENV_FILE: an exported variable reaches later Bash commands',
    { envFile: 'export ZZV=from_hook\n' },
    { turns: [calls(bash('echo "$ZZV" > m_env'))], compare: ['env'] },
  ),

  // Stop loops.
  onEvent(
    'Stop',
    'stop-block-once',
    'decision: block once: the agent goes on, reason as its instruction',
    onceThen(out({ decision: 'block', reason: 'ZQAGAIN_A' })),
  ),
  onEvent(
    'Stop',
    'stop-exit2-once',
    'exit 2 once: the agent goes on with stderr',
    onceThen({ err: 'ZQSTOPERR_A\n', exit: 2 }),
  ),
  onEvent('Stop', 'stop-continue-false', 'continue:false on Stop', {
    out: { continue: false, stopReason: 'ZQSTOP_A' },
  }),
  onEvent(
    'Stop',
    'stop-block-always',
    "a Stop hook that always blocks (the loop cap is the agent's)",
    {
      out: { decision: 'block', reason: 'ZQLOOP_A' },
    },
    { lastNextIsTheAgents: true },
  ),

  // What the hooks are given: stdin, cwd, env.
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
    'SessionStart',
    'input-sessionstart',
    'the stdin of a SessionStart hook',
    {},
    { compare: ['input'] },
  ),
  onEvent(
    'PreToolUse',
    'env-project',
    'cwd, argv and CLAUDE_* variables of a project hook',
    {},
    { compare: ['env'] },
  ),
  {
    name: 'env-custom-var',
    about: "a variable of the agent's environment reaches the hook",
    turns: TOUCH,
    hooks: { PreToolUse: [group('Bash', hook('a'))] },
    spec: { a: {} },
    compare: ['env'],
    env: { HWDIFF_CUSTOM: 'custom value' },
    envVars: ['HWDIFF_CUSTOM', 'ANTHROPIC_BASE_URL'],
  },

  // HTTP hooks: the case's hook server answers (see hook-server.js).
  httpCase('http-deny', 'an HTTP hook answers a deny in a 200 body', deny('ZQHTTPDENY_A')),
  httpCase('http-empty', 'an empty 200: no objection', { out: '' }),
  httpCase('http-500', 'a 500 with a deny body: a non-blocking error', {
    status: 500,
    ...deny('ZQHTTP500_A'),
  }),
  httpCase('http-plain', 'a 200 with plain text: not JSON output', { out: 'ZQHTTPPLAIN_A not json' }),
  httpCase('http-context', 'an HTTP hook gives additionalContext', pre({ additionalContext: 'ZQHTTPCTX_A' })),
  httpCase('http-updated', 'an HTTP hook rewrites the command', {
    ...pre({ permissionDecision: 'allow', updatedInput: { command: 'touch m_http_upd' } }),
  }),
  httpCase(
    'http-timeout',
    '"timeout": 1 on an HTTP hook that answers after 4 s',
    { sleepMs: 4000, ...deny('ZQLATE_A') },
    {
      timeout: 1,
    },
  ),
  httpCase('http-input', 'the POST body of an HTTP hook', {}, {}, { compare: ['input'] }),
  httpCase(
    'http-headers',
    'headers: $VAR expanded only for allowedEnvVars',
    {},
    {
      headers: {
        'X-Diff-Allowed': 'v=$HWDIFF_CUSTOM',
        'X-Diff-Braced': 'v=${HWDIFF_CUSTOM}',
        'X-Diff-Other': 'v=$HWDIFF_OTHER',
      },
      allowedEnvVars: ['HWDIFF_CUSTOM'],
    },
    { compare: ['env'], env: { HWDIFF_CUSTOM: 'allowed value', HWDIFF_OTHER: 'other value' } },
  ),

  // Plugins (--plugin-dir).
  {
    name: 'plugin-deny',
    about: 'a plugin hook (${CLAUDE_PLUGIN_ROOT}) denies',
    turns: TOUCH,
    plugin: {
      name: 'diffplug',
      hooks: {
        PreToolUse: [
          group('Bash', { type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}"/scripts/h.mjs p' }),
        ],
      },
    },
    spec: { p: deny('ZQPLUGIN_P') },
  },
  {
    name: 'plugin-sessionstart',
    about: 'a plugin SessionStart hook gives context',
    turns: TOUCH,
    plugin: {
      name: 'diffplug',
      hooks: {
        SessionStart: [
          group(null, { type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}"/scripts/h.mjs p' }),
        ],
      },
    },
    spec: {
      p: out({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ZQPLUGINCTX_P' } }),
    },
  },
  {
    name: 'plugin-env',
    about:
      'CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA of a plugin hook (folder name differs from plugin name)',
    turns: TOUCH,
    plugin: {
      name: 'diffplug',
      folder: 'plugin-folder',
      hooks: {
        PreToolUse: [
          group('Bash', { type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}"/scripts/h.mjs p' }),
        ],
      },
    },
    spec: { p: {} },
    compare: ['env'],
  },
];
