/**
 * "Did you mean …?" for names in hookwerk's own files: two names look alike when they are equal
 * but for case, or at most two edits apart (an event name, a guard name).
 */

/** Equal but for case, or at most two edits apart. */
export function looksLike(a: string, b: string): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return true;
  return Math.abs(a.length - b.length) <= 2 && editDistance(a.toLowerCase(), b.toLowerCase()) <= 2;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] ?? 0;
}
