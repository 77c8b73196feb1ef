import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHookEngine } from '../engine.ts';
import type { PrxEventName } from '../events/prx-events.ts';
import { silentLogger } from '../records/logger.ts';
import { formatRecord } from './format.ts';

const SESSION = 'sess_demo_001';

/** A scripted agent turn that emits all 8 events, with the seed page's example payloads. */
const SCRIPT: ReadonlyArray<[PrxEventName, Record<string, unknown>]> = [
  ['agent_start', { agent: 'coder', session: SESSION }],
  ['llm_request', { provider: 'openai', model: 'gpt-4o', messages_count: 3 }],
  ['llm_response', { provider: 'openai', model: 'gpt-4o', duration_ms: 1842, success: true }],
  ['tool_call_start', { tool: 'shell', arguments: { command: 'ls -la' } }],
  ['tool_call', { tool: 'shell', success: true, output: 'README.md\npackage.json\nsrc\n' }],
  ['error', { component: 'provider', message: 'rate limited, retrying in 2s' }],
  ['turn_complete', {}],
  ['agent_end', { success: true, messages_count: 5 }],
];

function demoWorkspaceSource(): string {
  return fileURLToPath(new URL('../../examples/demo/', import.meta.url));
}

/** `hookwerk demo`: copies the bundled workspace to a temp folder and drives a scripted session through it. */
export async function demoCommand(opts: { keep?: boolean }, out: (line: string) => void): Promise<number> {
  const workspace = mkdtempSync(path.join(tmpdir(), 'hookwerk-demo-'));
  cpSync(demoWorkspaceSource(), workspace, { recursive: true });
  const engine = await createHookEngine({
    workspace,
    watch: false,
    logger: silentLogger,
    sessionId: SESSION,
  });
  const busLines: string[] = [];
  engine.bus.subscribe('prx.lifecycle.*', (msg) => {
    busLines.push(`bus    ${msg.topic} (depth ${msg.depth})`);
  });
  out(`hookwerk demo: workspace ${workspace}`);
  out(`hooks.json: ${engine.actions().length} shell hooks on 8 events; every event also goes to the bus\n`);
  try {
    for (const [event, payload] of SCRIPT) {
      out(`-> emit ${event} ${JSON.stringify(payload)}`);
      const before = engine.runs().length;
      engine.emit(event, payload);
      await engine.drain();
      for (const line of busLines.splice(0)) out(`     ${line}`);
      const records = engine.runs({ limit: engine.runs().length - before }).reverse();
      for (const r of records) out(`     hook   ${formatRecord(r)}`);
    }
    out('\nWhat the hooks wrote:');
    const logs = path.join(workspace, 'logs');
    for (const name of existsSync(logs) ? readdirSync(logs).sort() : []) {
      const lines = readFileSync(path.join(logs, name), 'utf8').trimEnd().split('\n');
      out(`  logs/${name} (${lines.length} line${lines.length === 1 ? '' : 's'})`);
      for (const line of lines) out(`    ${line.length > 160 ? `${line.slice(0, 157)}...` : line}`);
    }
    const all = engine.runs();
    const ok = all.filter((r) => r.outcome === 'ok').length;
    if (opts.keep === false) {
      // The workspace is about to go: pointing at it would send the reader to a missing folder.
      out(`\n${all.length} hook runs, ${ok} ok. (--no-keep: the workspace is removed.)`);
    } else {
      out(`\n${all.length} hook runs, ${ok} ok. Edit ${path.join(workspace, 'hooks.json')} and try:`);
      out(
        `  npx hookwerk emit tool_call --workspace ${workspace} --payload '{"tool":"shell","success":true,"output":"hi"}' --wait`,
      );
    }
  } finally {
    await engine.close();
    if (opts.keep === false) rmSync(workspace, { recursive: true, force: true });
  }
  return 0;
}
