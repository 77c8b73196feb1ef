// A stand-in for the Anthropic Messages API on 127.0.0.1, so the example runs offline: each
// request of the agent loop (one that offers tools) gets the next scripted turn, streamed as
// Claude Code's client expects; other requests (titles, summaries) get a short text.
import { createServer } from 'node:http';

function events(blocks) {
  const message = {
    id: 'msg_example',
    type: 'message',
    role: 'assistant',
    model: 'claude-mock',
    content: [],
  };
  const out = [
    [
      'message_start',
      {
        type: 'message_start',
        message: { ...message, stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } },
      },
    ],
  ];
  blocks.forEach((block, index) => {
    const start = block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' };
    const delta =
      block.type === 'tool_use'
        ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
        : { type: 'text_delta', text: block.text };
    out.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
    out.push(['content_block_delta', { type: 'content_block_delta', index, delta }]);
    out.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  out.push([
    'message_delta',
    { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } },
  ]);
  out.push(['message_stop', { type: 'message_stop' }]);
  return out;
}

/** @param {Array<Array<{name: string, input: object}> | string>} turns tool calls, or a final text */
export function startMockAnthropic(turns) {
  let turn = 0;
  let ids = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url?.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
        return;
      }
      const request = body === '' ? {} : JSON.parse(body);
      const main = Array.isArray(request.tools) && request.tools.length > 0;
      const next = main ? (turns[turn++] ?? 'Done.') : 'ok';
      const blocks =
        typeof next === 'string'
          ? [{ type: 'text', text: next }]
          : next.map((call) => ({
              type: 'tool_use',
              id: `toolu_${++ids}`,
              name: call.name,
              input: call.input,
            }));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [name, data] of events(blocks))
        res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}
