/**
 * [T-SELF-1] The hook files `install` wrote into, as its records say (`<home>/.hookwerk/installs/
 * <hash>.json`, R-INST-1): the `self-protect` guard keeps them whether or not they are in an
 * agent's usual place (`CODEX_HOME=/opt/codex`). Read by the layer that runs the guards (once per
 * call or per policy load) and handed over as `GuardContext.hookFiles`: a guard itself reads no
 * file. Bounded: at most `MAX_RECORDS` records of at most 8 MiB, regular files only, never a throw.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseBoundedJson } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { realPrefixPath } from '../core/real-path.ts';

export const MAX_RECORDS = 256;
const MAX_RECORD_BYTES = 8 * 1024 * 1024;

const recordFile = z.object({ file: z.string().min(1) });

/** The real paths of the files the install records under `home` name. */
export function installedHookFiles(home: string): string[] {
  const dir = path.join(home, '.hookwerk', 'installs');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const name of names.sort().slice(0, MAX_RECORDS)) {
    const read = readSourceFile(path.join(dir, name), MAX_RECORD_BYTES);
    if (read.kind !== 'text') continue;
    const parsed = parseBoundedJson(read.text);
    const record = parsed.ok ? recordFile.safeParse(parsed.value) : undefined;
    if (record?.success === true && path.isAbsolute(record.data.file))
      out.add(realPrefixPath(record.data.file));
  }
  return [...out];
}
