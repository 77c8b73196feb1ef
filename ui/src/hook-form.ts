import type { ApiAnswer } from './api.ts';
import { h, replace } from './dom.ts';
import { parseEnv } from './env-lines.ts';
import { type FieldIssue, type Hook, PRX_EVENTS } from './schemas.ts';

const FIELDS = ['event', 'command', 'args', 'env', 'cwd', 'timeout_ms', 'stdin_json', 'enabled'] as const;
type Field = (typeof FIELDS)[number];
/** The action fields this form edits; the others of an edited hook are sent back unchanged. */
const EDITED = new Set(['command', 'args', 'env', 'cwd', 'timeout_ms', 'stdin_json']);

/** What `POST /api/hooks` and `PUT /api/hooks/:id` take [P-API-2]. */
export interface HookBody {
  event: string;
  action: Record<string, unknown>;
  enabled: boolean;
}

export interface HookFormOptions {
  /** The hook being edited; none to add one. */
  hook?: Hook;
  save(body: HookBody): Promise<ApiAnswer<Hook>>;
  done(saved: Hook | undefined): void;
}

/**
 * Add or edit a hook. The API validates (the very schema of hooks.json [P-CFG-2], [P-SEC-2..4])
 * and answers each problem with its field path (`action.command`, `action.env.HOME`); the
 * message is shown at that field, and anything not tied to one above the buttons.
 */
