// A stand-in for the Anthropic Messages API on 127.0.0.1, for driving the real Claude Code offline.
// The main loop's requests (those that offer tools) get the case's turns in order, streamed as SSE:
// a turn is a list of tool calls (Claude Code runs them, fires the hooks, and sends the tool_result
// back on the next request) or a text that ends the turn. Every request is kept, so the comparison
// can see what the model was told (tool_result texts, hook context) and when.
import { startMockServer } from './mock-server.js';

/**
 * @param {{turns: Array<{tools?: Array<{name: string, input: object}>, text?: string}>}} script
 */
export function startAnthropicMock(script) {
  let mainCalls = 0;
  let toolIds = 0;
  return startMockServer((req, body, reply) => {
    if (req.method === 'POST' && /^\/v1\/messages(\?|$)/.test(req.url ?? '')) {
      // Side calls (titles, summaries, quota probes) offer no tools: a short text, never a turn.
      const main = Array.isArray(body?.tools) && body.tools.length > 0;
      const turn = main ? (script.turns[mainCalls++] ?? { text: 'Done.' }) : { text: 'ok' };
      const blocks = turn.tools
        ? turn.tools.map((t) => ({
            type: 'tool_use',
            id: `toolu_diff_${++toolIds}`,
            name: t.name,
            input: t.input,
          }))
        : [{ type: 'text', text: turn.text ?? 'Done.' }];
      if (body?.stream === true) reply.sse(sseEvents(blocks, body.model));
      else reply.json(200, message(blocks, body?.model));
      return { kind: main ? 'main' : 'side' };
    }
    if (req.method === 'POST' && /^\/v1\/messages\/count_tokens/.test(req.url ?? '')) {
      reply.json(200, { input_tokens: 100 });
      return { kind: 'side' };
    }
    reply.json(404, { type: 'error', error: { type: 'not_found_error', message: 'not in the mock' } });
    return { kind: 'other' };
  });
}

function message(blocks, model) {
  return {
    id: 'msg_diff',
    type: 'message',
    role: 'assistant',
    model: model ?? 'claude-sonnet-4-5',
    content: blocks,
    stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

/** The event sequence Claude Code's streaming client expects for one assistant message. */
function sseEvents(blocks, model) {
  const full = message(blocks, model);
  const events = [
    ['message_start', { type: 'message_start', message: { ...full, content: [], stop_reason: null } }],
  ];
  blocks.forEach((b, index) => {
    if (b.type === 'tool_use') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { ...b, input: {} } },
      ]);
      events.push([
        'content_block_delta',
        {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
        },
      ]);
    } else {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ]);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: full.stop_reason, stop_sequence: null },
      usage: full.usage,
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}
