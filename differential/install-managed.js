// [T-MGD-1, T-MGD-2] The install suite's managed steps: `hookwerk install --agent codex --system`
// against the real Codex CLI. As root in a private mount namespace (namespace.js, the tests'
// own), temp folders stand at /etc/codex and /etc/hookwerk: the managed policy denies `touch`,
// install writes its block into /etc/codex/requirements.toml, and `codex exec` (no hook trust
// bypass: managed hooks need no review) is driven against the mock model. It checks that the
// deny holds, that the user's own switches cannot turn it off once the administrator's file pins
// `[features] hooks = true`, what those switches do without the pin, that an allowed command
// runs, and that uninstall gives the file back and leaves Codex with no hook of ours. Without
// root, bwrap or a mount namespace the steps print `not run` with the reason, never a pass.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCodex } from './codex-tool.js';
import { HOOKWERK_ROOT } from './hookwerk-side.js';
import { ECHO, MANAGED_STEPS } from './install-cases.js';
import { INSTALLED_BIN, namespaceArgs, namespaceProblem } from './namespace.js';
import { runProcess } from './processes.js';
import { clipAt, firstLine, readOr } from './step-text.js';
import { codexUserToml } from './world.js';

const FILE = '/etc/codex/requirements.toml';
/** What the model was told, clipped in a step's line. */
const clip = clipAt(120);
/** The managed policy's one rule, and the call the model makes that it denies [T-MGD-1]. */
const DENY_RULE = 'Bash(touch *)';
const TOUCH = 'touch made-by-agent';
/** The administrator's file before install: install and uninstall keep it byte for byte. */
const ADMIN = "# the administrator's requirements: hookwerk's block goes below\n";
const PIN = '\n[features]\nhooks = true\n';

/**
 * The user's own ways to turn hooks off in Codex 0.171, and, for the run without the pin, what
 * docs/managed.md says each does then (`off`: hookwerk's managed hooks no longer run).
 */
const SWITCHES = [
  {
    name: 'features-off',
    what: '[features] hooks = false in ~/.codex/config.toml',
    toml: '[features]\nhooks = false\n',
    unpinnedOff: true,
  },
  {
    name: 'disable-flag',
    what: 'codex exec --disable hooks',
    args: ['--disable', 'hooks'],
    unpinnedOff: true,
  },
  {
    name: 'state-off',
    what: `[hooks.state."${FILE}:pre_tool_use:0:0"] enabled = false`,
    toml: `[hooks.state.${JSON.stringify(`${FILE}:pre_tool_use:0:0`)}]\nenabled = false\n`,
    unpinnedOff: false,
  },
];

/**
 * Runs the managed steps for Codex, adding each through `step(name, ok, detail)`, or
 * `skip(name, 'not run', why)` for all of them when this machine cannot run them.
 */
export async function managedSteps({ tool, spec, root, baseEnv, timeoutMs, step, skip }) {
  const why = existsSync(tool.bin) ? namespaceProblem() : `no Codex binary at ${tool.bin}`;
  if (why !== undefined) {
    for (const s of MANAGED_STEPS) skip(s.name, 'not run', why);
    return;
  }
  const ctx = { tool, spec, baseEnv, timeoutMs };

  const pinned = managedWorld(path.join(root, 'managed-pinned'), ADMIN + PIN);
  const install = await hookwerkIn(pinned, ['install', '--agent', 'codex', '--system']);
  const written = readFileSync(pinned.file, 'utf8');
  const block = /^# >>> hookwerk[^\n]*\n[\s\S]*?^# <<< hookwerk$/m.exec(written)?.[0] ?? '';
  const ours = (block.match(/^\[\[hooks\.PreToolUse\]\]$/gm) ?? []).length;
  step(
    'managed-installed',
    install.code === 0 && written.startsWith(ADMIN + PIN) && ours === 1,
    `exit ${install.code}${install.code !== 0 ? `: ${firstLine(install.stderr)}` : ''}; ` +
      `the administrator's text ${written.startsWith(ADMIN + PIN) ? 'kept' : 'CHANGED'}; ` +
      `${block === '' ? 'no hookwerk block' : `a block with ${ours} PreToolUse group`}`,
  );

  const main = await codexRun(ctx, pinned, 'plain', { turns: [TOUCH, ECHO] });
  const pres = main.hooks.filter((h) => h.event === 'PreToolUse').map((h) => h.status);
  step(
    'managed-blocks',
    main.denied && pres[0] === 'Blocked',
    `${main.blocked ? 'touch did not run' : 'touch ran'}; PreToolUse ${pres[0] ?? 'never ran'}; ` +
      `the model was told ${JSON.stringify(clip(main.told[0] ?? ''))}`,
  );
  const done = readOr(path.join(main.proj, 'done.txt'));
  step(
    'managed-allow-runs',
    done === 'ok\n' && pres[1] === 'Completed',
    `${done === undefined ? 'done.txt was not made' : `done.txt = ${JSON.stringify(done)}`}; PreToolUse ${pres[1] ?? 'never ran'} for the echo`,
  );

  const held = [];
  for (const s of SWITCHES) held.push({ s, r: await codexRun(ctx, pinned, `pinned-${s.name}`, s) });
  step(
    'managed-pin-holds',
    held.every((h) => h.r.denied),
    held.map((h) => `${h.s.what}: ${verdict(h.r)}`).join('; '),
  );

  const unpinned = managedWorld(path.join(root, 'managed-unpinned'), ADMIN);
  const install2 = await hookwerkIn(unpinned, ['install', '--agent', 'codex', '--system']);
  const warned = /hooks = true under \[features\]/.test(install2.stderr + install2.stdout);
  const seen = [];
  for (const s of SWITCHES) seen.push({ s, r: await codexRun(ctx, unpinned, `unpinned-${s.name}`, s) });
  // "off": the touch ran and no hook of ours did; anything else (a failed run) is not what the docs say.
  const off = (r) => !r.blocked && r.hooks.length === 0;
  step(
    'managed-unpinned',
    install2.code === 0 && seen.every((x) => (x.s.unpinnedOff ? off(x.r) : x.r.denied)),
    `install ${install2.code === 0 ? 'exit 0' : `exit ${install2.code}`}, ${warned ? 'warned about the missing pin' : 'no warning about the pin'}; ` +
      seen.map((x) => `${x.s.what}: ${verdict(x.r)}`).join('; '),
  );

  const un = await hookwerkIn(pinned, ['uninstall', '--agent', 'codex', '--system']);
  const back = readFileSync(pinned.file, 'utf8') === ADMIN + PIN;
  const after = await codexRun(ctx, pinned, 'uninstalled', { turns: [TOUCH] });
  step(
    'managed-uninstall',
    un.code === 0 && back && !after.blocked && after.hooks.length === 0,
    `exit ${un.code}${un.code !== 0 ? `: ${firstLine(un.stderr)}` : ''}; the file ${back ? 'byte-identical to before install' : 'differs from before install'}; ` +
      `then ${verdict(after)}`,
  );
}

