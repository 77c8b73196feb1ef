import { handlerLine } from '../../src/registry/handler-facts.ts';
import type { Api } from './api.ts';
import { h, replace } from './dom.ts';
import { explainAnswerSchema, LURUS_EVENT_NAMES, LURUS_EVENTS, PRX_EVENTS } from './schemas.ts';

const VERDICT_LABEL: Record<string, string> = {
  runs: 'runs',
  matcher: 'no match',
  disabled: 'disabled',
  untrusted: 'untrusted',
  changed_since_approval: 'changed since approval',
  newer_version_pending: 'newer version pending',
  invalid: 'invalid',
  duplicate: 'runs once (duplicate)',
  if: 'if not matched',
};

/**
 * "Why didn't it fire?" [UI-1]: `GET /api/explain`, the engine's own selection for an event (and
 * a tool or trigger for gate events): every configured hook in run order, and why it would not run.
 */
export function explainView(api: Api): HTMLElement {
  const event = h(
    'select',
    { attrs: { name: 'event', id: 'explain-event' } },
    h(
      'optgroup',
      { attrs: { label: 'observe (prx)' } },
      ...PRX_EVENTS.map((e) => h('option', { attrs: { value: e } }, e)),
    ),
    h(
      'optgroup',
      { attrs: { label: 'gate (lurus)' } },
      ...LURUS_EVENT_NAMES.map((e) => h('option', { attrs: { value: e } }, e)),
    ),
  );
  event.value = 'tool_call';
  const target = h('input', {
    attrs: { name: 'target', id: 'explain-target', type: 'text', spellcheck: 'false' },
  });
  const targetLabel = h('label', { attrs: { for: 'explain-target' } }, 'Tool');
  const result = h('div', { class: 'explain-result', attrs: { 'aria-live': 'polite' } });

  /** Which context field the event's matchers test, if any (prx hooks have no matcher). */
  const matchField = (): 'toolName' | 'trigger' | null => {
    const name = event.value;
    for (const [lurus, spec] of Object.entries(LURUS_EVENTS)) if (lurus === name) return spec.matcherField;
    return null;
  };
  const sync = () => {
    const field = matchField();
    target.disabled = field === null;
    targetLabel.textContent = field === 'trigger' ? 'Trigger' : 'Tool';
    target.placeholder =
      field === null ? '(no matcher for this event)' : field === 'trigger' ? 'e.g. manual' : 'e.g. Write';
  };
  event.addEventListener('change', sync);
  sync();

  const ask = async () => {
    const params = new URLSearchParams({ event: event.value });
    const field = matchField();
    if (field !== null && target.value.trim() !== '')
      params.set(field === 'trigger' ? 'trigger' : 'tool', target.value.trim());
    replace(result, h('p', { class: 'muted' }, 'Asking…'));
    const answer = await api.call('GET', `/api/explain?${params}`, explainAnswerSchema);
    if (!answer.ok) {
      replace(result, h('p', { class: 'error', attrs: { role: 'alert' } }, answer.error));
      return;
    }
    const list = answer.value.explanations;
    if (list.length === 0) {
      replace(result, h('p', { class: 'muted' }, `No hooks are configured for ${answer.value.event}.`));
      return;
    }
    replace(
      result,
      h(
        'ol',
        { class: 'explain-list', attrs: { 'aria-label': `hooks for ${answer.value.event}` } },
        ...list.map((e) =>
          h(
            'li',
            { class: `verdict-${e.verdict}`, attrs: { 'data-verdict': e.verdict } },
            h('span', { class: `badge verdict-${e.verdict}` }, VERDICT_LABEL[e.verdict] ?? e.verdict),
            h('strong', { class: 'hook' }, e.hook),
            // [G-FAIL-5] The handler as it runs: its if, failMode and timeout.
            e.handler !== undefined ? h('div', { class: 'handler muted' }, handlerLine(e.handler)) : null,
            h('div', { class: 'detail' }, e.detail),
            h('div', { class: 'source muted' }, `from ${e.source}`),
          ),
        ),
      ),
    );
  };

  return h(
    'section',
    { class: 'panel explain-panel', attrs: { id: 'explain', 'aria-labelledby': 'explain-title' } },
    h('header', { class: 'panel-head' }, h('h2', { attrs: { id: 'explain-title' } }, "Why didn't it fire?")),
    h(
      'form',
      {
        class: 'explain-form',
        attrs: { 'aria-label': 'explain' },
        on: {
          submit: (ev) => {
            ev.preventDefault();
            void ask();
          },
        },
      },
      h('div', { class: 'field' }, h('label', { attrs: { for: 'explain-event' } }, 'Event'), event),
      h('div', { class: 'field' }, targetLabel, target),
      h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Explain'),
    ),
    result,
  );
}
