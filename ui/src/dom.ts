/** A tiny element builder: the dashboard is small enough to need no framework. */

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes; `true` sets an empty one, `false`/`undefined` leaves it out. */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class !== undefined) el.className = props.class;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== undefined) el.setAttribute(name, String(value));
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) {
    if (listener !== undefined) el.addEventListener(type, listener as EventListener);
  }
  append(el, children);
  return el;
}

/** Appends children; text is always text (never parsed as HTML), so record fields are safe to show. */
export function append(el: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Runs `fn` once before the next frame however often it is asked for: bursts of records render once. */
export function batched(fn: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fn();
    });
  };
}

/** A local time with milliseconds, from an ISO timestamp. */
export function timeOf(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function ms(n: number): string {
  return n < 10 ? n.toFixed(1) : String(Math.round(n));
}
