import { batched, h, ms, replace, timeOf } from './dom.ts';
import type { RunsStore } from './runs-store.ts';
import type { DecisionNote, RunRecord } from './schemas.ts';

const SHOWN = 50;

/** Every dialect of the server's gate table (`src/dialects/gate-dialects.ts`). */
const GATE_DIALECTS = new Set(['lurus', 'claude', 'gemini', 'copilot', 'cursor', 'codex', 'policy']);

/** A gate run: one of a gate dialect, or anything that decided or denied. */
export function isGateRecord(r: RunRecord): boolean {
  return (
    GATE_DIALECTS.has(r.dialect ?? '') ||
    r.decision !== undefined ||
    r.permission !== undefined ||
    r.outcome === 'deny'
  );
}

/** What a gate run decided, in one word. */
export function verdictOf(r: RunRecord): string {
  if (r.outcome === 'skipped_untrusted') return 'skipped';
  return r.permission ?? r.decision ?? (r.outcome === 'deny' || r.failed === 'closed' ? 'deny' : 'allow');
}

type GateItem = { kind: 'run'; r: RunRecord } | { kind: 'none'; d: DecisionNote };

/**
 * The newest gate runs and, in their place by time, the decides that ran no hook (issue 23: a
 * decide with zero runs is still a decision; its runs would show it otherwise).
 */
export function gateItems(records: readonly RunRecord[], decisions: readonly DecisionNote[]): GateItem[] {
  const runs = records.filter(isGateRecord).slice(0, SHOWN);
  const none = decisions.filter((d) => d.runs === 0).slice(0, SHOWN);
  const items: GateItem[] = [];
  let i = 0;
  let j = 0;
  // Both lists are newest first: merged by time.
  while (items.length < SHOWN && (i < runs.length || j < none.length)) {
    const r = runs[i];
    const d = none[j];
    if (d === undefined || (r !== undefined && Date.parse(r.at) >= Date.parse(d.at))) {
      if (r !== undefined) items.push({ kind: 'run', r });
      i++;
    } else {
      items.push({ kind: 'none', d });
      j++;
    }
  }
  return items;
}

/** Gate decisions as they happen [UI-1]: the newest gate runs, deny first in colour. */
export function gateView(store: RunsStore): HTMLElement {
  const list = h('ol', { class: 'gate-list', attrs: { 'aria-label': 'gate decisions' } });
  const render = batched(() => {
    const gate = gateItems(store.records, store.decisions);
    replace(
      list,
      ...gate.map((item) => {
        if (item.kind === 'none') {
          const d = item.d;
          return h(
            'li',
            { class: `gate no-hooks verdict-${d.decision}`, attrs: { 'data-verdict': d.decision } },
            h('span', { class: `badge verdict-${d.decision}` }, d.decision),
            h('span', { class: 'gate-what' }, h('strong', {}, d.event), ` · no hook matched (${d.dialect})`),
            h('span', { class: 'gate-when' }, `${timeOf(d.at)} · ${ms(d.durationMs)} ms`),
          );
        }
        const r = item.r;
        const verdict = verdictOf(r);
        return h(
          'li',
          { class: `gate verdict-${verdict}`, attrs: { 'data-verdict': verdict } },
          h('span', { class: `badge verdict-${verdict}` }, verdict),
          h('span', { class: 'gate-what' }, h('strong', {}, r.event), ' · ', r.hook),
          h('span', { class: 'gate-when' }, `${timeOf(r.at)} · ${ms(r.durationMs)} ms`),
          r.reason !== undefined ? h('span', { class: 'gate-reason' }, r.reason) : null,
          r.failed !== undefined
            ? h('span', { class: 'gate-failed' }, `failed ${r.failed}: ${r.cause ?? ''}`)
            : null,
        );
      }),
    );
    if (gate.length === 0)
      list.append(h('li', { class: 'empty' }, 'No gate decisions yet (POST /api/decide).'));
  });
  store.onChange(render);
  render();
  return h(
    'section',
    { class: 'panel gate-panel', attrs: { id: 'gate-decisions', 'aria-labelledby': 'gate-decisions-title' } },
    h(
      'header',
      { class: 'panel-head' },
      h('h2', { attrs: { id: 'gate-decisions-title' } }, 'Gate decisions'),
    ),
    h('div', { class: 'scroll short' }, list),
  );
}
