import type { Api } from './api.ts';
import { chainSummary } from './chain-status.ts';
import { h, replace, timeOf } from './dom.ts';
import { runTable } from './run-table.ts';
import { agentRunsAnswerSchema, type JournalEntry, journalChainSchema } from './schemas.ts';

/** As many as `/api/agent-runs` answers at once. */
const LIMIT = 1000;
/** The journal is written by other processes (each agent's `hookwerk hook`): looked at again this often. */
const REFRESH_MS = 5000;

export interface AgentRunsView {
  element: HTMLElement;
  /** Loads the newest runs of the chosen agent (all: none chosen). */
  load(): Promise<void>;
  /** Stops the periodic refresh (sign-out). */
  stop(): void;
}

/**
 * [R-HOOK-3] The agents' runs from the journal (`hookwerk hook` of Claude Code, Gemini CLI, Codex,
 * Copilot, Cursor, the MCP proxy), beside serve's own: newest first by time, filterable by agent,
 * details on click. The agents offered are those the journal's runs name.
 */
export function agentRunsView(api: Api): AgentRunsView {
  let chosen = '';
  let entries: JournalEntry[] = [];
  const agents = new Set<string>();
  let loads = 0;
  /** What the table shows now (see `load`). */
  let shown = '';

  const select = h('select', {
    attrs: { name: 'agent', id: 'agent-runs-agent' },
    on: {
      change: () => {
        chosen = select.value;
        void view.load();
      },
    },
  });
  const count = h('span', { class: 'count', attrs: { 'aria-live': 'polite' } });
  const status = h('p', { class: 'status', attrs: { role: 'status' } });
  // [T-SELF-3] The chain's state: whole up to where, broken at which record, not chained yet.
  const chain = h('p', { class: 'status journal-chain', attrs: { role: 'status' } });
  const refresh = h(
    'button',
    { attrs: { type: 'button' }, on: { click: () => void view.load() } },
    'Refresh',
  );
  const table = runTable<JournalEntry>({
    label: 'agent runs',
    tableClass: 'agent-runs',
    rowClass: 'agent-run',
    agentColumn: true,
    keyOf,
    whenOf,
  });

  const render = () => {
    const list = [...agents].sort();
    if (chosen !== '' && !list.includes(chosen)) list.push(chosen);
    replace(
      select,
      h('option', { attrs: { value: '' } }, 'all'),
      ...list.map((a) => h('option', { attrs: { value: a } }, a)),
    );
    select.value = chosen;
    table.show(
      entries,
      chosen === ''
        ? 'No agent runs yet: they are recorded when an agent’s hook file calls hookwerk hook --agent A.'
        : `No runs of ${chosen}.`,
    );
    count.textContent = `${entries.length} runs${chosen === '' ? '' : ` of ${chosen}`}`;
  };

  const view: AgentRunsView = {
    element: h(
      'section',
      { class: 'panel agent-runs-panel', attrs: { id: 'agents', 'aria-labelledby': 'agent-runs-title' } },
      h(
        'header',
        { class: 'panel-head' },
        h('h2', { attrs: { id: 'agent-runs-title' } }, 'Agent runs'),
        count,
      ),
      h(
        'div',
        { class: 'filters' },
        h('div', { class: 'filter' }, h('label', { attrs: { for: 'agent-runs-agent' } }, 'Agent'), select),
        refresh,
      ),
      status,
      chain,
      h('div', { class: 'scroll' }, table.element),
    ),
    async load() {
      void loadChain();
      const mine = ++loads;
      const agent = chosen;
      const query = `limit=${LIMIT}${agent === '' ? '' : `&agent=${encodeURIComponent(agent)}`}`;
      const answer = await api.call('GET', `/api/agent-runs?${query}`, agentRunsAnswerSchema);
      // A later load (another agent chosen meanwhile) wins.
      if (mine !== loads) return;
      if (!answer.ok) {
        status.dataset.kind = 'error';
        status.textContent = `Agent runs: ${answer.error}`;
        return;
      }
      const skipped = answer.value.skipped ?? 0;
      delete status.dataset.kind;
      status.textContent = skipped > 0 ? `${skipped} unreadable journal lines skipped.` : '';
      // The journal only grows at its newest end: the same count and ends mean nothing new, and
      // the table (focus, a selection) stays as it is.
      const runs = answer.value.runs;
      const seen = [agent, runs.length, keyOf(runs[0]), keyOf(runs.at(-1))].join('\u0001');
      if (seen === shown) return;
      shown = seen;
      // Journal order is write order; the table is by the time each run started, newest first.
      entries = runs
        .map((e, i) => ({ e, i, t: Date.parse(e.at) }))
        .sort((a, b) => (b.t || 0) - (a.t || 0) || a.i - b.i)
        .map(({ e }) => e);
      for (const e of entries) agents.add(e.agent);
      render();
    },
    stop: () => clearInterval(timer),
  };
  async function loadChain(): Promise<void> {
    const answer = await api.call('GET', '/api/journal-chain', journalChainSchema);
    if (!answer.ok) {
      chain.dataset.kind = 'error';
      chain.textContent = `Journal chain: ${answer.error}`;
      return;
    }
    const line = chainSummary(answer.value);
    if (line.kind === undefined) delete chain.dataset.kind;
    else chain.dataset.kind = line.kind;
    chain.dataset.state = answer.value.state;
    chain.textContent = line.text;
  }
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') void view.load();
  }, REFRESH_MS);
  render();
  return view;
}

/** A run's identity: journal lines carry no id, these fields tell two runs apart. */
function keyOf(e: JournalEntry | undefined): string {
  if (e === undefined) return '';
  return [e.at, e.agent, e.hook, e.event, e.sessionId ?? '', e.durationMs].join('\u0000');
}

/** The time, with the date in front when it is not today (the journal reaches back days). */
function whenOf(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date();
  if (d.toDateString() === today.toDateString()) return timeOf(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${timeOf(iso)}`;
}
