import { batched, h, replace } from './dom.ts';
import { runTable } from './run-table.ts';
import { type RunsStore, recordKey } from './runs-store.ts';
import { RUN_OUTCOMES, type RunRecord } from './schemas.ts';

interface Filters {
  event: string;
  hook: string;
  outcome: string;
}

/**
 * The live table of run records [UI-1]: newest first by the time column (the store keeps them so,
 * whatever order they arrive in), coloured by outcome, filterable, details on click.
 */
export function runsView(store: RunsStore): HTMLElement {
  const filters: Filters = { event: '', hook: '', outcome: '' };

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
  const table = runTable<RunRecord>({
    label: 'run records',
    tableClass: 'runs',
    rowClass: 'run',
    agentColumn: false,
    keyOf: recordKey,
  });

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
    table.show(shown, all.length === 0 ? 'No runs yet: emit an event.' : 'No run matches these filters.');
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
    h('div', { class: 'scroll' }, table.element),
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
