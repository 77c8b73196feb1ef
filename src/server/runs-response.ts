import type { RunRecord } from '../records/run-record.ts';

/**
 * (issue 11) Largest `GET /api/runs` body, in bytes. Records are 8 KiB a field at most
 * (`truncate-record.ts`), so 1000 of them fit in memory, but not always in one answer a client
 * wants; beyond this the oldest are left out and counted.
 */
export const MAX_RUNS_RESPONSE_BYTES = 4 * 1024 * 1024;

/**
 * `{"runs": [RECORD…]}` as JSON text, newest first as given, cut once `maxBytes` would be passed;
 * then `"omitted": N` says how many of the requested records were left out (the oldest).
 * Serialized record by record: one huge `JSON.stringify` could fail ("Invalid string length").
 * `extra` counts follow the runs (`/api/agent-runs`: `skipped`, `droppedSegments`).
 */
export function runsResponseJson(
  runs: readonly RunRecord[],
  maxBytes = MAX_RUNS_RESPONSE_BYTES,
  extra: Readonly<Record<string, number>> = {},
): string {
  const parts: string[] = [];
  // `{"runs":[` + `],"omitted":NNNN}`, rounded up.
  let bytes = 32;
  for (const run of runs) {
    const json = JSON.stringify(run);
    const size = Buffer.byteLength(json, 'utf8') + 1;
    if (bytes + size > maxBytes) break;
    parts.push(json);
    bytes += size;
  }
  const omitted = runs.length - parts.length;
  const counts = Object.entries(extra).map(([key, n]) => `,${JSON.stringify(key)}:${n}`);
  return `{"runs":[${parts.join(',')}]${counts.join('')}${omitted > 0 ? `,"omitted":${omitted}` : ''}}`;
}
