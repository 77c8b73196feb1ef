/**
 * Rule ids as code, tests and docs cite them (`[P-SEC-5]`, `[A-CDX-1, C-OUT-1]`, `X-PROC-1..5`,
 * `L-MATCH-3/4`, `[UI-1..3]`), and as docs/ defines them (`**[P-SEC-5]**`).
 */

// Every section name of the contract is letters only (SEC, TRUST, WASM…): a digit there would
// also take regex classes such as `[A-Z0-9]` for an id. A letter after the number: `P-SEC-4b`.
const ID = String.raw`(?:[A-Z]{1,4}-[A-Z]{2,6}-\d+[a-z]?|UI-\d+)`;
const CITED = new RegExp(String.raw`(?<![\w-])(${ID})(?:\.\.(\d+)\b|/(\d+)\b)?(?![\w-])`, 'g');
const DEFINED = new RegExp(String.raw`\*\*\[(${ID})\]\*\*`, 'g');

/** Every id a text cites, ranges spelled out: `X-PROC-1..3` → X-PROC-1, X-PROC-2, X-PROC-3. */
export function citedIds(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(CITED)) {
    const id = m[1];
    if (id === undefined) continue;
    ids.push(id);
    const last = m[2] ?? m[3];
    const parts = /^(.*-)(\d+)$/.exec(id);
    if (last === undefined || parts?.[1] === undefined || parts[2] === undefined) continue;
    const first = Number(parts[2]);
    if (m[3] !== undefined) {
      ids.push(`${parts[1]}${last}`);
      continue;
    }
    for (let n = first + 1; n <= Number(last); n++) ids.push(`${parts[1]}${n}`);
  }
  return ids;
}

/** The ids a docs page defines, in the order it defines them. */
export function definedIds(text: string): string[] {
  return [...text.matchAll(DEFINED)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}
