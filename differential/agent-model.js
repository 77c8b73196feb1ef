// What an agent does with a hookwerk decision, per dialect, as the contract (docs/contract.md §5, §6) defines
// the decision's fields (C-OUT-1): whether the tool runs and with which input, what the model is
// told, whether the agent goes on. This is the bridge that lets a decision JSON be compared with
// what the real tool visibly did. It is written from hookwerk's documented meaning of each field,
// never fitted to the real tool's answers, so a disagreement means the two engines disagree.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tokens } from './observe.js';

/**
 * @param {'claude'|'gemini'} dialect
 * @param {string} event
 * @param {object} input the firing's input
 * @param {object|undefined} d the decision (undefined: decide failed, nothing is acted on)
 * @param {{allowedTools: string[]}} ctx
 * @returns {{tool?: {name: string, input: object}, model: string[], user: string[], next?: boolean, stops: boolean}}
 */
export function effectOf(dialect, event, input, d, ctx) {
  const e = { model: [], user: [], stops: false };
  if (d === undefined) return e;
  const ctxTokens = tokens(d.additionalContext);
  const reasonTokens = tokens(d.reason);
  const goesOn = d.continue !== false;
  e.user = tokens(d.systemMessage);
  if (dialect === 'copilot') return copilotEffect(event, input, d, e, { ctxTokens, reasonTokens, goesOn });
  if (dialect === 'claude') {
    e.stops = !goesOn;
    switch (event) {
      case 'SessionStart':
        e.model = ctxTokens;
        break;
      case 'UserPromptSubmit':
        e.next = !d.blocked && goesOn;
        e.model = e.next ? ctxTokens : [];
        break;
      case 'PreToolUse': {
        // A top-level `allow` also means "no hook objected"; only a hook that allowed explicitly
        // (C-OUT-1 `permission`, or a run record's `permission`) overrides the agent's own
        // permission rules (here: --allowedTools).
        const held = d.blocked || d.decision === 'ask' || d.decision === 'defer';
        const explicit = d.permission === 'allow' || (d.runs ?? []).some((r) => r.permission === 'allow');
        const permitted = explicit || ctx.allowedTools.includes(input.tool_name);
        if (!held && permitted) e.tool = { name: input.tool_name, input: d.updatedInput ?? input.tool_input };
        e.model = [...ctxTokens, ...(held && d.decision !== 'defer' ? reasonTokens : [])];
        break;
      }
      case 'PostToolUse':
      case 'PostToolUseFailure':
        e.model = [...ctxTokens, ...(d.blocked ? reasonTokens : [])];
        break;
      case 'Stop':
        e.next = d.blocked && goesOn;
        e.model = d.blocked ? reasonTokens : [];
        break;
    }
    return e;
  }
  if (dialect === 'codex') {
    // docs/codex.md: a block holds the tool (its reason and the contexts reach the model); a rewrite
    // runs the new input; PostToolUse's block replaces the output with the reason; a Stop block is
    // the next prompt; `codex exec` shows hooks' messages nowhere and has no stop line.
    switch (event) {
      case 'SessionStart':
        e.model = goesOn ? ctxTokens : [];
        break;
      case 'UserPromptSubmit':
        e.next = !d.blocked && goesOn;
        e.model = e.next ? ctxTokens : [];
        break;
      case 'PreToolUse':
        if (!d.blocked) e.tool = { name: input.tool_name, input: d.updatedInput ?? input.tool_input };
        e.model = [...ctxTokens, ...(d.blocked ? reasonTokens : [])];
        break;
      case 'PostToolUse':
        e.model = [...ctxTokens, ...(d.blocked ? reasonTokens : [])];
        break;
      case 'Stop':
        e.next = d.blocked && goesOn;
        e.model = e.next ? reasonTokens : [];
        break;
    }
    e.user = [];
    return e;
  }
  switch (event) {
    case 'SessionStart':
      e.model = ctxTokens;
      break;
    // A stop on BeforeAgent / AfterAgent shows in `next` (no further model call): Gemini CLI's
    // json output prints no stop line for them, so `stops` is kept to the tool events.
    case 'BeforeAgent':
      e.next = !d.blocked && goesOn;
      e.model = e.next ? ctxTokens : [];
      break;
    case 'BeforeTool': {
      // docs/gemini.md: continue:false is checked before the block, and stops before the tool runs.
      e.stops = !goesOn;
      const held = d.blocked || d.decision === 'ask' || !goesOn;
      if (!held) e.tool = { name: input.tool_name, input: d.updatedInput ?? input.tool_input };
      e.model = d.blocked && goesOn ? reasonTokens : [];
      break;
    }
    case 'AfterTool':
      e.stops = !goesOn;
      e.model = goesOn ? [...ctxTokens, ...(d.blocked ? reasonTokens : [])] : [];
      break;
    case 'BeforeModel':
      // docs/gemini.md: a block means the model is not called (llm_response, if any, stands in).
      e.next = !d.blocked && goesOn;
      break;
    case 'AfterAgent':
      e.next = d.blocked && goesOn;
      e.model = e.next ? reasonTokens : [];
      break;
  }
  return e;
}

/**
 * docs/copilot.md: what Copilot CLI does with each decision field. A preToolUse `ask` is a denial
 * in headless mode; a permissionRequest deny cancels the call its preToolUse let through
 * (`cancels`, applied by run-case.js); `interrupt` (continue: false) stops the agent.
 */
