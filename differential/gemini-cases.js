// The Gemini CLI cases, shaped as in claude-cases.js: the model's turns, the hooks (project
// `.gemini/settings.json`, and user where named; `timeout` in milliseconds), what each hook id does.
// A silent recorder hook is added on every recorded event by world.js.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${GEMINI_SESSION_ID}`-style strings are shell syntax in hook commands.

const hook = (id, extra = {}) => ({
  type: 'command',
  command: `node "$GEMINI_PROJECT_DIR"/.gemini/hooks/h.mjs ${id}`,
  ...extra,
});
const group = (matcher, ...hooks) => (matcher === null ? { hooks } : { matcher, hooks });
const shell = (command) => ({ name: 'run_shell_command', input: { command } });
const calls = (...tools) => ({ tools });
const TOUCH = [calls(shell('touch m_orig'))];
const WRITE = [calls({ name: 'write_file', input: { file_path: 'w.txt', content: 'ORIGINAL CONTENT\n' } })];
const out = (o) => ({ out: o });
const ctx = (event, text) => out({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
const deny = (reason) => out({ decision: 'deny', reason });

/** A case with one BeforeTool hook `a` on run_shell_command, the model running `touch m_orig`. */
const btCase = (name, about, a, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { BeforeTool: [group('run_shell_command', hook('a'))] },
  spec: { a },
  ...extra,
});
/** Hook `a` on BeforeTool under `matcher`, denying. */
const matchCase = (name, about, matcher, extra = {}) => ({
  name,
  about,
  turns: TOUCH,
  hooks: { BeforeTool: [group(matcher, hook('a'))] },
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
const onceThen = (first) => ({ when: [{ if: { stop_hook_active: false }, use: first }] });

export const GEMINI_CASES = [
  // Exit codes and plain output.
  btCase('bt-exit0-silent', 'exit 0, no output', {}),
  btCase('bt-exit0-plain', 'exit 0, plain text: allow, shown as a system message', { out: 'ZQPLAIN_A\n' }),
  btCase('bt-exit1-stderr', 'exit 1: a warning, the tool runs', { err: 'ZQWARN_A\n', exit: 1 }),
  btCase('bt-exit2-stderr', 'exit 2: blocks, stderr is the reason', { err: 'ZQEXIT2_A\n', exit: 2 }),
  btCase('bt-exit3-stderr', 'exit 3: blocks like 2', { err: 'ZQEXIT3_A\n', exit: 3 }),
  btCase('bt-exit2-silent', 'exit 2 without any output: no objection', { exit: 2 }),
  btCase('bt-exit2-both', 'exit 2 with stdout and stderr: stdout is the reason', {
    out: 'ZQOUT_A\n',
    err: 'ZQERR_A\n',
    exit: 2,
  }),
  btCase('bt-exit2-invalid-json', 'exit 2, stdout not valid JSON: blocks with the text', {
    out: '{"decision": ZQBROKEN_A\n',
    exit: 2,
  }),
  btCase('bt-json-on-stderr', 'a deny JSON on stderr, stdout empty', {
    err: '{"decision":"deny","reason":"ZQSTDERRJSON_A"}\n',
    exit: 2,
  }),
  btCase('bt-json-allow-exit2', 'an allow JSON with exit 2: the JSON decides', {
    out: { decision: 'allow' },
    exit: 2,
  }),
  btCase('bt-json-deny-exit1', 'a deny JSON with exit 1: the JSON decides', {
    ...deny('ZQDENY1_A'),
    exit: 1,
  }),
  btCase('bt-json-empty-exit2', '{} with exit 2: no objection', { out: {}, exit: 2 }),
  btCase('bt-json-double-encoded', 'a JSON string holding the JSON', {
    out: `${JSON.stringify(JSON.stringify({ decision: 'deny', reason: 'ZQDOUBLE_A' }))}\n`,
  }),
  btCase('bt-json-number', 'a bare number: no output', { out: '42\n', exit: 2 }),

  // JSON answer fields.
  btCase('bt-deny', 'decision deny with a reason', deny('ZQDENY_A')),
  btCase('bt-block', 'decision block', out({ decision: 'block', reason: 'ZQBLOCK_A' })),
  btCase('bt-deny-noreason', 'deny without a reason', out({ decision: 'deny' })),
  btCase('bt-allow', 'decision allow with a reason', out({ decision: 'allow', reason: 'ZQALLOW_A' })),
  btCase('bt-approve', 'decision approve (= allow)', out({ decision: 'approve' })),
  btCase(
    'bt-unknown-decision',
    'an unknown decision allows',
    out({ decision: 'maybe', reason: 'ZQMAYBE_A' }),
  ),
  btCase(
    'bt-ask',
    'decision ask: headless, the tool does not run',
    out({ decision: 'ask', reason: 'ZQASK_A' }),
  ),
  btCase('bt-reason-number', 'a deny whose reason is a number', out({ decision: 'deny', reason: 975310 })),
  btCase(
    'bt-continue-false',
    'continue:false with stopReason',
    out({ continue: false, stopReason: 'ZQSTOP_A' }),
  ),
  btCase(
    'bt-continue-false-deny',
    'continue:false wins over a deny',
    out({ continue: false, decision: 'deny', reason: 'ZQDENY_A' }),
  ),
  btCase('bt-systemmessage', 'systemMessage is shown to the user', out({ systemMessage: 'ZQSYS_A' })),
  btCase('bt-systemmessage-number', 'a systemMessage that is a number', out({ systemMessage: 975311 })),
  btCase(
    'bt-suppress',
    'suppressOutput with a systemMessage',
    out({ systemMessage: 'ZQSYS_A', suppressOutput: true }),
  ),
  btCase(
    'bt-tool-input-full',
    'tool_input with every argument: the rewritten command runs',
    ctxInput({ command: 'touch m_rewritten' }),
  ),
  btCase(
    'bt-tool-input-partial',
    'a partial tool_input rewrite of write_file (content only)',
    ctxInput({ content: 'REWRITTEN CONTENT\n' }),
    { turns: WRITE, hooks: { BeforeTool: [group('write_file', hook('a'))] } },
  ),
  btCase(
    'bt-timeout',
    'timeout 1000 ms on a hook that sleeps 4 s, then denies',
    { sleepMs: 4000, ...deny('ZQLATE_A') },
    {
      hooks: { BeforeTool: [group('run_shell_command', hook('a', { timeout: 1000 }))] },
    },
  ),
  btCase('bt-relative-command', 'a command relative to the cwd', deny('ZQREL_A'), {
    hooks: {
      BeforeTool: [group('run_shell_command', { type: 'command', command: 'node .gemini/hooks/h.mjs a' })],
    },
  }),

  // Matchers.
  matchCase('match-exact', 'matcher run_shell_command', 'run_shell_command'),
  matchCase('match-regex', 'matcher run_shell.*', 'run_shell.*'),
  matchCase('match-unanchored', 'matcher shell (an unanchored regex)', 'shell'),
  matchCase('match-alternation', 'matcher write_file|run_shell_command', 'write_file|run_shell_command'),
  matchCase('match-star', 'matcher *', '*'),
  matchCase('match-empty', 'matcher ""', ''),
  matchCase('match-none', 'no matcher', null),
  matchCase('match-padded', 'matcher with spaces around it (trimmed)', ' run_shell_command '),
  matchCase('match-anchored-miss', 'matcher ^shell$: no match', '^shell$'),
  matchCase(
    'match-invalid-regex',
    'matcher run_shell_command( (invalid regex: compared exactly)',
    'run_shell_command(',
  ),
  matchCase('match-wrong-case', 'matcher Run_Shell_Command: no match', 'Run_Shell_Command'),
  matchCase('match-other-tool', 'matcher read_file: no match', 'read_file'),
  onEvent(
    'BeforeAgent',
    'match-beforeagent-ignored',
    'a matcher on BeforeAgent is ignored',
    ctx('BeforeAgent', 'ZQBACTX_A'),
    {
      hooks: { BeforeAgent: [group('run_shell_command', hook('a'))] },
    },
  ),
  {
    name: 'match-sessionstart-source',
    about: 'SessionStart matchers startup (runs) and resume (does not)',
    turns: TOUCH,
    hooks: { SessionStart: [group('startup', hook('a')), group('resume', hook('b'))] },
    spec: { a: ctx('SessionStart', 'ZQSTARTUP_A'), b: ctx('SessionStart', 'ZQRESUME_B') },
  },

  // Several hooks.
  {
    name: 'multi-deny-deny',
    about: 'two denies: both reasons, in configuration order',
    turns: TOUCH,
    hooks: { BeforeTool: [group('run_shell_command', hook('a'), hook('b'))] },
    spec: { a: deny('ZQDENY_A'), b: deny('ZQDENY_B') },
  },
  {
    name: 'multi-deny-groups',
    about: 'two denies in two groups',
    turns: TOUCH,
    hooks: { BeforeTool: [group('run_shell_command', hook('a')), group('.*', hook('b'))] },
    spec: { a: deny('ZQDENY_A'), b: { sleepMs: 500, ...deny('ZQDENY_B') } },
  },
  {
    name: 'multi-allow-deny',
    about: 'allow + deny: blocks',
    turns: TOUCH,
    hooks: { BeforeTool: [group('run_shell_command', hook('a'), hook('b'))] },
    spec: { a: out({ decision: 'allow' }), b: deny('ZQDENY_B') },
  },
  {
    name: 'multi-sequential-rewrite',
    about: "sequential: the second hook gets the first one's tool_input",
    turns: TOUCH,
    hooks: {
      BeforeTool: [{ matcher: 'run_shell_command', sequential: true, hooks: [hook('a'), hook('b')] }],
    },
    spec: { a: ctxInput({ command: 'touch m_seq' }), b: {} },
    compare: ['input'],
    inputFields: ['tool_input'],
  },
  {
    name: 'multi-dedup',
    about: 'the same command in two groups runs once',
    turns: TOUCH,
    hooks: { BeforeTool: [group('run_shell_command', hook('a')), group('.*', hook('a'))] },
    spec: { a: ctx('BeforeTool', 'ZQCTX_A') },
  },
  {
    name: 'multi-user-and-project',
    about: 'a user hook and a project hook both run',
    turns: TOUCH,
    hooks: { BeforeTool: [group('run_shell_command', hook('a'))] },
    userHooks: { BeforeTool: [group('run_shell_command', hook('b'))] },
    spec: { a: out({ systemMessage: 'ZQSYS_A' }), b: deny('ZQUSERDENY_B') },
  },
  {
    name: 'config-disabled-name',
    about: 'hooksConfig.disabled names a hook: it does not run',
    turns: TOUCH,
    hooks: {
      BeforeTool: [
        group('run_shell_command', hook('a', { name: 'guard-a' }), hook('b', { name: 'guard-b' })),
      ],
    },
    settings: { hooksConfig: { disabled: ['guard-a'] } },
    spec: { a: deny('ZQDENY_A'), b: out({ systemMessage: 'ZQSYS_B' }) },
  },
  {
    name: 'config-hooks-disabled',
    about: 'hooksConfig.enabled: false turns every hook off',
    turns: TOUCH,
    hooks: { BeforeTool: [group('run_shell_command', hook('a'))] },
    settings: { hooksConfig: { enabled: false } },
    spec: { a: deny('ZQDENY_A') },
  },
  {
    name: 'config-hook-env',
    about: "a hook's own env field",
    turns: TOUCH,
    hooks: {
      BeforeTool: [group('run_shell_command', hook('a', { env: { HWDIFF_HOOK_VAR: 'from settings' } }))],
    },
    spec: { a: {} },
    compare: ['env'],
    envOnly: true,
    envVars: ['HWDIFF_HOOK_VAR'],
  },

  {
    name: 'config-hook-env-override',
    about: "a hook's own env setting GEMINI_CWD and GEMINI_SESSION_ID",
    turns: TOUCH,
    hooks: {
      BeforeTool: [
        group(
          'run_shell_command',
          hook('a', { env: { GEMINI_CWD: '/from/settings', GEMINI_SESSION_ID: 'from-settings' } }),
        ),
      ],
    },
    spec: { a: {} },
    compare: ['env'],
    envOnly: true,
    envVars: ['GEMINI_CWD', 'GEMINI_SESSION_ID'],
  },

  // AfterTool.
  onEvent('AfterTool', 'at-deny', 'a deny after the tool ran: the model gets the reason', deny('ZQATDENY_A')),
  onEvent('AfterTool', 'at-exit2', 'exit 2 after the tool ran', { err: 'ZQATERR_A\n', exit: 2 }),
  {
    name: 'at-context-two',
    about: 'two additionalContexts after the tool ran (one with markup)',
    turns: TOUCH,
    hooks: { AfterTool: [group(null, hook('a'), hook('b'))] },
    spec: { a: ctx('AfterTool', 'ZQATCTX_A <b>bold</b>'), b: ctx('AfterTool', 'ZQATCTX_B') },
  },
  onEvent(
    'AfterTool',
    'at-continue-false',
    'continue:false after the tool ran',
    out({ continue: false, stopReason: 'ZQSTOP_A' }),
  ),

  // BeforeAgent.
  onEvent('BeforeAgent', 'ba-deny', 'a deny: the model is not called', deny('ZQBADENY_A')),
  onEvent('BeforeAgent', 'ba-exit2', 'exit 2: the model is not called', { err: 'ZQBAERR_A\n', exit: 2 }),
  onEvent(
    'BeforeAgent',
    'ba-context',
    'additionalContext reaches the model',
    ctx('BeforeAgent', 'ZQBACTX_A'),
  ),
  onEvent(
    'BeforeAgent',
    'ba-continue-false',
    'continue:false',
    out({ continue: false, stopReason: 'ZQSTOP_A' }),
  ),

  // AfterAgent loops.
  onEvent(
    'AfterAgent',
    'aa-deny-once',
    'a deny once: a retry with the reason as the prompt',
    onceThen(deny('ZQRETRY_A')),
  ),
  onEvent(
    'AfterAgent',
    'aa-exit2-once',
    'exit 2 once: a retry with stderr',
    onceThen({ err: 'ZQRETRYERR_A\n', exit: 2 }),
  ),
  onEvent(
    'AfterAgent',
    'aa-continue-false',
    'continue:false on AfterAgent',
    out({ continue: false, stopReason: 'ZQSTOP_A' }),
  ),

  // BeforeModel: before each model call.
  onEvent('BeforeModel', 'bm-silent', 'a silent BeforeModel hook: every model call is made', {}),
  onEvent(
    'BeforeModel',
    'bm-deny-response',
    'a deny with llm_response: the model is not called',
    out({
      decision: 'deny',
      reason: 'ZQBMDENY_A',
      hookSpecificOutput: {
        hookEventName: 'BeforeModel',
        llm_response: {
          candidates: [{ content: { role: 'model', parts: ['Stand-in reply.'] }, finishReason: 'STOP' }],
        },
      },
    }),
  ),

  // SessionStart.
  onEvent(
    'SessionStart',
    'ss-context',
    'additionalContext reaches the model',
    ctx('SessionStart', 'ZQSSCTX_A'),
  ),
  onEvent('SessionStart', 'ss-deny-ignored', 'SessionStart cannot block', deny('ZQSSDENY_A')),
  onEvent(
    'SessionStart',
    'ss-systemmessage',
    'a SessionStart systemMessage',
    out({ systemMessage: 'ZQSSSYS_A' }),
  ),

  // What the hooks are given.
  onEvent('BeforeTool', 'input-beforetool', 'the stdin of a BeforeTool hook', {}, { compare: ['input'] }),
  onEvent('AfterTool', 'input-aftertool', 'the stdin of an AfterTool hook', {}, { compare: ['input'] }),
  onEvent('BeforeAgent', 'input-beforeagent', 'the stdin of a BeforeAgent hook', {}, { compare: ['input'] }),
  onEvent('AfterAgent', 'input-afteragent', 'the stdin of an AfterAgent hook', {}, { compare: ['input'] }),
  onEvent(
    'SessionStart',
    'input-sessionstart',
    'the stdin of a SessionStart hook',
    {},
    { compare: ['input'] },
  ),
  onEvent(
    'BeforeTool',
    'env-gemini-vars',
    'cwd, argv and the GEMINI_* variables',
    {},
    {
      compare: ['env'],
      envVars: ['HWDIFF_CUSTOM'],
      env: { HWDIFF_CUSTOM: 'custom value' },
    },
  ),
  btCase(
    'env-plans-dir-arg',
    '$GEMINI_PLANS_DIR in the command',
    {},
    {
      hooks: {
        BeforeTool: [
          group('run_shell_command', {
            type: 'command',
            command: 'node "$GEMINI_PROJECT_DIR"/.gemini/hooks/h.mjs a plans $GEMINI_PLANS_DIR',
          }),
        ],
      },
      compare: ['env'],
      envOnly: true,
      envVars: ['GEMINI_PLANS_DIR'],
    },
  ),
  btCase(
    'env-cwd-bare-arg',
    '$GEMINI_CWD and ${GEMINI_SESSION_ID} bare in the command',
    {},
    {
      hooks: {
        BeforeTool: [
          group('run_shell_command', {
            type: 'command',
            command:
              'node "$GEMINI_PROJECT_DIR"/.gemini/hooks/h.mjs a $GEMINI_CWD ${GEMINI_SESSION_ID} $CLAUDE_PROJECT_DIR',
          }),
        ],
      },
      compare: ['env'],
      envOnly: true,
    },
  ),
];

function ctxInput(toolInput) {
  return out({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: toolInput } });
}
