// The real tools, pinned, installed from npm once into a cache outside the repository and reused.
// Pinned to the versions the research in shared/research/*-observed.md was done with, so a later
// release changing its hook protocol shows up as a deliberate version bump here, not as noise.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { runProcess } from './processes.js';

export const TOOLS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude', label: 'claude-code' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', label: 'gemini-cli' },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex', label: 'codex-cli' },
  copilot: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot', label: 'copilot-cli' },
};

export function cacheRoot() {
  return process.env.HOOKWERK_DIFF_CACHE ?? path.join(homedir(), '.cache', 'hookwerk-differential');
}

/**
 * The tool's binary, installing it first when the cache has no complete copy. A copy counts as
 * complete only with its stamp file, written after `--version` answered with the pinned version,
 * so an install interrupted half-way is redone rather than used.
 * @param {'claude'|'gemini'|'codex'} name
 * @returns {Promise<{bin: string, version: string, label: string, dir: string, installed: boolean}>}
 */
export async function ensureTool(name) {
  const tool = TOOLS[name];
  const dir = path.join(cacheRoot(), `${tool.label}@${tool.version}`);
  const bin = path.join(dir, 'node_modules', '.bin', tool.bin);
  const stamp = path.join(dir, '.hookwerk-differential-ok');
  const result = { bin, version: tool.version, label: tool.label, dir, installed: false };
  if (existsSync(stamp) && existsSync(bin)) return result;

  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  makeDirs(staging);
  // A package.json of its own, so npm installs here and never walks up into the repository.
  writeFileSync(path.join(staging, 'package.json'), '{"name":"hookwerk-differential-tool","private":true}\n');
  const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' };
  const npm = await runProcess(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--prefix', staging, `${tool.pkg}@${tool.version}`],
    { cwd: staging, env, timeoutMs: 600_000 },
  );
  if (npm.code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `npm install ${tool.pkg}@${tool.version} failed (${npm.code}):\n${npm.stderr.slice(-2000)}`,
    );
  }
  const stagedBin = path.join(staging, 'node_modules', '.bin', tool.bin);
  const check = await runProcess(stagedBin, ['--version'], { cwd: staging, env, timeoutMs: 60_000 });
  if (check.code !== 0 || !check.stdout.includes(tool.version)) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`${tool.bin} --version gave ${JSON.stringify(check.stdout.trim())}, not ${tool.version}`);
  }
  writeFileSync(path.join(staging, '.hookwerk-differential-ok'), `${tool.pkg}@${tool.version}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { ...result, installed: true };
}

/**
 * mkdir -p one component at a time: a cache root that cannot hold folders (HOOKWERK_DIFF_CACHE
 * under /proc, say) then fails with its error, where Node 20's recursive mkdirSync spins forever.
 */
function makeDirs(dir) {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  let at = path.sep;
  for (const part of parts) {
    at = path.join(at, part);
    if (!existsSync(at)) mkdirSync(at);
  }
}
