/**
 * [R-POL-1] The `include` list of the policy files (`<project>/.hookwerk/policy.json`,
 * `<home>/.hookwerk/policy.json`), read just far enough for `install` to warn about hooks that
 * would run twice [R-INST-1, A-ALL-1]. A file that is missing or cannot be read says nothing here:
 * the policy's own loader reports it.
 */
import path from 'node:path';
import { z } from 'zod';
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import { parseJsonText } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';

const includeOf = z.object({ include: z.array(z.string()) });

/** The policy files that apply: the project's (when given), then the user's. */
export function policyFiles(home: string, projectDir?: string): string[] {
  const user = path.join(home, '.hookwerk', 'policy.json');
  return projectDir === undefined ? [user] : [path.join(projectDir, '.hookwerk', 'policy.json'), user];
}

/** The policy files whose `include` names `name` (e.g. `claude`). */
export function policiesIncluding(name: string, files: readonly string[]): string[] {
  return files.filter((file) => {
    const read = readSourceFile(file, MAX_SOURCE_BYTES);
    if (read.kind !== 'text') return false;
    const parsed = parseJsonText(file, read.text);
    if (!parsed.ok) return false;
    const policy = includeOf.safeParse(parsed.value);
    return policy.success && policy.data.include.includes(name);
  });
}