function copilotEffect(event, input, d, e, { ctxTokens, reasonTokens, goesOn }) {
  e.stops = !goesOn;
  switch (event) {
    case 'sessionStart':
      e.model = ctxTokens;
      break;
    case 'userPromptSubmitted':
      e.next = !d.blocked;
      e.model = e.next ? [...ctxTokens, ...tokens(d.hookSpecificOutput?.modifiedPrompt)] : [];
      // A block is shown as `! <reason>`, an exit 2 warning as `! <stderr>` (systemMessage).
      if (d.blocked) e.user = [...new Set([...e.user, ...reasonTokens])].sort();
      break;
    case 'preToolUse': {
      const held = d.blocked || d.decision === 'ask';
      if (!held) e.tool = { name: input.toolName, input: d.updatedInput ?? argsOf(input.toolArgs) };
      e.model = held ? reasonTokens : [];
      break;
    }
    case 'permissionRequest':
      if (d.permission?.behavior === 'deny') {
        e.cancels = true;
        e.model = tokens(d.permission.message);
      }
      break;
    case 'postToolUse':
      e.model = d.blocked ? reasonTokens : [];
      break;
    case 'postToolUseFailure':
      e.model = ctxTokens;
      break;
    case 'agentStop':
      e.next = d.blocked;
      e.model = d.blocked ? reasonTokens : [];
      break;
  }
  return e;
}

function argsOf(value) {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/**
 * Carries out the tool calls the decisions let through, in the fresh project, as the tool would:
 * the comparison then looks at the same thing on both sides, the files the actions left. A call
 * whose input the tool would reject (a required argument missing) does nothing, as in the tool.
 * @param {'claude'|'gemini'} dialect
 * @param {{name: string, input: object}} call
 * @param {string} proj
 * @param {Record<string, string>} env
 */
export function carryOut(dialect, call, proj, env) {
  const i = call.input ?? {};
  const abs = (p) => (path.isAbsolute(p) ? p : path.join(proj, p));
  const str = (v) => typeof v === 'string';
  if (dialect === 'codex' && call.name === 'apply_patch') {
    if (str(i.command)) applyAddFiles(i.command, abs);
    return;
  }
  if (dialect === 'copilot') return carryOutCopilot(call, i, abs, str, proj, env);
  const shell = dialect === 'gemini' ? call.name === 'run_shell_command' : call.name === 'Bash';
  if (shell) {
    if (!str(i.command)) return;
    const cwd = str(i.dir_path) ? abs(i.dir_path) : proj;
    spawnSync('bash', ['-c', i.command], { cwd, env, timeout: 20_000, stdio: 'ignore' });
    return;
  }
  const write = dialect === 'claude' ? call.name === 'Write' : call.name === 'write_file';
  if (write) {
    if (!str(i.file_path) || !str(i.content)) return;
    mkdirSync(path.dirname(abs(i.file_path)), { recursive: true });
    writeFileSync(abs(i.file_path), i.content);
    return;
  }
  const edit = dialect === 'claude' ? call.name === 'Edit' : call.name === 'replace';
  if (edit) {
    if (!str(i.file_path) || !str(i.old_string) || !str(i.new_string) || !existsSync(abs(i.file_path)))
      return;
    const text = readFileSync(abs(i.file_path), 'utf8');
    if (!text.includes(i.old_string)) return;
    writeFileSync(
      abs(i.file_path),
      i.replace_all
        ? text.split(i.old_string).join(i.new_string)
        : text.replace(i.old_string, () => i.new_string),
    );
  }
}

/** The `*** Add File:` sections of a Codex patch (the only kind the cases make), written out. */
function applyAddFiles(patch, abs) {
  let file;
  let lines = [];
  const flush = () => {
    if (file === undefined) return;
    mkdirSync(path.dirname(abs(file)), { recursive: true });
    writeFileSync(abs(file), lines.map((l) => `${l}\n`).join(''));
  };
  for (const line of patch.split('\n')) {
    const m = /^\*\*\* Add File: (.+)$/.exec(line);
    if (m !== null) {
      flush();
      file = m[1].trim();
      lines = [];
    } else if (line.startsWith('*** ')) {
      flush();
      file = undefined;
    } else if (file !== undefined && line.startsWith('+')) lines.push(line.slice(1));
  }
  flush();
}

/** Copilot CLI's tools: `bash` {command}, `create` {path, file_text}, `edit` {path, old_str, new_str}. */
function carryOutCopilot(call, i, abs, str, proj, env) {
  if (call.name === 'bash') {
    if (str(i.command))
      spawnSync('bash', ['-c', i.command], { cwd: proj, env, timeout: 20_000, stdio: 'ignore' });
  } else if (call.name === 'create') {
    if (!str(i.path) || !str(i.file_text)) return;
    mkdirSync(path.dirname(abs(i.path)), { recursive: true });
    writeFileSync(abs(i.path), i.file_text);
  } else if (call.name === 'edit') {
    if (!str(i.path) || !str(i.old_str) || !str(i.new_str) || !existsSync(abs(i.path))) return;
    const text = readFileSync(abs(i.path), 'utf8');
    if (text.includes(i.old_str))
      writeFileSync(
        abs(i.path),
        text.replace(i.old_str, () => i.new_str),
      );
  }
}
