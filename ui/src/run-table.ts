/**
 * The one table of run records [UI-1] (issue 31: it was written twice, once per panel): the Runs
 * panel shows serve's own records in it, the Agent runs panel the journal's. Each row says when,
 * what, which tool and session, which hook, how it ended and what it decided; a click or Enter
 * opens its details.
 */
import { h, ms, replace, timeOf } from './dom.ts';
import { runDetails } from './run-details.ts';
import type { RunRecord } from './schemas.ts';

export interface RunTableOptions<R extends RunRecord> {
  /** The table's accessible name and class. */
  label: string;
  tableClass: string;
  /** The class of each record's row (`run`, `agent-run`). */
  rowClass: string;
  /** Whether the agent that ran it is a column (the journal's runs name it). */
  agentColumn: boolean;
  /** A record's identity, to keep it open across renders. */
  keyOf(r: R): string;
  /** How its time reads (the journal reaches back days: with the date). */
  whenOf?(iso: string): string;
}

export interface RunTable<R extends RunRecord> {
  element: HTMLTableElement;
  /** Shows these records, or one row saying `empty` when there are none. */
  show(records: readonly R[], empty: string): void;
}

export function runTable<R extends RunRecord>(opts: RunTableOptions<R>): RunTable<R> {
  const open = new Set<string>();
  const when = opts.whenOf ?? timeOf;
  const heads: Array<[string, string?]> = [
    ['time'],
    ...(opts.agentColumn ? [['agent'] as [string]] : []),
    ['event'],
    ['tool'],
    ['session', 'wide-only'],
    ['hook', 'wide-only'],
    ['outcome'],
    ['decision', 'wide-only'],
    ['ms', 'num'],
    ['cause', 'wide-only'],
  ];
  const body = h('tbody');
  const element = h(
    'table',
    { class: opts.tableClass, attrs: { 'aria-label': opts.label } },
    h('thead', {}, h('tr', {}, ...heads.map(([text, cls]) => h('th', cls ? { class: cls } : {}, text)))),
    body,
  );
  let last: { records: readonly R[]; empty: string } = { records: [], empty: '' };

  const row = (r: R): HTMLTableRowElement[] => {
    const key = opts.keyOf(r);
    const expanded = open.has(key);
    const toggle = () => {
      if (open.has(key)) open.delete(key);
      else open.add(key);
      table.show(last.records, last.empty);
    };
    const tr = h(
      'tr',
      {
        class: `${opts.rowClass} outcome-${r.outcome}`,
        attrs: {
          tabindex: 0,
          'aria-expanded': expanded,
          'data-outcome': r.outcome,
          'data-hook': r.hook,
          'data-at': r.at,
          ...(opts.agentColumn && r.agent !== undefined ? { 'data-agent': r.agent } : {}),
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
      h('td', { class: 'c-time time' }, when(r.at)),
      opts.agentColumn ? h('td', { class: 'c-agent' }, r.agent ?? '') : null,
      h('td', { class: 'c-event' }, r.event),
      h('td', { class: 'c-tool' }, r.toolName ?? ''),
      h('td', { class: 'c-session wide-only', attrs: { title: r.sessionId } }, r.sessionId ?? ''),
      h('td', { class: 'c-hook hook wide-only', attrs: { title: r.hook } }, r.hook),
      h('td', { class: 'c-outcome' }, h('span', { class: `badge outcome-${r.outcome}` }, r.outcome)),
      h('td', { class: 'c-decision wide-only' }, r.permission ?? r.decision ?? ''),
      h('td', { class: 'c-ms num' }, ms(r.durationMs)),
      h('td', { class: 'c-cause wide-only' }, r.cause ?? ''),
    );
    if (!expanded) return [tr];
    return [tr, h('tr', { class: 'details' }, h('td', { attrs: { colspan: heads.length } }, runDetails(r)))];
  };

  const table: RunTable<R> = {
    element,
    show(records, empty) {
      last = { records, empty };
      replace(body, ...records.flatMap(row));
      if (records.length === 0)
        body.append(h('tr', { class: 'empty' }, h('td', { attrs: { colspan: heads.length } }, empty)));
    },
  };
  return table;
}
