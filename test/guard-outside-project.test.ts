/**
 * [G-LIB-1, G-LIB-3, G-TEST-2] The `outside-project` guard on real calls' action views: its
 * corpus (test/corpus/outside-project.json), then the edges — where a write through a symlink
 * lands, what a delete of a symlink acts on, the exempt streams and temp folder, `allow`, and the
 * reason it gives. On a real temp project, home and temp folder with real symlinks.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outsideProjectGuard } from '../src/guards/outside-project.ts';
import { type CorpusCase, corpusSuite, hitsOf, loadCorpus, makeWorld } from './guard-direct.ts';

const world = makeWorld('hookwerk-guard-outside-');
const { project, home, root } = world;
const elsewhere = path.join(root, 'elsewhere');
mkdirSync(elsewhere);
mkdirSync(path.join(project, 'sub'));
writeFileSync(path.join(elsewhere, 'file.txt'), 'x\n');
symlinkSync(path.join(elsewhere, 'file.txt'), path.join(project, 'out-link'));
symlinkSync(elsewhere, path.join(project, 'out-dir'));
symlinkSync(project, path.join(home, 'work'));
afterAll(() => world.remove());

const corpus = loadCorpus('outside-project');
const hits = (c: CorpusCase, options: unknown = corpus.options) =>
  hitsOf(outsideProjectGuard, options, c, world);
const bash = (command: string, options?: unknown) => hits({ command }, options);

corpusSuite('outside-project', corpus, (c) => hits(c));

describe('[G-LIB-3] outside-project: the edges', () => {
  it('a write through a symlink in the project lands where it points', () => {
    expect(bash('echo x > out-link')[0]?.saw).toBe(
      `echo x > out-link writes out-link (${path.join(elsewhere, 'file.txt')}), outside the project`,
    );
    expect(bash('touch out-dir/new.txt')).toHaveLength(1);
    expect(hits({ tool: 'Write', input: { file_path: '$PROJECT/out-link', content: 'x' } })).toHaveLength(1);
  });

  it('a write through a symlink outside that points into the project is inside', () => {
    expect(bash('echo x > ~/work/file.txt')).toEqual([]);
    expect(
      hits({ tool: 'Edit', input: { file_path: '$HOME/work/a.ts', old_string: 'a', new_string: 'b' } }),
    ).toEqual([]);
  });

  it('a delete of a symlink without a trailing / deletes the link; with one, its target', () => {
    expect(bash('rm out-link')).toEqual([]);
    expect(bash('rm -r out-dir')).toEqual([]);
    expect(bash('rm -r out-dir/')).toHaveLength(1);
    expect(bash('rm out-dir/file.txt')).toHaveLength(1);
    expect(bash('mv out-link sub/')).toEqual([]);
  });

  it('the streams are exempt as written; the temp folder only below it', () => {
    expect(bash('echo x > /dev/stdout; echo y > /dev/fd/1')).toEqual([]);
    expect(bash('chmod 777 $TMP')).toHaveLength(1);
    expect(bash('cp a $TMP && tar -xzf p.tgz -C $TMP')).toEqual([]);
    expect(bash('rm -rf $TMP/*')).toEqual([]);
    expect(bash('echo x > /dev/sda')).toHaveLength(1);
  });

  it('a glob is judged by its folder', () => {
    expect(bash('rm -f *.log sub/*.tmp')).toEqual([]);
    expect(bash('rm -f ../*.log')).toHaveLength(1);
  });

  it('allow adds globs: a home folder, an absolute one, a name anywhere', () => {
    const options = { allow: ['~/.cache/**', '/opt/builds', '*.lock'] };
    expect(bash('mkdir -p ~/.cache/tool/x', options)).toEqual([]);
    expect(bash('cp app /opt/builds/app', options)).toEqual([]);
    expect(bash('touch ~/.deps.lock', options)).toEqual([]);
    expect(bash('touch ~/.cache2/x', options)).toHaveLength(1);
    expect(() => outsideProjectGuard.options.parse({ allowed: [] })).toThrow();
  });

  it('each write is one hit, with its path and command (for except); the home shown as ~', () => {
    const found = bash('cp a ~/b && rm ~/c');
    expect(found.map((h) => h.saw)).toEqual([
      'cp a ~/b writes ~/b, outside the project',
      'rm ~/c deletes ~/c, outside the project',
    ]);
    expect(found.map((h) => h.command?.name)).toEqual(['cp', 'rm']);
    expect(found[0]?.path?.path).toBe(path.join(home, 'b'));
  });

  it('reads, runs and writes inside the project pass', () => {
    expect(bash('cat /etc/passwd; ~/bin/tool; ls /; echo x > sub/y')).toEqual([]);
  });
});
