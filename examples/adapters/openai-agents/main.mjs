// hookwerk/openai-agents [AD-OAI-1]: an OpenAI Agents agent whose tools are gated by a Claude Code
// hook. Run: node examples/adapters/openai-agents/main.mjs (after npm run build). The model is a
// fake (the SDK's Model interface): no network, no API key.
import { Agent, Runner, tool, Usage } from '@openai/agents';
import { gateAgent } from 'hookwerk/openai-agents';
import { exampleProject } from '../project.mjs';

const { engine, done } = await exampleProject();

/** A model that calls `shell` with `command` once, then says what the tool answered. */
function modelCalling(command) {
  let calls = 0;
  return {
    async getResponse(request) {
      calls++;
      if (calls === 1) {
        const call = {
          type: 'function_call',
          callId: 'call-1',
          name: 'shell',
          arguments: JSON.stringify({ command }),
        };
        return { usage: new Usage(), output: [call] };
      }
      const result = request.input.findLast((item) => item.type === 'function_call_result');
      const text = `the tool said: ${result.output.text ?? result.output}`;
      return {
        usage: new Usage(),
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text }],
          },
        ],
      };
    },
    getStreamedResponse() {
      throw new Error('not streamed in this example');
    },
  };
}

const shell = tool({
  name: 'shell',
  description: 'Runs a shell command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
    additionalProperties: false,
  },
  strict: true,
  execute: async ({ command }) => `(pretend) ran ${command}`,
});

const runner = new Runner({ tracingDisabled: true });
for (const command of ['rm -rf build', 'ls -la']) {
  console.log(`model calls shell ${JSON.stringify(command)}`);
  const agent = gateAgent(new Agent({ name: 'ops', model: modelCalling(command), tools: [shell] }), engine, {
    sessionId: 'example',
  });
  const result = await runner.run(agent, 'tidy up');
  const ran = engine.runs({ event: 'PreToolUse', limit: 1 })[0];
  console.log(`  ${ran.outcome === 'deny' ? 'denied' : 'allowed'}: ${result.finalOutput}`);
}
await done();
