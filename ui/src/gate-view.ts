import { batched, h, ms, replace, timeOf } from './dom.ts';
import { gateItems, subjectOf, verdictOf } from './gate-records.ts';
import type { RunsStore } from './runs-store.ts';

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
            h('span', { class: 'gate-subject' }, subjectOf(d)),
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
          h('span', { class: 'gate-subject' }, subjectOf(r)),
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
