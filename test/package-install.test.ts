/**
 * Issue 23: the package installs anywhere. `npm pack` gives a tarball with the built `dist/`
 * (no TypeScript, no build at install), and a fresh project installs it with no network: the
 * dependencies come from npm's cache, which `npm ci` of this checkout filled. The project's
 * lockfile names each dependency by the version and integrity of ours, so `npm ci --offline`
 * needs nothing but that cache. Then `npx hookwerk demo` and a library import work from it.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPO } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

const run = promisify(execFile);

const lockEntry = z.looseObject({
  version: z.string().optional(),
  name: z.string().optional(),
  resolved: z.string().optional(),
  dev: z.boolean().optional(),
});
const lockSchema = z.object({
  packages: z.record(z.string(), lockEntry),
});
const packageSchema = z.object({
  version: z.string(),
  license: z.string(),
  bin: z.record(z.string(), z.string()),
  engines: z.record(z.string(), z.string()),
  dependencies: z.record(z.string(), z.string()),
  peerDependencies: z.record(z.string(), z.string()).optional(),
  peerDependenciesMeta: z.record(z.string(), z.unknown()).optional(),
});

/** A project that depends on the tarball, locked to our own dependencies' versions. */
function writeProject(dir: string, tarball: string): void {
  const ours = packageSchema.parse(JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')));
  const lock = lockSchema.parse(JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')));
  const spec = `file:${tarball}`;
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const packages: Record<string, unknown> = {
    '': { name: 'try-hookwerk', version: '1.0.0', dependencies: { hookwerk: spec } },
    'node_modules/hookwerk': {
      version: ours.version,
      resolved: spec,
      integrity,
      license: ours.license,
      dependencies: ours.dependencies,
      bin: ours.bin,
      engines: ours.engines,
      ...(ours.peerDependencies !== undefined ? { peerDependencies: ours.peerDependencies } : {}),
      ...(ours.peerDependenciesMeta !== undefined ? { peerDependenciesMeta: ours.peerDependenciesMeta } : {}),
      hasInstallScript: true,
    },
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '' || entry.dev === true) continue;
    // This checkout's lockfile omits registry URLs (npm's omit-lockfile-registry-resolved):
    // name the tarball, so the cache is looked up by its integrity alone.
    const name = entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const base = name.split('/').pop() ?? name;
    packages[key] = {
      ...entry,
      resolved: entry.resolved ?? `https://registry.npmjs.org/${name}/-/${base}-${entry.version}.tgz`,
    };
  }
  const manifest = {
    name: 'try-hookwerk',
    version: '1.0.0',
    type: 'module',
    dependencies: { hookwerk: spec },
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const projectLock = {
    name: 'try-hookwerk',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages,
  };
  writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify(projectLock, null, 2)}\n`);
}

describe('[issue 23] the packed package', () => {
  it('installs from its tarball into an empty project with no network; the demo and a library import work', async () => {
    const out = tempDir('hw-pack-');
    // dist/ was built by `pretest`; `npm pack` would build it again (prepare).
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', out], { cwd: REPO });
    const { version } = packageSchema.parse(
      JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')),
    );
    const tarball = path.join(out, `hookwerk-${version}.tgz`);
    const listing = (await run('tar', ['tzf', tarball])).stdout.split('\n');
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/ui/index.html');
    expect(listing).toContain('package/native/hookwerk-launcher.c');
    // No machine's binary, no sources, no tests: the launcher builds at install where cc exists.
    expect(listing.filter((f) => f.startsWith('package/dist/native/'))).toEqual([]);
    expect(listing.filter((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toEqual([]);

    const project = tempDir('hw-pack-proj-');
    writeProject(project, tarball);
    const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' };
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project, env });
    const demo = await run('npx', ['--offline', 'hookwerk', 'demo', '--no-keep'], { cwd: project, env });
    expect(demo.stdout).toMatch(/8 hook runs, 8 ok/);
    // (issue 31) The claude demo's "Try it yourself" runs as printed from the installed package.
    const claude = await run('npx', ['--offline', 'hookwerk', 'demo', '--dialect', 'claude'], {
      cwd: project,
      env,
    });
    const tryIt = /^Try it yourself: (.+)$/m.exec(claude.stdout)?.[1] ?? '';
    expect(tryIt).toContain(path.join(project, 'node_modules', 'hookwerk', 'bin', 'hookwerk.js'));
    const tried = spawnSync('sh', ['-c', tryIt], { cwd: tempDir('hw-pack-try-'), env, encoding: 'utf8' });
    expect(tried.status, tried.stderr).toBe(2);
    expect(JSON.parse(tried.stdout)).toMatchObject({ decision: 'deny', blocked: true });
    const versionOut = await run('npx', ['--offline', 'hookwerk', '--version'], { cwd: project, env });
    expect(versionOut.stdout.trim()).toBe(version);
    const lib = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createHookEngine } from 'hookwerk';
         const engine = await createHookEngine({ projectDir: process.cwd(), watch: false });
         const d = await engine.decide('PreToolUse', { toolName: 'Bash', toolInput: { command: 'ls' } });
         await engine.close();
         console.log(JSON.stringify({ decision: d.decision, blocked: d.blocked }));`,
      ],
      { cwd: project, env: { ...env, HOME: project } },
    );
    expect(JSON.parse(lib.stdout)).toEqual({ decision: 'allow', blocked: false });
  }, 180_000);
});
