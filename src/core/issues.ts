import type { z } from 'zod';

/** One problem in a config file: where (file + JSON path) and a one-line reason. */
export interface ConfigIssue {
  file: string;
  /** JSONPath-style location, e.g. `$.hooks.tool_call[0].env.HOME`. */
  path: string;
  message: string;
  /** A `warning` is reported by `validate` but fails nothing (an unknown field, an undocumented event). */
  level?: 'warning';
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
