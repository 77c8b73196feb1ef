/**
 * Server-Sent Events, parsed by hand: `EventSource` cannot send an `Authorization` header, and the
 * stream wants one [P-API-1], so the page reads it with `fetch()` and splits it here (WHATWG
 * "event stream interpretation", the parts hookwerk uses: event, data, comments).
 */
export type SseItem = { kind: 'event'; event: string; data: string } | { kind: 'comment'; text: string };

export class SseParser {
  #rest = '';
  #event = '';
  #data: string[] = [];

  /** Feeds decoded text; returns the items it completed. */
  push(text: string): SseItem[] {
    const out: SseItem[] = [];
    let buf = this.#rest + text;
    // A `\r` at the very end may be the first half of `\r\n`: hold it until the next chunk says.
    const held = buf.endsWith('\r') ? '\r' : '';
    if (held !== '') buf = buf.slice(0, -1);
    const lines = buf.split(/\r\n|\r|\n/);
    // The last piece has no line end yet: it waits for the rest of its line.
    this.#rest = (lines.pop() ?? '') + held;
    for (const line of lines) this.#line(line, out);
    return out;
  }

  #line(line: string, out: SseItem[]): void {
    if (line === '') {
      if (this.#data.length > 0)
        out.push({ kind: 'event', event: this.#event || 'message', data: this.#data.join('\n') });
      this.#event = '';
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) {
      out.push({ kind: 'comment', text: line.slice(1).trimStart() });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
  }
}
