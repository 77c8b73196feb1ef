/**
 * (issue 31) Stdin read whole, bounded, in one place: `hookwerk hook` reads its call's input with
 * it, and `emit`/`decide` through cli/read-stdin.ts. No imports: the cold hook path loads it.
 */

/**
 * All of stdin, or `undefined` once more than `max` bytes came; empty when stdin is a terminal
 * (nobody is piping anything).
 */
export async function readStdinBytes(max: number): Promise<Buffer | undefined> {
  if (process.stdin.isTTY) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > max) return undefined;
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
