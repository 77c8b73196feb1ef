/** Where the engine reports what it cannot throw (reload errors, handler failures). */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** One line per message on stderr; info is silent so an embedding agent's terminal stays clean. */
export const stderrLogger: Logger = {
  info() {},
  warn(message) {
    process.stderr.write(`hookwerk: ${message}\n`);
  },
  error(message) {
    process.stderr.write(`hookwerk: ${message}\n`);
  },
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
