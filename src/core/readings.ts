/**
 * (issue 31) One hook definition, however many dialects read it: `.claude/settings.json` is read
 * by Claude Code, Copilot and Cursor, so each of its hooks is loaded three times. Whatever lists or
 * counts hooks for a person (`hookwerk trust`, the Gate page) groups the readings by the hook's
 * `source` (`file#/json/pointer`, the same in every reading) and names every reader.
 */

export interface Reading<D extends string, T> {
  /** The first reading, in the order given. */
  readonly item: T;
  /** Every dialect that reads it, in the order given, each once. */
  readonly dialects: D[];
}

export function groupReadings<D extends string, T>(
  readings: Iterable<{ dialect: D; item: T }>,
  sourceOf: (item: T) => string,
): Reading<D, T>[] {
  const bySource = new Map<string, Reading<D, T>>();
  for (const { dialect, item } of readings) {
    const known = bySource.get(sourceOf(item));
    if (known === undefined) bySource.set(sourceOf(item), { item, dialects: [dialect] });
    else if (!known.dialects.includes(dialect)) known.dialects.push(dialect);
  }
  return [...bySource.values()];
}
