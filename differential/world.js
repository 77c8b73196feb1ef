// A case's world: a temp HOME and project (and plugin folder) holding the case's hook files, the
// hook script and its spec, and a folder the hooks record into. Both sides of a case get a world
// at the *same* paths, built the same way, one after the other: then cwd, CLAUDE_PROJECT_DIR,
// transcript paths and plugin paths are equal strings on both sides, and any difference the
// comparison finds is the engines', not the harness's.
import { copyFileSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HOOK_SCRIPT = fileURLToPath(new URL('./hook.mjs', import.meta.url));

/** Events every case records on, with a silent hook added last, so each firing's input is known. */
const RECORDED = {
  claude: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop'],
  gemini: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent'],
  codex: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'],
  copilot: [
    'sessionStart',
    'userPromptSubmitted',
    'preToolUse',
    'permissionRequest',
    'postToolUse',
    'postToolUseFailure',
    'agentStop',
  ],
};

/** Copilot hook keys (camelCase or PascalCase) → the event, for the recorder's argv. */
const COPILOT_KEYS = {
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  PermissionRequest: 'permissionRequest',
  UserPromptSubmit: 'userPromptSubmitted',
  Stop: 'agentStop',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
};

/** The recorder hook's id: its runs are the invocations; it is left out of "which hooks ran". */
export const RECORDER = 'rec';

/** Gemini CLI user settings that keep it offline and quiet: no usage statistics, no update check. */
export const GEMINI_USER_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

/**
 * @param {string} root the case's folder; the world is `<root>/w`
 * @param {'claude'|'gemini'|'codex'} dialect
 * @param {object} kase
 */
export function buildWorld(root, dialect, kase) {
  const base = path.join(root, 'w');
  rmSync(base, { recursive: true, force: true });
  const world = {
    base,
    home: path.join(base, 'home'),
    proj: path.join(base, 'proj'),
    rec: path.join(base, 'rec'),
    plugin: kase.plugin ? path.join(base, 'plugins', kase.plugin.folder ?? 'diffplug') : undefined,
  };
  for (const d of [world.home, world.proj, world.rec]) mkdirSync(d, { recursive: true });
  const spec = JSON.parse(JSON.stringify({ ...kase.spec, [RECORDER]: {} }).replaceAll('@PROJ@', world.proj));
  const dot = { claude: '.claude', gemini: '.gemini', codex: '.codex' }[dialect];
  const hooksDir =
    dialect === 'copilot'
      ? path.join(world.proj, '.github', 'hooks', 'scripts')
      : path.join(world.proj, dot, 'hooks');
  mkdirSync(hooksDir, { recursive: true });
  copyFileSync(HOOK_SCRIPT, path.join(hooksDir, 'h.mjs'));
  writeFileSync(path.join(hooksDir, 'spec.json'), JSON.stringify(spec, null, 1));
  for (const [rel, text] of Object.entries(kase.files ?? {})) {
    mkdirSync(path.dirname(path.join(world.proj, rel)), { recursive: true });
    writeFileSync(path.join(world.proj, rel), text);
  }

  if (dialect === 'copilot') {
    buildCopilotFiles(world, kase);
    return world;
  }
  const projectHooks = withRecorders(kase.hooks ?? {}, RECORDED[dialect], recorder(dialect));
  if (dialect === 'claude') {
    mkdirSync(path.join(world.home, '.claude'), { recursive: true });
    writeJson(
      path.join(world.home, '.claude', 'settings.json'),
      kase.userHooks ? { hooks: kase.userHooks } : {},
    );
    writeJson(path.join(world.proj, '.claude', 'settings.json'), { ...kase.settings, hooks: projectHooks });
    if (kase.localHooks)
      writeJson(path.join(world.proj, '.claude', 'settings.local.json'), { hooks: kase.localHooks });
    if (kase.plugin) {
      const p = world.plugin;
      mkdirSync(path.join(p, '.claude-plugin'), { recursive: true });
      mkdirSync(path.join(p, 'hooks'), { recursive: true });
      mkdirSync(path.join(p, 'scripts'), { recursive: true });
      writeJson(path.join(p, '.claude-plugin', 'plugin.json'), { name: kase.plugin.name, version: '1.0.0' });
      writeJson(path.join(p, 'hooks', 'hooks.json'), {
        description: 'differential',
        hooks: kase.plugin.hooks,
      });
      copyFileSync(HOOK_SCRIPT, path.join(p, 'scripts', 'h.mjs'));
      writeFileSync(path.join(p, 'scripts', 'spec.json'), JSON.stringify(spec, null, 1));
    }
  } else if (dialect === 'codex') {
    // The user layer: config.toml (the mock provider, the project trusted, user TOML hooks) and
    // hooks.json; the project layer: hooks.json and, when the case has one, config.toml.
    const codexHome = path.join(world.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    world.codexHome = codexHome;
    writeFileSync(path.join(codexHome, 'config.toml'), codexUserToml(world.proj, kase.userToml));
    if (kase.userHooks) writeJson(path.join(codexHome, 'hooks.json'), { hooks: kase.userHooks });
    writeJson(path.join(world.proj, '.codex', 'hooks.json'), { hooks: projectHooks });
    if (kase.projectToml) writeFileSync(path.join(world.proj, '.codex', 'config.toml'), kase.projectToml);
  } else {
    mkdirSync(path.join(world.home, '.gemini'), { recursive: true });
    writeJson(path.join(world.home, '.gemini', 'settings.json'), {
      ...GEMINI_USER_SETTINGS,
      ...(kase.userHooks ? { hooks: kase.userHooks } : {}),
    });
    writeJson(path.join(world.proj, '.gemini', 'settings.json'), { ...kase.settings, hooks: projectHooks });
  }
  return world;
}

/**
 * Copilot CLI's files: the recorder in `~/.copilot/hooks/0-rec.json` (user hooks run first, so it
 * runs before any case hook can stop the chain), `kase.userHooks` in `~/.copilot/hooks/user.json`,
 * `kase.hooks` in `.github/hooks/case.json` (and `kase.moreHooks` in `.github/hooks/more.json`, made
 * older or newer by `kase.moreFirst`), `kase.claudeHooks` in `.claude/settings.json`,
 * `kase.repoSettings` as `.github/copilot/settings.json`, `kase.userSettings` as
 * `~/.copilot/settings.json`. In hook entries `@H@ ID` stands for the hook script with ID and
 * the event (argv), so each record names its event (Copilot's camelCase input names none).
 */
function buildCopilotFiles(world, kase) {
  const script = '"$COPILOT_PROJECT_DIR"/.github/hooks/scripts/h.mjs';
  const fill = (hooks) => {
    const out = {};
    for (const [key, list] of Object.entries(hooks ?? {})) {
      const event = COPILOT_KEYS[key] ?? key;
      const line = (id) => JSON.stringify(`node ${script} ${id} ${event}`).slice(1, -1);
      out[key] = JSON.parse(JSON.stringify(list).replace(/@H@ (\w+)/g, (_m, id) => line(id)));
    }
    return out;
  };
  const userDir = path.join(world.home, '.copilot', 'hooks');
  mkdirSync(userDir, { recursive: true });
  const rec = {};
  for (const e of RECORDED.copilot) rec[e] = [{ type: 'command', bash: `node ${script} ${RECORDER} ${e}` }];
  const stamp = (file, s) => utimesSync(file, s, s);
  writeJson(path.join(userDir, '0-rec.json'), { version: 1, hooks: rec });
  stamp(path.join(userDir, '0-rec.json'), 1_700_000_000);
  if (kase.userHooks) {
    writeJson(path.join(userDir, 'user.json'), { version: 1, hooks: fill(kase.userHooks) });
    stamp(path.join(userDir, 'user.json'), 1_700_000_100);
  }
  if (kase.userSettings) writeJson(path.join(world.home, '.copilot', 'settings.json'), kase.userSettings);
  const repo = path.join(world.proj, '.github', 'hooks');
  const version = Object.hasOwn(kase, 'version') ? kase.version : 1;
  if (kase.hooks) {
    writeJson(path.join(repo, 'case.json'), {
      ...(version !== undefined ? { version } : {}),
      hooks: fill(kase.hooks),
    });
    stamp(path.join(repo, 'case.json'), 1_700_000_200);
  }
  if (kase.moreHooks) {
    writeJson(path.join(repo, 'more.json'), { version: 1, hooks: fill(kase.moreHooks) });
    stamp(path.join(repo, 'more.json'), kase.moreFirst ? 1_700_000_150 : 1_700_000_300);
  }
  if (kase.claudeHooks) {
    mkdirSync(path.join(world.proj, '.claude'), { recursive: true });
    writeJson(path.join(world.proj, '.claude', 'settings.json'), { hooks: fill(kase.claudeHooks) });
  }
  if (kase.repoSettings) {
    mkdirSync(path.join(world.proj, '.github', 'copilot'), { recursive: true });
    const settings = { ...kase.repoSettings };
    if (settings.hooks) settings.hooks = fill(settings.hooks);
    writeJson(path.join(world.proj, '.github', 'copilot', 'settings.json'), settings);
  }
}

/** Keeps the real tool's world for the artifacts, and frees its paths for hookwerk's world. */
export function setAside(world, root) {
  const to = path.join(root, 'real');
  rmSync(to, { recursive: true, force: true });
  renameSync(world.base, to);
  return to;
}

function recorder(dialect) {
  // Codex gives hooks no project variable: they run in the session folder (the project).
  const dir = {
    claude: '"$CLAUDE_PROJECT_DIR"/.claude/hooks',
    gemini: '"$GEMINI_PROJECT_DIR"/.gemini/hooks',
    codex: '.codex/hooks',
  }[dialect];
  return { type: 'command', command: `node ${dir}/h.mjs ${RECORDER}` };
}

/**
 * Codex's user config.toml: the mock provider (runCodex fills in @MOCK@), `extra` (the case's own
 * user settings) before it, and the project trusted so its hooks and config are read.
 */
export function codexUserToml(proj, extra) {
  return [
    'model = "gpt-5.5"',
    'model_provider = "mock"',
    'check_for_update_on_startup = false',
    extra ?? '',
    '[model_providers.mock]',
    'name = "mock"',
    'base_url = "@MOCK@/v1"',
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    `[projects.${JSON.stringify(proj)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n');
}

function withRecorders(hooks, events, handler) {
  const out = { ...hooks };
  for (const e of events) out[e] = [...(out[e] ?? []), { matcher: '*', hooks: [handler] }];
  return out;
}

function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
