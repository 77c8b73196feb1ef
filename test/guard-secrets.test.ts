/**
 * [G-LIB-1, G-LIB-3, G-TEST-2] The `secrets` guard on real calls' action views: its corpus
 * (test/corpus/secrets.json: every respelling stopped, every everyday call let through), then
 * the edges — symlinks to a secret, the `paths` option, what is not secret, what names without
 * reading, each agent's read tool shape, and the reason it gives.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secretsGuard } from '../src/guards/secrets.ts';
import { type CorpusCase, corpusSuite, hitsOf, loadCorpus, makeWorld } from './guard-direct.ts';

const world = makeWorld('hookwerk-guard-secrets-');
const { project, home } = world;
mkdirSync(path.join(project, 'sub'));
mkdirSync(path.join(home, '.ssh'));
writeFileSync(path.join(project, '.env'), 'SECRET=1\n');
writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'key\n');
symlinkSync(path.join(project, '.env'), path.join(project, 'innocent.txt'));
symlinkSync(path.join(home, '.ssh'), path.join(project, 'keys'));
afterAll(() => world.remove());

const corpus = loadCorpus('secrets');
const hits = (c: CorpusCase, options: unknown = corpus.options) => hitsOf(secretsGuard, options, c, world);
const bash = (command: string, options?: unknown) => hits({ command }, options);

corpusSuite('secrets', corpus, (c) => hits(c));

describe('[G-LIB-3] secrets: the edges', () => {
  it('a symlink to a secret is the secret (its real path decides a read)', () => {
    expect(bash('cat innocent.txt')[0]?.saw).toBe(
      'cat innocent.txt reads the secret file innocent.txt (.env)',
    );
    expect(bash('cat keys/id_rsa')).toHaveLength(1);
    expect(hits({ tool: 'Read', input: { file_path: '$PROJECT/innocent.txt' } })).toHaveLength(1);
  });

  it('the reason names the command and the file, the home as ~', () => {
    expect(bash('cat ~/.ssh/id_rsa')[0]?.saw).toBe('cat ~/.ssh/id_rsa reads the secret file ~/.ssh/id_rsa');
    expect(hits({ tool: 'Read', input: { file_path: '$PROJECT/.env' } })[0]?.saw).toBe(
      'Read of the secret file .env',
    );
    expect(bash('tar czf h.tgz ~')[0]?.saw).toBe(
      'tar czf h.tgz ~ reads ~, which holds the secret files of ~/.ssh',
    );
  });

  it('a hit carries the path and the command, for except', () => {
    const [hit] = bash('sudo cat .env');
    expect(hit?.path?.path).toBe(path.join(project, '.env'));
    expect(hit?.command?.name).toBe('cat');
  });

  it('option paths add globs: a name at any depth, a folder under the project, a home path', () => {
    const options = { paths: ['*.secret', 'deploy/creds/**', '~/.vault-token'] };
    expect(bash('cat a/b/x.secret', options)).toHaveLength(1);
    expect(bash('cat deploy/creds/db.json', options)).toHaveLength(1);
    expect(bash('cat ~/.vault-token', options)).toHaveLength(1);
    expect(bash('cat deploy/other.json', options)).toEqual([]);
    expect(bash('cat a/b/x.secret')).toEqual([]);
    expect(() => secretsGuard.options.parse({ path: ['x'] })).toThrow();
  });

  it('.git/config is not secret, even through a policy glob', () => {
    expect(bash('cat .git/config', { paths: ['**/config'] })).toEqual([]);
    expect(bash('cat deploy/config', { paths: ['**/config'] })).toHaveLength(1);
  });

  it("Gemini's read_many_files (mapped to Read) and Copilot's view (mapped to Read) read each path", () => {
    expect(hits({ tool: 'Read', input: { paths: ['README.md', '.env'] } })).toHaveLength(1);
    expect(hits({ tool: 'Read', input: { include: ['**/.env*'] } })).toHaveLength(1);
    expect(hits({ tool: 'Read', input: { include: ['**/*.md'] } })).toEqual([]);
    expect(hits({ tool: 'Read', input: { path: '$HOME/.ssh/id_rsa' } })).toHaveLength(1);
  });

  it('a bare * is not taken for the secrets of a folder not known to hold them; in ~/.ssh it is', () => {
    expect(bash('cat *')).toEqual([]);
    expect(bash('cat ~/.ssh/*')).toHaveLength(1);
    expect(bash('cat ~/.ssh/*.pub')).toEqual([]);
    expect(bash('cat *.pem')).toHaveLength(1);
  });

  it('naming a secret without reading it passes; writing it is permissions business', () => {
    for (const line of [
      'ls .env',
      'rm .env',
      'touch .env',
      'echo .env >> .gitignore',
      'cp .env.example .env',
    ])
      expect(bash(line), line).toEqual([]);
    expect(hits({ tool: 'Write', input: { file_path: '$PROJECT/.env', content: 'x' } })).toEqual([]);
  });

  it('a credential used, not shown, passes — unless the same line shows it', () => {
    expect(bash('ssh -i ~/.ssh/id_rsa host.example.com')).toEqual([]);
    expect(bash('node --env-file=.env app.js')).toEqual([]);
    expect(bash("node --env-file=.env -e 'console.log(process.env)'")).toHaveLength(1);
    expect(bash('ssh -i ~/.ssh/id_rsa host.example.com && cat ~/.ssh/id_rsa')).toHaveLength(1);
    expect(bash('wc -l .env && cat .env')[0]?.command?.name).toBe('cat');
  });

  it('best effort: an interpreter program naming a secret, however the home is written', () => {
    expect(bash(`python3 -c "import os; open(os.environ['HOME'] + '/.aws/credentials')"`)).toHaveLength(1);
    expect(
      bash(`node -p "require('fs').readFileSync(process.env.HOME + '/.ssh/id_rsa', 'utf8')"`),
    ).toHaveLength(1);
    expect(bash(`python3 -c "import sys; print(open(sys.argv[1]).read())" .env`)).toHaveLength(1);
    expect(bash(`python3 -c "print(open('README.md').read())"`)).toEqual([]);
  });
});