/**
 * The folders bound at /etc/codex and /etc/hookwerk (root's, 0755, as an administrator's are),
 * the requirements file as the administrator wrote it, the managed policy denying `touch`.
 */
function managedWorld(base, adminText) {
  rmSync(base, { recursive: true, force: true });
  const binds = {};
  for (const target of ['/etc/codex', '/etc/hookwerk']) {
    const dir = path.join(base, `etc-${path.basename(target)}`);
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    binds[target] = dir;
  }
  const file = path.join(binds['/etc/codex'], 'requirements.toml');
  writeFileSync(file, adminText, { mode: 0o644 });
  writeFileSync(
    path.join(binds['/etc/hookwerk'], 'policy.json'),
    `${JSON.stringify({ permissions: { deny: [DENY_RULE] } })}\n`,
    { mode: 0o644 },
  );
  return { base, binds, file, home: path.join(base, 'root-home') };
}

/** `hookwerk …args` as root in the namespace (the checkout seen at /mnt/hookwerk). */
async function hookwerkIn(world, args) {
  mkdirSync(world.home, { recursive: true });
  const argv = [...namespaceArgs(world.binds, HOOKWERK_ROOT), '--', process.execPath, INSTALLED_BIN, ...args];
  const r = await runProcess('bwrap', argv, { cwd: world.base, env: env(world.home, {}), timeoutMs: 60_000 });
  writeFileSync(path.join(world.base, `${args.slice(0, 1).join('')}-stderr.txt`), r.stderr);
  return r;
}

/**
 * One `codex exec` in the namespace, in a fresh home and project of its own: the model asks for
 * each of `turns`, one per turn. `toml` goes into the user's config.toml, `args` onto codex's
 * command line. Returns whether the touch was kept from running, what the model was told after
 * each call, and Codex's `hook: <Event> <status>` lines.
 */
async function codexRun({ tool, spec, baseEnv, timeoutMs }, managed, name, o) {
  const base = path.join(managed.base, name);
  const world = {
    base,
    home: path.join(base, 'home'),
    proj: path.join(base, 'proj'),
    codexHome: path.join(base, 'home', '.codex'),
  };
  for (const d of [world.codexHome, world.proj]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(world.codexHome, 'config.toml'), codexUserToml(world.proj, o.toml));
  const turns = o.turns ?? [TOUCH];
  const kase = {
    turns: [...turns.map((c) => ({ tools: [spec.call(c)] })), { text: 'Done.' }],
    // Managed hooks need no review: neither the user's trust nor the bypass is given.
    bypassHookTrust: false,
    codexArgs: o.args ?? [],
    wrap: namespaceArgs(managed.binds, HOOKWERK_ROOT),
  };
  const run = await runCodex(tool, kase, world, env(world.home, baseEnv), timeoutMs);
  if (!run.started) throw new Error(`${tool.bin} did not start: ${run.run.spawnError}`);
  const requests = run.requests.filter((r) => r.kind === 'main');
  const told = turns.map((_, i) => spec.toolResults(requests[i + 1]?.body).at(-1));
  const blocked = !existsSync(path.join(world.proj, 'made-by-agent'));
  return {
    proj: world.proj,
    blocked,
    // Kept from running by the managed policy, not by anything else: the model was told its rule.
    denied: blocked && told[0]?.includes(DENY_RULE) === true,
    told,
    hooks: [...run.run.stderr.matchAll(/^hook: (\w+) (\w+)\s*$/gm)].map((m) => ({
      event: m[1],
      status: m[2],
    })),
    code: run.run.code,
  };
}

/**
 * The environment of a managed run: no daemon, for one started by a hook inside the namespace
 * would keep the namespace (and its /etc) alive after the run; the decision is the same [G-WARM-1].
 */
function env(home, baseEnv) {
  return { ...baseEnv, HOME: home, HOOKWERK_DAEMON: 'off' };
}

function verdict(r) {
  const pre = r.hooks.find((h) => h.event === 'PreToolUse')?.status ?? 'did not run';
  const what = r.denied
    ? 'touch denied by the managed rule'
    : r.blocked
      ? `touch kept from running, the model was told ${JSON.stringify(clip(r.told[0] ?? ''))}`
      : 'touch ran';
  const hooks = r.hooks.length === 0 ? 'no hook ran' : `${r.hooks.length} hook runs, PreToolUse ${pre}`;
  return `${what} (${hooks}${r.code !== 0 ? `, codex exit ${r.code}` : ''})`;
}
