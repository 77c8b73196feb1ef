/**
 * [T-SELF-1, T-SELF-2, G-LIB-1, G-LIB-3, G-TEST-2] The `self-protect` guard on real calls' action
 * views: its corpus (test/corpus/self-protect.json), then the edges — symlinks into and out of the
 * kept files, hook files `install` recorded elsewhere (`GuardContext.hookFiles`, read from real
 * install records), folders that hold kept files, reads that pass, and the reason it gives.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { actionView } from '../src/action/action-view.ts';
import { installedHookFiles } from '../src/guards/installed-hook-files.ts';
import { selfProtectGuard } from '../src/guards/self-protect.ts';
import { installRecordFile } from '../src/install/install-record.ts';
import { type CorpusCase, corpusSuite, hitsOf, loadCorpus, makeWorld } from './guard-direct.ts';

const world = makeWorld('hookwerk-guard-self-');
const { project, home, root } = world;
const dotfiles = path.join(root, 'dotfiles');
mkdirSync(path.join(home, '.hookwerk', 'installs'), { recursive: true });
mkdirSync(path.join(home, '.claude'));
mkdirSync(dotfiles);
writeFileSync(path.join(home, '.hookwerk', 'policy.json'), '{}\n');
writeFileSync(path.join(dotfiles, 'claude.json'), '{}\n');
// A hook file kept in a dotfiles repository, linked into place; a project link to the policy.
symlinkSync(path.join(dotfiles, 'claude.json'), path.join(home, '.claude', 'settings.json'));
symlinkSync(path.join(home, '.hookwerk', 'policy.json'), path.join(project, 'policy-alias.json'));
afterAll(() => world.remove());

const corpus = loadCorpus('self-protect');
const hits = (c: CorpusCase) => hitsOf(selfProtectGuard, corpus.options, c, world);
const bash = (command: string) => hits({ command });

corpusSuite('self-protect', corpus, (c) => hits(c));

describe('[T-SELF-1] self-protect: the edges', () => {
  it('the reason says hookwerk protects its own files, and what it saw', () => {
    expect(bash('rm ~/.hookwerk/policy.json')[0]?.saw).toBe(
      'hookwerk protects its own files: rm ~/.hookwerk/policy.json deletes or moves ~/.hookwerk/policy.json',
    );
    expect(bash('npx hookwerk trust --yes')[0]?.saw).toBe(
      'hookwerk protects its own files: npx hookwerk trust --yes runs hookwerk trust, which only a person may run',
    );
    expect(bash('pgrep -f hookwerk | xargs kill')[0]?.saw).toBe(
      'hookwerk protects its own files: kill stops hookwerk (pgrep -f hookwerk)',
    );
  });

  it('a write through a project symlink to the policy lands on the policy; deleting the link does not', () => {
    expect(bash('echo {} > policy-alias.json')).toHaveLength(1);
    expect(bash('rm policy-alias.json')).toEqual([]);
    expect(bash('cat policy-alias.json')).toEqual([]);
  });

  it('a hook file linked from elsewhere is kept under its own name', () => {
    expect(
      hits({ tool: 'Write', input: { file_path: '$HOME/.claude/settings.json', content: '{}' } }),
    ).toHaveLength(1);
    expect(bash('rm ~/.claude/settings.json')).toHaveLength(1);
  });

  it('a hook file install recorded elsewhere is kept once the layer hands its records over', () => {
    const codexHome = path.join(root, 'codex-home');
    const file = path.join(codexHome, 'hooks.json');
    writeFileSync(
      installRecordFile(home, file),
      JSON.stringify({ version: 1, file, agent: 'codex', before: null, after: '{}', createdDirs: [] }),
    );
    writeFileSync(path.join(home, '.hookwerk', 'installs', 'junk.json'), 'not json');
    const hookFiles = installedHookFiles(home);
    expect(hookFiles).toEqual([file]);
    const call = (command: string) => {
      const input = { command };
      const view = actionView(
        { tool_name: 'Bash', tool_input: input, cwd: project },
        { projectDir: project, home },
      );
      return selfProtectGuard.check({ tool: 'Bash', input, view }, {}, { ...world.ctx, hookFiles });
    };
    expect(call(`echo {} > ${file}`)).toHaveLength(1);
    expect(call(`rm -rf ${codexHome}`)).toHaveLength(1);
    expect(call(`cat ${file}`)).toEqual([]);
    expect(bash(`echo {} > ${file}`)).toEqual([]);
    expect(installedHookFiles(path.join(root, 'nobody'))).toEqual([]);
  });

  it('reads pass, but the trust token is kept from reads', () => {
    expect(bash('cat ~/.hookwerk/policy.json ~/.claude/settings.json; ls ~/.hookwerk')).toEqual([]);
    expect(bash('head -c 10 ~/.hookwerk/trust-token')).toHaveLength(1);
    expect(bash('grep -r . ~/.hookwerk')).toHaveLength(1);
  });

  it('a literal word of a writing command is the path it resolves to; another project’s .hookwerk is not ours', () => {
    expect(bash('git checkout HEAD -- .hookwerk/policy.json')).toHaveLength(1);
    expect(bash('git checkout HEAD -- fixtures/.hookwerk/policy.json')).toEqual([]);
    expect(bash('cp fixture.json test/fixtures/.hookwerk/policy.json')).toEqual([]);
    expect(bash('cd sub && git checkout -- ../.hookwerk/policy.json')).toHaveLength(1);
  });

  it('a word holding an expansion not known here is read by its parts (best effort)', () => {
    expect(bash('cp evil.json "$(echo ~)/.hookwerk/policy.json"')).toHaveLength(1);
    expect(bash('cp evil.json "$XDG_CONFIG_HOME/x.json"')).toEqual([]);
  });

  it('every hook file of every agent, in the project and the home', () => {
    for (const rel of [
      '.claude/settings.json',
      '.claude/settings.local.json',
      '.gemini/settings.json',
      '.codex/hooks.json',
      '.codex/config.toml',
      '.github/hooks/hookwerk.json',
      '.github/hooks/other.json',
      '.cursor/hooks.json',
      '.copilot/hooks/hookwerk.json',
    ])
      for (const base of ['$PROJECT', '$HOME'])
        expect(
          hits({ tool: 'Write', input: { file_path: `${base}/${rel}`, content: '{}' } }),
          `${base}/${rel}`,
        ).toHaveLength(1);
  });

  it('takes no options', () => {
    expect(() => selfProtectGuard.options.parse({ off: true })).toThrow();
  });
});
