// A stand-in for an OpenAI-compatible chat completions API on 127.0.0.1, for driving the real
// Copilot CLI offline (BYOK: COPILOT_PROVIDER_BASE_URL). The main loop's requests (those that offer
// tools) get the case's turns in order, streamed as SSE chunks: a turn is a list of tool calls
// (Copilot CLI runs them, fires the hooks, and sends the tool results back on the next request) or
// a text that ends the turn. Every request is kept, so the comparison can see what the model was
// told and when.
import { startMockServer } from './mock-server.js';

/**
 * @param {{turns: Array<{tools?: Array<{name: string, input: object}>, text?: string}>}} script
 */
export function startOpenAiMock(script) {
  let mainCalls = 0;
  let ids = 0;
  return startMockServer((req, body, reply) => {
    const url = req.url ?? '';
    if (req.method === 'POST' && /\/chat\/completions(\?|$)/.test(url)) {
      const main = Array.isArray(body?.tools) && body.tools.length > 0;
      const turn = main ? (script.turns[mainCalls++] ?? { text: 'Done.' }) : { text: 'ok' };
      const model = body?.model ?? 'gpt-4.1';
      const calls = (turn.tools ?? []).map((t, index) => ({
        index,
        id: `call_diff_${++ids}`,
        type: 'function',
        function: { name: t.name, arguments: JSON.stringify(t.input) },
      }));
      const chunk = (delta, finish = null) => ({
        id: 'chatcmpl-diff',
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      if (body?.stream === true) {
        const events =
          calls.length > 0
            ? [chunk({ role: 'assistant', content: null, tool_calls: calls }), chunk({}, 'tool_calls')]
            : [chunk({ role: 'assistant', content: turn.text ?? 'Done.' }), chunk({}, 'stop')];
        events.push({
          id: 'chatcmpl-diff',
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        });
        reply.sseDone(events);
      } else {
        reply.json(200, {
          id: 'chatcmpl-diff',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [
            {
              index: 0,
              message:
                calls.length > 0
                  ? { role: 'assistant', content: null, tool_calls: calls.map(({ index, ...c }) => c) }
                  : { role: 'assistant', content: turn.text ?? 'Done.' },
              finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        });
      }
      return { kind: main ? 'main' : 'side' };
    }
    if (req.method === 'GET' && /\/models(\?|$)/.test(url)) {
      reply.json(200, { object: 'list', data: [{ id: 'gpt-4.1', object: 'model', owned_by: 'mock' }] });
      return { kind: 'side' };
    }
    reply.json(404, { error: { message: 'not in the mock', type: 'not_found' } });
    return { kind: 'other' };
  });
}
