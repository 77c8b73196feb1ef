/**
 * [R-HOOK-4] The Node client of the warm path: `hookwerk hook` hands its call to a running
 * `hookwerk daemon` (so machines without a C compiler get warm answers too). Any failure —
 * nothing listening, a malformed or incomplete reply, the daemon dying mid-call — is `undefined`,
 * and the caller decides in its own process: a lost daemon costs one cold call, never an answer.
 */
import { connect } from 'node:net';
import type { HookReply } from '../dialects/hook-agent.ts';
import { encodeRequest, replyReader, type WireRequest } from './daemon-wire.ts';

export function askDaemon(socket: string, request: WireRequest): Promise<HookReply | undefined> {
  const bytes = encodeRequest(request);
  // Over the daemon's bounds (a huge environment): this process decides.
  if (bytes === undefined) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const reader = replyReader();
    let settled = false;
    const settle = (reply: HookReply | undefined) => {
      if (settled) return;
      settled = true;
      conn.destroy();
      resolve(reply);
    };
    const conn = connect(socket);
    conn.on('error', () => settle(undefined));
    conn.on('close', () => settle(undefined));
    conn.on('data', (chunk: Buffer) => {
      const state = reader.push(chunk);
      if (state.kind === 'error') settle(undefined);
      else if (state.kind === 'done')
        settle({
          exitCode: state.value.exitCode,
          stdout: state.value.stdout.toString('utf8'),
          stderr: state.value.stderr.toString('utf8'),
        });
    });
    conn.end(bytes);
  });
}
