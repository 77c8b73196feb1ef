import * as z from 'zod/mini';
import type { Api } from './api.ts';
import { h, replace } from './dom.ts';
import { type HookBody, hookForm } from './hook-form.ts';
import { type Hook, hookSchema, hooksAnswerSchema, toggleAnswerSchema } from './schemas.ts';

/**
 * The hooks of hooks.json [UI-1] through the API [P-API-2]: enable/disable, add, edit, delete.
 * Every write carries `If-Match` with the ETag of the list as last loaded, so a change made
 * meanwhile (by hand, by another client) is not overwritten: the API answers 412, the page
 * reloads the list and says so.
 */
export function hooksView(api: Api): { element: HTMLElement; load(): Promise<void> } {
  let hooks: Hook[] = [];
  let etag: string | undefined;
  const body = h('tbody');
  const formBox = h('div', { class: 'form-box' });
  const status = h('p', { class: 'status', attrs: { role: 'status' } });

  const say = (text: string, kind: 'info' | 'error' = 'info') => {
    status.textContent = text;
    status.dataset.kind = kind;
  };

  const load = async () => {
    const answer = await api.call('GET', '/api/hooks', hooksAnswerSchema);
    if (!answer.ok) {
      say(answer.error, 'error');
      return;
    }
    hooks = answer.value.hooks;
    etag = answer.etag;
    render();
  };

  /** After a failed write: a 412 means the list is stale, so it is reloaded. */
  const failed = async (what: string, answer: { status: number; error: string }) => {
    if (answer.status === 412) {
      await load();
      say(
        `hooks.json changed since it was loaded; the list is reloaded: ${what} again if still wanted.`,
        'error',
      );
    } else {
      say(`${what}: ${answer.error}`, 'error');
    }
  };

  const toggle = async (hook: Hook, box: HTMLInputElement) => {
    box.disabled = true;
    const answer = await api.call(
      'PATCH',
      `/api/hooks/${encodeURIComponent(hook.id)}/toggle`,
      toggleAnswerSchema,
      {
        ifMatch: etag,
      },
    );
    if (answer.ok) {
      await load();
      say(`${hook.id} ${answer.value.enabled ? 'enabled' : 'disabled'}.`);
    } else {
      box.checked = hook.enabled;
      box.disabled = false;
      await failed(`toggle ${hook.id}`, answer);
    }
  };

  const remove = async (hook: Hook) => {
    const answer = await api.call('DELETE', `/api/hooks/${encodeURIComponent(hook.id)}`, z.null(), {
      ifMatch: etag,
    });
    if (answer.ok) {
      await load();
      say(`${hook.id} deleted.`);
    } else {
      await failed(`delete ${hook.id}`, answer);
    }
  };

  const openForm = (hook?: Hook) => {
    const save = (b: HookBody) =>
      hook === undefined
        ? api.call('POST', '/api/hooks', hookSchema, { body: b, ifMatch: etag })
        : api.call('PUT', `/api/hooks/${encodeURIComponent(hook.id)}`, hookSchema, {
            body: b,
            ifMatch: etag,
          });
    const form = hookForm({
      ...(hook !== undefined ? { hook } : {}),
      save: async (b) => {
        const answer = await save(b);
        if (!answer.ok && answer.status === 412)
          await failed(hook === undefined ? 'add' : `save ${hook.id}`, answer);
        return answer;
      },
      done: (saved) => {
        replace(formBox);
        if (saved !== undefined) {
          say(`${saved.id} ${hook === undefined ? 'added' : 'saved'}.`);
          void load();
        }
      },
    });
    replace(formBox, form);
    form.querySelector<HTMLElement>('[name="command"]')?.focus();
  };

  const row = (hook: Hook) => {
    const box = h('input', {
      class: 'toggle',
      attrs: { type: 'checkbox', 'aria-label': `enabled ${hook.id}` },
      on: { change: () => void toggle(hook, box) },
    });
    box.checked = hook.enabled;
    let armed = false;
    const del = h(
      'button',
      {
        class: 'danger',
        attrs: { type: 'button', 'aria-label': `delete ${hook.id}` },
        on: {
          // Two clicks: a native confirm() would block the page (and headless browsers dismiss it).
          click: () => {
            if (armed) {
              void remove(hook);
              return;
            }
            armed = true;
            del.textContent = 'Sure?';
            setTimeout(() => {
              armed = false;
              del.textContent = 'Delete';
            }, 4000);
          },
        },
      },
      'Delete',
    );
    const a = hook.action;
    return h(
      'tr',
      { class: hook.enabled ? 'hook' : 'hook disabled', attrs: { 'data-hook-id': hook.id } },
      h('td', { class: 'c-on' }, box),
      h('td', { class: 'c-id hook' }, hook.id),
      h('td', { class: 'c-event' }, hook.event),
      h(
        'td',
        { class: 'c-cmd cmd' },
        h('code', {}, [a.command, ...a.args.map(quoteArg)].join(' ')),
        a.sandbox === 'bwrap' ? h('span', { class: 'tag' }, 'bwrap') : null,
        a.stdin_json ? h('span', { class: 'tag' }, 'stdin') : null,
      ),
      h('td', { class: 'c-timeout num wide-only' }, a.timeout_ms),
      h(
        'td',
        { class: 'c-actions actions' },
        h(
          'button',
          { attrs: { type: 'button', 'aria-label': `edit ${hook.id}` }, on: { click: () => openForm(hook) } },
          'Edit',
        ),
        del,
      ),
    );
  };

  const render = () => {
    replace(body, ...hooks.map(row));
    if (hooks.length === 0)
      body.append(h('tr', { class: 'empty' }, h('td', { attrs: { colspan: 6 } }, 'No hooks in hooks.json.')));
  };

  const element = h(
    'section',
    { class: 'panel hooks-panel', attrs: { id: 'hooks', 'aria-labelledby': 'hooks-title' } },
    h(
      'header',
      { class: 'panel-head' },
      h('h2', { attrs: { id: 'hooks-title' } }, 'Hooks (hooks.json)'),
      h(
        'div',
        { class: 'buttons' },
        h(
          'button',
          { attrs: { type: 'button' }, on: { click: () => void load().then(() => say('Reloaded.')) } },
          'Reload',
        ),
        h(
          'button',
          { class: 'primary', attrs: { type: 'button' }, on: { click: () => openForm() } },
          'Add hook',
        ),
      ),
    ),
    status,
    formBox,
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'hooks', attrs: { 'aria-label': 'hooks' } },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'on'),
            h('th', {}, 'id'),
            h('th', {}, 'event'),
            h('th', {}, 'command'),
            h('th', { class: 'num wide-only' }, 'timeout ms'),
            h('th', {}, h('span', { class: 'sr-only' }, 'actions')),
          ),
        ),
        body,
      ),
    ),
  );
  return { element, load };
}

/** Arguments as a reader would type them: quoted when they hold a space or a quote. */
function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : JSON.stringify(arg);
}
