/**
 * (SPEC §14.4) How a `rule` handler is named in records, `explain`, `hookwerk runs` and reasons:
 * its own `name` when it gives one, else `rule: ` and its condition (long ones cut).
 */
const SHOWN_WHEN_CHARS = 80;

export function ruleName(name: unknown, when: unknown): string {
  if (typeof name === 'string' && name !== '') return name;
  const text = typeof when === 'string' ? when.replace(/\s+/g, ' ').trim() : '';
  return `rule: ${text.length > SHOWN_WHEN_CHARS ? `${text.slice(0, SHOWN_WHEN_CHARS)}…` : text}`;
}
