// [T-SELF-3] The agent-runs panel's line on the journal's hash chain, kept apart from the view so
// that a unit test reads it without a browser.
import type { JournalChainState } from './schemas.ts';

/**
 * [T-SELF-3] One line on the journal's hash chain (`/api/journal-chain`) for the agent-runs panel:
 * whole up to which record, broken at which, or not chained yet. `kind: 'error'` for a break.
 */
export function chainSummary(s: JournalChainState): { text: string; kind?: 'error' } {
  const scope =
    s.checked === 'tail'
      ? ` (the newest records, from ${s.from ?? '?'}; hookwerk runs --verify checks all)`
      : '';
  const before =
    s.unchained > 0 ? ` ${s.unchained} older lines were written before the journal was chained.` : '';
  if (s.state === 'empty') return { text: 'Journal chain: nothing recorded yet.' };
  if (s.state === 'unchained')
    return { text: `Journal chain: not chained: its ${s.unchained} lines were written before the chain.` };
  if (s.state === 'whole')
    return {
      text: `Journal chain: whole up to ${s.to ?? '?'}, ${s.records} records checked${scope}.${before}`,
    };
  const first = s.breaks[0];
  const where = first === undefined ? '' : ` at ${first.segment}:${first.line}: ${first.kind}`;
  const more = s.breaks.length + s.moreBreaks - 1;
  return {
    text: `Journal chain: broken${where}${more > 0 ? ` and in ${more} more place${more === 1 ? '' : 's'}` : ''}${scope}.`,
    kind: 'error',
  };
}
