import { CliError } from './cli-error.ts';

/** A numeric flag: a whole number ≥ `min`, or undefined when the flag was not given. */
export function wholeNumberOption(flag: string, value: string | undefined, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,12}$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min)
    throw new CliError(`${flag} must be a whole number ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}
