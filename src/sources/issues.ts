import type { z } from 'zod';
import { jsonErrorOffset } from './json-error-offset.ts';

/** One problem in a config file: where (file + JSON path) and a one-line reason. */
export interface ConfigIssue {
  file: string;
  /** JSONPath-style location, e.g. `$.hooks.tool_call[0].env.HOME`. */
  path: string;
  message: string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsonPath(segments: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && IDENT.test(seg)) out += `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

export function formatIssue(issue: ConfigIssue): string {
  return `${issue.file}: ${issue.path}: ${issue.message}`;
}

/**
 * Turns zod issues into one line each. Unknown keys become one issue per key,
 * located at the key itself, so the path points at what to delete.
 */
export function fromZodIssues(
  file: string,
  issues: ReadonlyArray<z.core.$ZodIssue>,
  unknownKeyMessage: (parentPath: ReadonlyArray<PropertyKey>, key: string) => string,
  basePath: ReadonlyArray<PropertyKey> = [],
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const path = [...basePath, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ file, path: jsonPath([...path, key]), message: unknownKeyMessage(path, key) });
      }
    } else {
      out.push({ file, path: jsonPath(path), message: oneLine(issue.message) });
    }
  }
  return out;
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** JSON.parse with an error that names line and column instead of a byte offset. */
export function parseJsonText(
  file: string,
  text: string,
): { ok: true; value: unknown } | { ok: false; issue: ConfigIssue } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const offset = jsonErrorOffset(text);
    let where = '';
    if (offset >= 0) {
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      const col = offset - before.lastIndexOf('\n');
      const found =
        offset < text.length ? `unexpected ${JSON.stringify(text[offset])}` : 'unexpected end of file';
      where = ` (${found} at line ${line}, column ${col})`;
    }
    // V8's own message quotes a snippet of the file; the position above says more in less.
    const reason = where ? 'syntax error' : message.split('\n')[0]!;
    return { ok: false, issue: { file, path: '$', message: `invalid JSON: ${reason}${where}` } };
  }
}
