// A stand-in for the OpenAI Responses API on 127.0.0.1, for driving the real Codex CLI offline
// (`model_provider` pointed here, `wire_api = "responses"`). `POST /v1/responses` is the agent
// loop: the case's turns in order, a turn being tool calls (Codex runs them, fires the hooks, and
// sends `function_call_output` / `custom_tool_call_output` on the next request) or a text that
// ends the turn. A shell call is Codex's `exec_command` function (`{cmd}`), a patch its
// `apply_patch` custom tool (the patch text). Every request is kept for the comparison.
import { startMockServer } from './mock-server.js';

/**
 * @param {{turns: Array<{tools?: Array<{name: string, input: object}>, text?: string}>}} script
 */
export function startOpenAiMock(script) {
  let mainCalls = 0;
  return startMockServer((req, _body, reply) => {
    const url = req.url ?? '';
    if (req.method === 'POST' && url.startsWith('/v1/responses')) {
      const n = mainCalls++;
      const turn = script.turns[n] ?? { text: 'Done.' };
      reply.sse(events(turn, n));
      return { kind: 'main' };
    }
    if (req.method === 'GET' && url.startsWith('/v1/models')) {
      reply.json(200, { object: 'list', data: [] });
      return { kind: 'side' };
    }
    reply.json(404, { error: { message: 'not in the mock', type: 'not_found' } });
    return { kind: 'other' };
  });
}

function events(turn, n) {
  const id = `resp_${n}`;
  const items = turn.tools
    ? turn.tools.map((t, i) => toolItem(t, `${n}_${i}`))
    : [
        {
          type: 'message',
          role: 'assistant',
          id: `msg_${n}`,
          status: 'completed',
          content: [{ type: 'output_text', text: turn.text ?? 'Done.', annotations: [] }],
        },
      ];
  return [
    ['response.created', { type: 'response.created', response: { id } }],
    ...items.map((item, i) => [
      'response.output_item.done',
      { type: 'response.output_item.done', output_index: i, item },
    ]),
    [
      'response.completed',
      {
        type: 'response.completed',
        response: {
          id,
          usage: {
            input_tokens: 10,
            input_tokens_details: null,
            output_tokens: 10,
            output_tokens_details: null,
            total_tokens: 20,
          },
        },
      },
    ],
  ];
}

function toolItem(t, suffix) {
  if (t.name === 'apply_patch')
    return {
      type: 'custom_tool_call',
      id: `ctc_${suffix}`,
      status: 'completed',
      call_id: `call_${suffix}`,
      name: 'apply_patch',
      input: t.input.patch,
    };
  return {
    type: 'function_call',
    id: `fc_${suffix}`,
    status: 'completed',
    call_id: `call_${suffix}`,
    name: 'exec_command',
    arguments: JSON.stringify({ cmd: t.input.command }),
  };
}
