import { handlerLine } from '../../src/registry/handler-facts.ts';
import type { Api } from './api.ts';
import { decideForm } from './decide-form.ts';
import { batched, h, ms, replace, timeOf } from './dom.ts';
import { subjectOf, verdictOf } from './gate-records.ts';
import type { RunsStore } from './runs-store.ts';
import { type GateAnswer, gateAnswerSchema, type RunRecord } from './schemas.ts';

type Dialect = GateAnswer['dialects'][number];
type Hook = Dialect['hooks'][number];

/** Gate sources change by hand and consent by `hookwerk trust` elsewhere: looked at again this often. */
const REFRESH_MS = 5000;
/** Recent decisions shown per hook. */
const RECENT = 5;

const CONSENT_LABEL: Record<Hook['consent'], string> = {
  approved: 'approved',
  pending: 'pending approval',
  changed: 'changed since approval',
  'not needed': 'needs no consent',
};

export interface GatePage {
  element: HTMLElement;
  load(): Promise<void>;
  stop(): void;
}

/**
 * (issue 23) The Gate page: every gate source of the project by dialect (`GET /api/gate`), each
 * hook with its consent state and its recent decisions (its run records, newest first, live from
 * the page's runs), the project's trust, and a form to try a decide in any dialect.
 */
export function gatePage(api: Api, store: RunsStore): GatePage {
  const status = h('p', { class: 'status', attrs: { role: 'status' } });
  const trust = h('div', { class: 'gate-trust' });
  const dialects = h('div', { class: 'gate-dialects' });
  const count = h('span', { class: 'count', attrs: { 'aria-live': 'polite' } });
  /** Each hook's recent-decisions list, by the dialects that read it and its source (what its records name). */
  let recentLists: Array<{ dialects: readonly string[]; source: string; el: HTMLElement }> = [];
  let shown = '';
  let loads = 0;

  const form = decideForm(api, () => void page.load());

  const renderRecent = batched(() => {
    for (const { dialects, source, el } of recentLists) {
      const runs = store.records
        .filter((r) => r.source === source && dialects.includes(r.dialect ?? ''))
        .slice(0, RECENT);
      replace(el, ...runs.map(recentItem));
      if (runs.length === 0) el.append(h('li', { class: 'empty muted' }, 'no decisions yet'));
    }
  });
  store.onChange(renderRecent);

  const render = (g: GateAnswer) => {
    replace(trust, ...trustLines(g.project));
    const labels = new Map(g.dialects.map((d) => [d.dialect, d.label]));
    recentLists = [];
    replace(
      dialects,
      ...g.dialects.map((d) => {
        const hooks = h(
          'ol',
          { class: 'gate-hooks', attrs: { 'aria-label': `${d.label} hooks` } },
          ...d.hooks.map((hook) => {
            const recent = h('ol', {
              class: 'hook-runs',
              attrs: { 'aria-label': `recent decisions of ${hook.name}` },
            });
            recentLists.push({ dialects: hook.readBy, source: hook.source, el: recent });
            return hookItem(hook, recent, labels);
          }),
        );
        const anySource = d.sources.some(shownSource);
        // (issue 31) A hook another dialect reads too is listed once, under the first reader.
        const elsewhere = g.dialects.filter(
          (o) => o !== d && o.hooks.some((hook) => hook.readBy.some((r) => r === d.dialect)),
        );
        if (elsewhere.length > 0)
          hooks.append(
            h(
              'li',
              { class: 'also-read muted' },
              `Also reads the hooks listed under ${elsewhere.map((o) => o.label).join(', ')}.`,
            ),
          );
        else if (d.hooks.length === 0 && anySource)
          hooks.append(h('li', { class: 'empty muted' }, 'No hooks in these sources.'));
        return h(
          'section',
          { class: 'gate-dialect', attrs: { 'data-dialect': d.dialect, 'aria-label': d.label } },
          h(
            'h3',
            {},
            d.label,
            h('span', { class: 'tag' }, d.dialect),
            d.default ? h('span', { class: 'tag' }, 'default') : null,
          ),
          h(
            'ul',
            { class: 'gate-sources', attrs: { 'aria-label': `${d.label} sources` } },
            ...d.sources
              .filter(shownSource)
              .map((s) =>
                h(
                  'li',
                  { attrs: { 'data-state': s.state } },
                  h('span', { class: `badge source-${s.state}` }, s.state),
                  ' ',
                  h('strong', {}, s.label),
                  h('span', { class: 'muted' }, ` · ${s.scope} · ${s.hookCount} hooks`),
                  s.newerVersionPending ? h('span', { class: 'tag' }, 'newer version pending') : null,
                  h('div', { class: 'source muted' }, s.file),
                ),
              ),
          ),
          anySource ? null : h('p', { class: 'muted' }, 'No source file of this dialect exists.'),
          ...d.issues.map((issue) => h('p', { class: 'error' }, issue)),
          hooks,
        );
      }),
    );
    const total = g.dialects.reduce((n, d) => n + d.hooks.length, 0);
    count.textContent = `${total} hooks in ${g.dialects.length} dialects`;
    form.setDialects(g.known, g.defaultDialect);
    renderRecent();
  };

  const page: GatePage = {
    element: h(
      'section',
      { class: 'panel gate-page', attrs: { id: 'gate', 'aria-labelledby': 'gate-page-title' } },
      h(
        'header',
        { class: 'panel-head' },
        h('h2', { attrs: { id: 'gate-page-title' } }, 'Gate'),
        count,
        h('button', { attrs: { type: 'button' }, on: { click: () => void page.load() } }, 'Refresh'),
      ),
      status,
      trust,
      form.element,
      dialects,
    ),
    async load() {
      const mine = ++loads;
      const answer = await api.call('GET', '/api/gate', gateAnswerSchema);
      if (mine !== loads) return;
      if (!answer.ok) {
        status.dataset.kind = 'error';
        status.textContent = `Gate: ${answer.error}`;
        return;
      }
      delete status.dataset.kind;
      status.textContent = '';
      // The same answer leaves the page as it is (focus, scroll, a half-typed input).
      const text = JSON.stringify(answer.value);
      if (text === shown) return;
      shown = text;
      render(answer.value);
    },
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') void page.load();
  }, REFRESH_MS);
  return page;
}

