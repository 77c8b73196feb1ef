// A stand-in for the Gemini API (generativelanguage v1beta) on 127.0.0.1, for driving the real
// Gemini CLI offline. `:streamGenerateContent?alt=sse` is the agent loop: the case's turns in order,
// a turn being function calls (the CLI runs them, fires the hooks, and sends the functionResponse
// on the next request) or a text that ends the turn. `:generateContent` is the CLI's side calls
// (the model router's complexity score, the next-speaker check, loop detection): each gets the
// JSON it asks for, so they never steer the run. Every request is kept for the comparison.
import { startMockServer } from './mock-server.js';

/**
 * @param {{turns: Array<{tools?: Array<{name: string, input: object}>, text?: string}>}} script
 */
export function startGeminiMock(script) {
  let mainCalls = 0;
  return startMockServer((req, body, reply) => {
    const url = req.url ?? '';
    if (req.method === 'POST' && url.includes(':streamGenerateContent')) {
      const turn = script.turns[mainCalls++] ?? { text: 'Done.' };
      reply.sse([response(turn)]);
      return { kind: 'main' };
    }
    if (req.method === 'POST' && url.includes(':generateContent')) {
      reply.json(200, response({ text: JSON.stringify(sideAnswer(body)) }));
      return { kind: 'side' };
    }
    if (req.method === 'POST' && url.includes(':countTokens')) {
      reply.json(200, { totalTokens: 100 });
      return { kind: 'side' };
    }
    reply.json(404, { error: { code: 404, message: 'not in the mock', status: 'NOT_FOUND' } });
    return { kind: 'other' };
  });
}

function response(turn) {
  const parts = turn.tools
    ? turn.tools.map((t) => ({ functionCall: { name: t.name, args: t.input } }))
    : [{ text: turn.text ?? 'Done.' }];
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: 'gemini-2.5-flash',
  };
}

/** What a side call's response schema asks for, with answers that change nothing. */
function sideAnswer(body) {
  const text = JSON.stringify(body ?? {});
  if (text.includes('next_speaker')) return { reasoning: 'the model finished', next_speaker: 'user' };
  if (text.includes('complexity_score')) return { complexity_reasoning: 'simple', complexity_score: 1 };
  return { reasoning: 'no loop', confidence: 0 };
}
