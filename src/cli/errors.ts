/** An error the user can fix: printed as one line, no stack, with its exit code. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function parseJsonOption(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${flag} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}
