/**
 * Issue 23: the README is a front page and the reference lives in docs/, so every relative link
 * of README.md and docs/*.md must lead to a file of the repository, and a `#anchor` to a heading
 * of that file (a moved section must not leave a dead link behind).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';
import { headingSlug, isExternal, markdownAnchors, markdownLinks } from './markdown-links.ts';

/**
 * Pages other branches of issues 21 and 22 are writing (install, the journal and daemon, MCP,
 * the adapters, the library); the README and docs/policy.md link to them already. A link to one of
 * them may lead nowhere until it lands; once it exists it is checked like any other page.
 */
const LANDING = new Set(['docs/mcp.md', 'docs/adapters.md', 'docs/library.md']);

const pages = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function problems(page: string): string[] {
  const found: string[] = [];
  const text = readFileSync(path.join(REPO, page), 'utf8');
  for (const { target, line } of markdownLinks(text)) {
    if (isExternal(target)) continue;
    const [file = '', anchor] = target.split('#', 2);
    const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), decodeURI(file)));
    const full = path.join(REPO, resolved);
    if (!existsSync(full)) {
      if (!LANDING.has(resolved)) found.push(`${page}:${line}: ${target}: no such file`);
      continue;
    }
    if (anchor === undefined || anchor === '' || !resolved.endsWith('.md') || statSync(full).isDirectory())
      continue;
    if (!markdownAnchors(readFileSync(full, 'utf8')).has(anchor)) {
      found.push(`${page}:${line}: ${target}: no heading with that anchor in ${resolved}`);
    }
  }
  return found;
}

describe('[issue 23] links in README.md and docs/', () => {
  it('every relative link leads to a file, and every #anchor to one of its headings', () => {
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.flatMap(problems)).toEqual([]);
  });

  it('the README links every docs page', () => {
    const linked = new Set(
      markdownLinks(readFileSync(path.join(REPO, 'README.md'), 'utf8')).map((l) => l.target.split('#', 1)[0]),
    );
    expect(pages.filter((p) => p.startsWith('docs/') && !linked.has(p))).toEqual([]);
  });

  it('the checker reads links and anchors as GitHub renders them', () => {
    const md = [
      '# A worker fleet over NATS [N-BUS-1..N-OPS-1]',
      '## `keep_children` [X-PROC-2]',
      '## Dashboard [UI-1..3]',
      '## Dashboard [UI-1..3]',
      'See [the fleet](fleet.md#tls) and ![a shot](shots/a.png), <img src="b.png">.',
      '`[not a link](nowhere.md)`',
      '```sh',
      'echo "[nor this](nowhere.md)"',
      '```',
    ].join('\n');
    expect([...markdownAnchors(md)]).toEqual([
      'a-worker-fleet-over-nats-n-bus-1n-ops-1',
      'keep_children-x-proc-2',
      'dashboard-ui-13',
      'dashboard-ui-13-1',
    ]);
    expect(markdownLinks(md).map((l) => l.target)).toEqual(['fleet.md#tls', 'shots/a.png', 'b.png']);
    expect(headingSlug('Hot reload [P-CFG-3]')).toBe('hot-reload-p-cfg-3');
    expect(isExternal('https://nats.io')).toBe(true);
  });
});
