/**
 * [T-SELF-2] A yes/no question asked on the process's controlling terminal (`/dev/tty`), never on
 * stdin: `echo y | hookwerk trust` is an agent's answer, not a person's. Without a controlling
 * terminal (an agent's tool call, CI, a daemon) there is no one to ask: `undefined`.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ReadStream } from 'node:tty';

/** `true` for y/yes (any case), `false` for anything else or end of input, `undefined` without a terminal. */
export async function askOnControllingTerminal(
  question: string,
  device = '/dev/tty',
): Promise<boolean | undefined> {
  let fd: number;
  try {
    fd = openSync(device, 'r+');
  } catch {
    return undefined;
  }
  let input: ReadStream;
  try {
    writeSync(fd, question);
    input = new ReadStream(fd);
  } catch {
    closeSync(fd);
    return undefined;
  }
  const rl = createInterface({ input, terminal: false });
  const line = await new Promise<string | undefined>((resolve) => {
    rl.once('line', resolve);
    rl.once('close', () => resolve(undefined));
  });
  rl.close();
  // Closes the descriptor too.
  input.destroy();
  return line !== undefined && /^y(es)?$/i.test(line.trim());
}
