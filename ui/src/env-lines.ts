// The form's Environment field: one `NAME=value` a line, as in a .env file.

/** `NAME=value` lines; the value may hold `=`. Blank lines are skipped. */
export function parseEnv(
  text: string,
): { ok: true; env: Record<string, string> } | { ok: false; message: string } {
  const env: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return { ok: false, message: `line ${i + 1}: write NAME=value` };
    // The name as typed: the API says what is wrong with one (`1X`, `PATH`), at this field.
    env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return { ok: true, env };
}
