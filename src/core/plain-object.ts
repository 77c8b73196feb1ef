/** A JSON object: not null, not an array (outside JSON is checked with this before it is read). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `table[key]` when `key` is the table's own (a command or tool named `constructor` or
 * `__proto__` is no entry of a data table, whatever `Object.prototype` holds).
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