/** A source that is there: loaded, or on disk as a newer version waiting for consent. */
function shownSource(s: Dialect['sources'][number]): boolean {
  return s.exists || s.newerVersionPending;
}

function trustLines(p: GateAnswer['project']): HTMLElement[] {
  const lines = [
    h(
      'p',
      { attrs: { 'data-approved': p.approved } },
      h('strong', {}, 'Project '),
      h('code', {}, p.dir),
      `: ${p.reason}`,
      p.approved ? '' : ` — review and approve with `,
      p.approved ? null : h('code', {}, p.review),
    ),
  ];
  if (p.pending.length > 0)
    lines.push(
      h(
        'p',
        { class: 'pending' },
        `Changed since approval (the approved version runs until `,
        h('code', {}, p.review),
        `): ${p.pending.join(', ')}`,
      ),
    );
  if (p.changed.length > 0)
    lines.push(
      h(
        'p',
        { class: 'error' },
        `Pinned files changed, project hooks do not run as approved: ${p.changed.join(', ')}`,
      ),
    );
  if (p.problem !== undefined) lines.push(h('p', { class: 'error' }, p.problem));
  return lines;
}

function hookItem(hook: Hook, recent: HTMLElement, labels: ReadonlyMap<string, string>): HTMLElement {
  const what = [
    hook.event,
    hook.matcher !== undefined ? `matcher ${JSON.stringify(hook.matcher)}` : 'every target',
    // [G-FAIL-5] Its if, failMode and timeout, as `explain` shows them.
    ...(hook.handler !== undefined ? [handlerLine(hook.handler)] : []),
  ];
  return h(
    'li',
    {
      class: `gate-hook consent-${hook.consent.replace(' ', '-')}`,
      attrs: { 'data-consent': hook.consent, 'data-hook': hook.name },
    },
    h('span', { class: `badge consent-${hook.consent.replace(' ', '-')}` }, CONSENT_LABEL[hook.consent]),
    h('strong', { class: 'hook' }, hook.name),
    h('span', { class: 'muted' }, what.join(' · ')),
    hook.enabled || hook.consent === 'pending'
      ? null
      : h(
          'span',
          { class: 'tag' },
          `disabled${hook.disabledReason !== undefined ? `: ${hook.disabledReason}` : ''}`,
        ),
    h('div', { class: 'detail' }, hook.consentDetail),
    h('div', { class: 'source muted' }, `${hook.scope} · ${hook.source}`),
    h(
      'div',
      { class: 'read-by muted', attrs: { 'data-read-by': hook.readBy.join(' ') } },
      `read by ${hook.readBy.map((d) => labels.get(d) ?? d).join(', ')}`,
    ),
    recent,
  );
}

function recentItem(r: RunRecord): HTMLElement {
  const verdict = verdictOf(r);
  return h(
    'li',
    { attrs: { 'data-verdict': verdict, 'data-at': r.at } },
    h('span', { class: `badge verdict-${verdict}` }, verdict),
    h('span', { class: 'gate-when' }, ` ${timeOf(r.at)} · ${r.outcome} · ${ms(r.durationMs)} ms`),
    h('span', { class: 'gate-subject' }, ` ${subjectOf(r)}`),
    r.reason !== undefined ? h('span', { class: 'gate-reason' }, r.reason) : null,
  );
}