export function hookForm(opts: HookFormOptions): HTMLFormElement {
  const hook = opts.hook;
  const a = hook?.action;
  const prefix = hook === undefined ? 'new' : 'edit';
  const errors = new Map<Field, HTMLElement>();
  const wrappers = new Map<Field, HTMLElement>();

  const field = (name: Field, label: string, control: HTMLElement, hint?: string) => {
    const id = `${prefix}-${name}`;
    control.id = id;
    const error = h('p', { class: 'field-error', attrs: { id: `${id}-error`, role: 'alert', hidden: true } });
    control.setAttribute('aria-describedby', `${id}-error`);
    errors.set(name, error);
    const wrap = h(
      'div',
      { class: `field field-${name}`, attrs: { 'data-field': name } },
      h('label', { attrs: { for: id } }, label),
      control,
      hint !== undefined ? h('small', { class: 'hint' }, hint) : null,
      error,
    );
    wrappers.set(name, wrap);
    return wrap;
  };

  const event = h(
    'select',
    { attrs: { name: 'event' } },
    ...PRX_EVENTS.map((e) => h('option', { attrs: { value: e } }, e)),
  );
  event.value = hook?.event ?? 'tool_call';
  const command = h('input', {
    attrs: {
      name: 'command',
      type: 'text',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'hooks/audit.sh',
    },
  });
  command.value = a?.command ?? '';
  const args = h('textarea', {
    attrs: { name: 'args', rows: 2, spellcheck: 'false', placeholder: 'one argument per line' },
  });
  args.value = (a?.args ?? []).join('\n');
  const env = h('textarea', {
    attrs: { name: 'env', rows: 2, spellcheck: 'false', placeholder: 'NAME=value, one per line' },
  });
  env.value = Object.entries(a?.env ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  const cwd = h('input', {
    attrs: { name: 'cwd', type: 'text', spellcheck: 'false', placeholder: '(the workspace)' },
  });
  cwd.value = a?.cwd ?? '';
  const timeout = h('input', {
    attrs: { name: 'timeout_ms', type: 'text', inputmode: 'numeric', placeholder: '30000' },
  });
  timeout.value = a === undefined ? '' : String(a.timeout_ms);
  const stdinJson = h('input', { attrs: { name: 'stdin_json', type: 'checkbox' } });
  stdinJson.checked = a?.stdin_json ?? false;
  const enabled = h('input', { attrs: { name: 'enabled', type: 'checkbox' } });
  enabled.checked = hook?.enabled ?? true;

  const formError = h('div', { class: 'form-error', attrs: { role: 'alert', hidden: true } });
  const saveButton = h(
    'button',
    { class: 'primary', attrs: { type: 'submit' } },
    hook === undefined ? 'Add hook' : 'Save',
  );

  const clear = () => {
    for (const [name, el] of errors) {
      el.hidden = true;
      el.textContent = '';
      wrappers.get(name)?.classList.remove('invalid');
      wrappers.get(name)?.querySelector('input, select, textarea')?.removeAttribute('aria-invalid');
    }
    formError.hidden = true;
    replace(formError);
  };

  const show = (issues: readonly FieldIssue[], summary: string) => {
    const loose: string[] = [];
    for (const issue of issues) {
      const at = fieldOf(issue.path);
      const el = at === undefined ? undefined : errors.get(at.field);
      if (at === undefined || el === undefined) {
        loose.push(`${issue.path}: ${issue.message}`);
        continue;
      }
      el.hidden = false;
      const line = at.rest === '' ? issue.message : `${at.rest}: ${issue.message}`;
      el.textContent = el.textContent === '' ? line : `${el.textContent}\n${line}`;
      wrappers.get(at.field)?.classList.add('invalid');
      wrappers.get(at.field)?.querySelector('input, select, textarea')?.setAttribute('aria-invalid', 'true');
    }
    if (loose.length > 0 || issues.length === 0) {
      formError.hidden = false;
      replace(formError, summary, ...loose.map((l) => h('div', {}, l)));
    }
  };

  const form = h(
    'form',
    {
      class: 'hook-form',
      attrs: { 'aria-label': hook === undefined ? 'add a hook' : `edit ${hook.id}`, novalidate: true },
      on: {
        submit: (ev) => {
          ev.preventDefault();
          void submit();
        },
      },
    },
    h('h3', {}, hook === undefined ? 'Add a hook' : `Edit ${hook.id}`),
    h(
      'div',
      { class: 'field-grid' },
      field('event', 'Event', event),
      field('command', 'Command', command, 'A path or a program name; no shell (; | & $ …).'),
      field('args', 'Arguments', args),
      field('env', 'Environment', env),
      field('cwd', 'Working directory', cwd),
      field('timeout_ms', 'Timeout (ms)', timeout),
      field('stdin_json', 'Envelope on stdin', stdinJson),
      field('enabled', 'Enabled', enabled),
    ),
    formError,
    h(
      'div',
      { class: 'buttons' },
      saveButton,
      h('button', { attrs: { type: 'button' }, on: { click: () => opts.done(undefined) } }, 'Cancel'),
    ),
  );

  async function submit(): Promise<void> {
    clear();
    const envParsed = parseEnv(env.value);
    if (!envParsed.ok) {
      show([{ path: 'action.env', message: envParsed.message }], 'Fix the marked fields.');
      return;
    }
    // Fields this form does not edit (sandbox, keep_children…) are kept: PUT replaces the whole action.
    const kept = Object.fromEntries(Object.entries(a ?? {}).filter(([key]) => !EDITED.has(key)));
    const t = timeout.value.trim();
    const action: Record<string, unknown> = {
      ...kept,
      command: command.value,
      args: args.value.split('\n').filter((line) => line.trim() !== ''),
      env: envParsed.env,
      ...(cwd.value.trim() !== '' ? { cwd: cwd.value.trim() } : {}),
      // Not a number: sent as typed, so the API's message about it lands at this field.
      ...(t !== '' ? { timeout_ms: /^\d+$/.test(t) ? Number(t) : t } : {}),
      stdin_json: stdinJson.checked,
    };
    saveButton.disabled = true;
    const answer = await opts.save({ event: event.value, action, enabled: enabled.checked });
    saveButton.disabled = false;
    if (answer.ok) opts.done(answer.value);
    else show(answer.issues, answer.error);
  }

  return form;
}

/** An issue's field in this form, and the part of its path below it (`HOME` of `action.env.HOME`). */
function fieldOf(path: string): { field: Field; rest: string } | undefined {
  const parts = path.split('.');
  const [first, second] = parts;
  if (first === 'event' || first === 'enabled') return { field: first, rest: parts.slice(1).join('.') };
  if (first !== 'action' || second === undefined) return undefined;
  const field = FIELDS.find((f) => f === second);
  return field === undefined ? undefined : { field, rest: parts.slice(2).join('.') };
}
