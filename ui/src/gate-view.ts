import { batched, h, ms, replace, timeOf } from './dom.ts';
import type { RunsStore } from './runs-store.ts';
import type { RunRecord } from './schemas.ts';

const SHOWN = 50;

const GATE_DIALECTS = new Set(['lurus', 'claude', 'gemini']);

/** A gate run: one of a gate dialect (Lurus, Claude Code, Gemini CLI), or anything that decided or denied. */
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

/** Gate decisions as they happen [UI-1]: the newest gate runs, deny first in colour. */
export function gateView(store: RunsStore): HTMLElement {
  const list = h('ol', { class: 'gate-list', attrs: { 'aria-label': 'gate decisions' } });
  const render = batched(() => {
    const gate = store.records.filter(isGateRecord).slice(0, SHOWN);
    replace(
      list,
      ...gate.map((r) => {
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
    { class: 'panel gate-panel', attrs: { id: 'gate', 'aria-labelledby': 'gate-title' } },
    h('header', { class: 'panel-head' }, h('h2', { attrs: { id: 'gate-title' } }, 'Gate decisions')),
    h('div', { class: 'scroll short' }, list),
  );
}
