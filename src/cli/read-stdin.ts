import { CliError } from './cli-error.ts';

/**
 * All of stdin, at most `max` bytes (more is an error naming `what`); empty when stdin is a
 * terminal (nobody is piping anything).
 */
export async function readStdin(max: number, what: string): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > max) throw new CliError(`${what} on stdin is larger than ${max} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}
