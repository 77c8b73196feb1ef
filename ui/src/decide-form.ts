import type { Api } from './api.ts';
import { h, replace } from './dom.ts';
import { verdictOf } from './gate-records.ts';
import { decideAnswerSchema } from './schemas.ts';

export interface DecideForm {
  element: HTMLElement;
  /** The dialects the server speaks, and the one it speaks by default (from `/api/gate`). */
  setDialects(known: readonly string[], chosen: string): void;
}

/** An example object per dialect: Lurus takes its context, the agent dialects their own input. */
function exampleOf(dialect: string): string {
  if (dialect === 'lurus') return '{"toolName": "Write", "toolInput": {"path": "a.txt"}}';
  return '{"tool_name": "Bash", "tool_input": {"command": "ls"}}';
}

/**
 * (issue 23) Try a decide in any dialect: `POST /api/decide` with `dialect`, the event and the
 * input (Lurus: the context) as JSON, and the decision it answered — "no hook matched" for one
 * that ran no hook.
 */
export function decideForm(api: Api, onDecided: () => void): DecideForm {
  const dialect = h('select', { attrs: { name: 'dialect', id: 'decide-dialect' } });
  const event = h('input', {
    attrs: { name: 'event', id: 'decide-event', type: 'text', spellcheck: 'false', value: 'PreToolUse' },
  });
  const input = h('textarea', { attrs: { name: 'input', id: 'decide-input', rows: 3, spellcheck: 'false' } });
  const inputError = h('p', { class: 'field-error', attrs: { id: 'decide-input-error' } });
  const result = h('div', { class: 'decide-result', attrs: { 'aria-live': 'polite' } });
  const sync = () => {
    input.placeholder = exampleOf(dialect.value);
  };
  dialect.addEventListener('change', sync);

  const ask = async () => {
    inputError.textContent = '';
    input.removeAttribute('aria-invalid');
    let value: unknown = {};
    if (input.value.trim() !== '') {
      try {
        value = JSON.parse(input.value);
      } catch (err) {
        inputError.textContent = `not JSON: ${err instanceof Error ? err.message : String(err)}`;
        input.setAttribute('aria-invalid', 'true');
        return;
      }
    }
    const field = dialect.value === 'lurus' ? 'context' : 'input';
    replace(result, h('p', { class: 'muted' }, 'Deciding…'));
    const answer = await api.call('POST', '/api/decide', decideAnswerSchema, {
      body: { dialect: dialect.value, event: event.value.trim(), [field]: value },
    });
    if (!answer.ok) {
      replace(result, h('p', { class: 'error', attrs: { role: 'alert' } }, answer.error));
      return;
    }
    const d = answer.value;
    replace(
      result,
      h(
        'p',
        { class: 'decision', attrs: { 'data-decision': d.decision } },
        h('span', { class: `badge verdict-${d.decision}` }, d.decision),
        d.blocked ? ' blocked' : '',
        d.reason !== undefined ? ` · ${d.reason}` : '',
      ),
      d.runs.length === 0
        ? h('p', { class: 'muted no-hooks' }, 'no hook matched')
        : h(
            'ul',
            { class: 'decide-runs', attrs: { 'aria-label': 'the runs of this decide' } },
            ...d.runs.map((r) =>
              h(
                'li',
                {},
                h('span', { class: `badge verdict-${verdictOf(r)}` }, verdictOf(r)),
                ' ',
                r.hook,
                h(
                  'span',
                  { class: 'muted' },
                  ` · ${r.outcome}${r.cause !== undefined ? ` (${r.cause})` : ''}`,
                ),
              ),
            ),
          ),
    );
    onDecided();
  };

  const element = h(
    'form',
    {
      class: 'decide-form',
      attrs: { 'aria-label': 'try a decide' },
      on: {
        submit: (ev) => {
          ev.preventDefault();
          void ask();
        },
      },
    },
    h('h3', {}, 'Try a decide'),
    h(
      'div',
      { class: 'decide-fields' },
      h('div', { class: 'field' }, h('label', { attrs: { for: 'decide-dialect' } }, 'Dialect'), dialect),
      h('div', { class: 'field' }, h('label', { attrs: { for: 'decide-event' } }, 'Event'), event),
      h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Decide'),
    ),
    h(
      'div',
      { class: 'field wide' },
      h('label', { attrs: { for: 'decide-input' } }, 'Input (JSON; Lurus: the context)'),
      input,
      inputError,
    ),
    result,
  );
  return {
    element,
    setDialects(known, chosen) {
      const have = [...dialect.options].map((o) => o.value).join(',');
      if (have !== known.join(',')) {
        const keep = dialect.value;
        replace(dialect, ...known.map((name) => h('option', { attrs: { value: name } }, name)));
        dialect.value = keep !== '' && known.includes(keep) ? keep : chosen;
        sync();
      }
    },
  };
}
