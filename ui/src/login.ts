import { h } from './dom.ts';

/**
 * The token prompt [UI-1]: the token is `serve`'s (`<workspace>/.hookwerk/token` or
 * `HOOKWERK_TOKEN`). `check` says whether the API accepts it; an error message is shown here.
 */
export function loginView(
  message: string | undefined,
  check: (token: string) => Promise<string | undefined>,
): HTMLElement {
  const input = h('input', {
    attrs: {
      id: 'token',
      name: 'token',
      type: 'password',
      autocomplete: 'off',
      spellcheck: 'false',
      required: true,
    },
  });
  const error = h('p', { class: 'error', attrs: { role: 'alert', hidden: message === undefined } }, message);
  const button = h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Open dashboard');
  const form = h(
    'form',
    {
      class: 'login-form',
      attrs: { 'aria-label': 'sign in' },
      on: {
        submit: (ev) => {
          ev.preventDefault();
          const token = input.value.trim();
          if (token === '') return;
          button.disabled = true;
          void check(token).then((problem) => {
            button.disabled = false;
            if (problem === undefined) return;
            error.textContent = problem;
            error.hidden = false;
            input.select();
          });
        },
      },
    },
    h('h1', {}, 'hookwerk'),
    h(
      'p',
      {},
      'Paste the API token of this ',
      h('code', {}, 'hookwerk serve'),
      ': the file ',
      h('code', {}, '<workspace>/.hookwerk/token'),
      ' (or your ',
      h('code', {}, 'HOOKWERK_TOKEN'),
      '). It is kept for this tab only.',
    ),
    h('label', { attrs: { for: 'token' } }, 'Token'),
    input,
    error,
    button,
  );
  queueMicrotask(() => input.focus());
  return h('main', { class: 'login' }, form);
}
