/** Stdin as text for `emit` and `decide`: the bounded read of core/stdin-bytes.ts, with their error. */
import { readStdinBytes } from '../core/stdin-bytes.ts';
import { CliError } from './cli-error.ts';

/**
 * All of stdin, at most `max` bytes (more is an error naming `what`); empty when stdin is a
 * terminal (nobody is piping anything).
 */
export async function readStdin(max: number, what: string): Promise<string> {
  const bytes = await readStdinBytes(max);
  if (bytes === undefined) throw new CliError(`${what} on stdin is larger than ${max} bytes`);
  return bytes.toString('utf8');
}
