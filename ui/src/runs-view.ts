import { batched, h, ms, replace, timeOf } from './dom.ts';
import { runDetails } from './run-details.ts';
import { type RunsStore, recordKey } from './runs-store.ts';
import { RUN_OUTCOMES, type RunRecord } from './schemas.ts';

interface Filters {
  event: string;
  hook: string;
  outcome: string;
}

const COLUMNS = 6;

/**
 * The live table of run records [UI-1]: newest first by the time column (the store keeps them so,
 * whatever order they arrive in), coloured by outcome, filterable, details on click.
 */
export function runsView(store: RunsStore): HTMLElement {
  const filters: Filters = { event: '', hook: '', outcome: '' };
  const open = new Set<string>();

  const select = (name: keyof Filters, label: string) => {
    const el = h('select', {
      attrs: { name, id: `filter-${name}` },
      on: {
        change: () => {
          filters[name] = el.value;
          render();
        },
      },
    });
    return {
      el,
      wrap: h('div', { class: 'filter' }, h('label', { attrs: { for: `filter-${name}` } }, label), el),
    };
  };
  const event = select('event', 'Event');
  const hook = select('hook', 'Hook');
  const outcome = select('outcome', 'Outcome');
  fillOptions(outcome.el, RUN_OUTCOMES, '');

  const count = h('span', { class: 'count', attrs: { 'aria-live': 'polite' } });
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'runs', attrs: { 'aria-label': 'run records' } },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'time'),
        h('th', {}, 'event'),
        h('th', {}, 'hook'),
        h('th', {}, 'outcome'),
        h('th', { class: 'num' }, 'ms'),
        h('th', { class: 'wide-only' }, 'cause'),
      ),
    ),
    body,
  );

  const row = (r: RunRecord): HTMLTableRowElement[] => {
    const key = recordKey(r);
    const expanded = open.has(key);
    const toggle = () => {
      if (open.has(key)) open.delete(key);
      else open.add(key);
      render();
    };
    const tr = h(
      'tr',
      {
        class: `run outcome-${r.outcome}`,
        attrs: {
          tabindex: 0,
          'aria-expanded': expanded,
          'data-outcome': r.outcome,
          'data-hook': r.hook,
          'data-at': r.at,
        },
        on: {
          click: toggle,
          keydown: (ev) => {
            if (ev.key === 'Enter' || ev.key === ' ') {
              ev.preventDefault();
              toggle();
            }
          },
        },
      },
      h('td', { class: 'c-time time' }, timeOf(r.at)),
      h('td', { class: 'c-event' }, r.event),
      h('td', { class: 'c-hook hook' }, r.hook),
      h('td', { class: 'c-outcome' }, h('span', { class: `badge outcome-${r.outcome}` }, r.outcome)),
      h('td', { class: 'c-ms num' }, ms(r.durationMs)),
      h('td', { class: 'c-cause wide-only' }, r.cause ?? ''),
    );
    if (!expanded) return [tr];
    return [tr, h('tr', { class: 'details' }, h('td', { attrs: { colspan: COLUMNS } }, runDetails(r)))];
  };

  const render = batched(() => {
    const all = store.records;
    fillOptions(event.el, unique(all.map((r) => r.event)), filters.event);
    fillOptions(hook.el, unique(all.map((r) => r.hook)), filters.hook);
    const shown = all.filter(
      (r) =>
        (filters.event === '' || r.event === filters.event) &&
        (filters.hook === '' || r.hook === filters.hook) &&
        (filters.outcome === '' || r.outcome === filters.outcome),
    );
    replace(body, ...shown.flatMap(row));
    if (shown.length === 0) {
      const empty = all.length === 0 ? 'No runs yet: emit an event.' : 'No run matches these filters.';
      body.append(h('tr', { class: 'empty' }, h('td', { attrs: { colspan: COLUMNS } }, empty)));
    }
    count.textContent =
      shown.length === all.length ? `${all.length} runs` : `${shown.length} of ${all.length} runs`;
  });
  store.onChange(render);
  render();

  return h(
    'section',
    { class: 'panel runs-panel', attrs: { id: 'runs', 'aria-labelledby': 'runs-title' } },
    h('header', { class: 'panel-head' }, h('h2', { attrs: { id: 'runs-title' } }, 'Runs'), count),
    h('div', { class: 'filters' }, event.wrap, hook.wrap, outcome.wrap),
    h('div', { class: 'scroll' }, table),
  );
}

/** Sets a filter's options ("all" first), keeping the chosen one even if no record has it now. */
function fillOptions(el: HTMLSelectElement, values: readonly string[], chosen: string): void {
  const list = chosen !== '' && !values.includes(chosen) ? [...values, chosen] : values;
  const want = ['', ...list].join('\u0000');
  const have = [...el.options].map((o) => o.value).join('\u0000');
  if (want !== have) {
    replace(
      el,
      h('option', { attrs: { value: '' } }, 'all'),
      ...list.map((v) => h('option', { attrs: { value: v } }, v)),
    );
  }
  el.value = chosen;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
