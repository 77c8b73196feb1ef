/**
 * Issue 23: the rule ids that code, tests and docs cite (`[P-SEC-7]`) point at the contract,
 * which lives in the repository: every cited id is defined in docs/ as `**[ID]**` (docs/contract.md
 * holds them all), once. A cited id nobody defines is a typo or a rule that was never written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli-runner.ts';
import { citedIds, definedIds } from './rule-id-citations.ts';

const CODE = /\.(ts|js|mjs|cjs|c|h|md)$/;

/** Every file under `dir` (relative to the repository) whose name `keep` admits. */
function filesUnder(dir: string, keep: RegExp): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep.test(e.name))
    .map((e) => path.relative(REPO, path.join(e.parentPath, e.name)));
}

const docs = filesUnder('docs', /\.md$/);
const citing = [
  'README.md',
  ...docs,
  ...['src', 'test', 'ui', 'bench', 'differential', 'scripts', 'native', 'examples'].flatMap((d) =>
    filesUnder(d, CODE),
  ),
].filter((f) => !f.split(path.sep).includes('node_modules'));

function definitions(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const page of docs) {
    for (const id of definedIds(readFileSync(path.join(REPO, page), 'utf8'))) {
      where.set(id, [...(where.get(id) ?? []), page]);
    }
  }
  return where;
}

describe('[issue 23] rule ids', () => {
  it('every id cited in src/, test/, the README and docs/ is defined in docs/', () => {
    const defined = definitions();
    const undefinedIds = new Map<string, string>();
    let citations = 0;
    for (const file of citing) {
      for (const id of citedIds(readFileSync(path.join(REPO, file), 'utf8'))) {
        citations++;
        if (!defined.has(id) && !undefinedIds.has(id)) undefinedIds.set(id, file);
      }
    }
    // The scan found what the code cites (src/ and test/ cite well over a hundred ids).
    expect(citations).toBeGreaterThan(1000);
    expect([...undefinedIds].map(([id, file]) => `${id} (cited in ${file})`)).toEqual([]);
  });

  it('each id is defined once, and the contract defines every one of them', () => {
    const defined = definitions();
    expect([...defined].filter(([, pages]) => pages.length > 1)).toEqual([]);
    const contract = definedIds(readFileSync(path.join(REPO, 'docs', 'contract.md'), 'utf8'));
    expect(contract.length).toBeGreaterThanOrEqual(128);
    expect([...defined.keys()].filter((id) => !contract.includes(id))).toEqual([]);
  });

  it('reads citations as they are written, ranges and lists included', () => {
    expect(citedIds('[A-CDX-1; C-OUT-1, C-SRC-4] and (R-HOOK-1..3), [L-MATCH-3/4], [P-SEC-4b]')).toEqual([
      'A-CDX-1',
      'C-OUT-1',
      'C-SRC-4',
      'R-HOOK-1',
      'R-HOOK-2',
      'R-HOOK-3',
      'L-MATCH-3',
      'L-MATCH-4',
      'P-SEC-4b',
    ]);
    expect(citedIds('[N-BUS-1..N-OPS-1] [UI-1..3]')).toEqual(['N-BUS-1', 'N-OPS-1', 'UI-1', 'UI-2', 'UI-3']);
    // Regex classes and headers are not ids.
    expect(citedIds('/^[A-Z0-9]+: / X-API-Key SHA-256 ISO-8601 UTF-8')).toEqual([]);
    expect(definedIds('- **[P-SEC-5]** a timeout kills the group.\n- [P-SEC-6] cited, not defined')).toEqual([
      'P-SEC-5',
    ]);
  });

  it('fails on an id that is cited but defined nowhere', () => {
    const defined = definitions();
    // Spelled in two pieces so that the scan of this very file does not find it.
    const typo = ['P-SEC', '99'].join('-');
    const cited = citedIds(`// the loader follows [${typo}] and [L-TRUST-3]`);
    expect(cited.filter((id) => !defined.has(id))).toEqual([typo]);
  });
});
