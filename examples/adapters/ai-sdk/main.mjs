// hookwerk/ai-sdk [AD-AI-1]: an AI SDK tool loop whose tool calls are gated by a Claude Code hook.
// Run: node examples/adapters/ai-sdk/main.mjs (after npm run build). The model is a mock: no network.
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { gateTools, hookwerkMiddleware } from 'hookwerk/ai-sdk';
import { exampleProject } from '../project.mjs';

const { engine, done } = await exampleProject();
// The observe events the adapter emits, as any hook (or the dashboard) sees them.
engine.bus.subscribe('prx.lifecycle.*', ({ payload }) =>
  console.log(`  event ${payload.event} ${JSON.stringify(payload.payload)}`),
);

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
// The mock model calls the tool with `command`, then reads what came back.
const modelCalling = (command) =>
  new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'scripted',
    doGenerate: [
      {
        content: [
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'shell', input: JSON.stringify({ command }) },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });

const tools = gateTools(
  engine,
  {
    shell: tool({
      description: 'Runs a shell command',
      inputSchema: jsonSchema({
        type: 'object',
        properties: { command: { type: 'string' } },
        required: ['command'],
      }),
      execute: async ({ command }) => `(pretend) ran ${command}`,
    }),
  },
  { sessionId: 'example' },
);

for (const command of ['rm -rf build', 'ls -la']) {
  console.log(`model calls shell ${JSON.stringify(command)}`);
  const result = await generateText({
    model: wrapLanguageModel({ model: modelCalling(command), middleware: hookwerkMiddleware(engine) }),
    prompt: 'tidy up',
    tools,
    stopWhen: stepCountIs(3),
  });
  for (const part of result.steps[0].content) {
    if (part.type === 'tool-error') console.log(`  denied: ${part.error.message}`);
    if (part.type === 'tool-result') console.log(`  allowed: ${part.output}`);
  }
}
await done();
