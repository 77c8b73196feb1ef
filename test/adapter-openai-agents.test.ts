/**
 * [AD-OAI-1] `hookwerk/openai-agents` against the real OpenAI Agents SDK: a fake model (the SDK's
 * `Model` interface, scripted) makes tool calls, the SDK's runner runs them through the hookwerk
 * guardrails; the gate is a real Claude Code guard script in a temp project. What the model's next
 * request holds, whether the tool ran and with what, the records and the events are read back.
 */
import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  type StreamEvent,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  tool,
  Usage,
} from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  gateAgent,
  observedModel,
  observedModelProvider,
  toolInputGuardrail,
} from '../src/adapters/openai-agents/index.ts';
import {
  DENY_REASON,
  guardedProject,
  type ObservedEvent,
  observeEvents,
  policyProject,
  USER_REASON,
  WITHHELD_REASON,
} from './adapter-harness.ts';

type Turn = { call: { name: string; args: string; id?: string } } | { say: string };

/** The SDK's Model interface, scripted: each request gets the next turn; every request is kept. */
class FakeModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: Turn[];
  constructor(turns: Turn[]) {
    this.#turns = [...turns];
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.#turns.shift() ?? { say: 'done' };
    if ('say' in turn) {
      return {
        usage: new Usage(),
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: turn.say }],
          },
        ],
      };
    }
    return {
      usage: new Usage(),
      output: [
        {
          type: 'function_call',
          callId: turn.call.id ?? `call-${this.requests.length}`,
          name: turn.call.name,
          arguments: turn.call.args,
          status: 'completed',
        },
      ],
    };
  }
  // biome-ignore lint/correctness/useYield: the runs here are not streamed.
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('FakeModel does not stream');
  }
}

/** What the last function_call_result in a request says. */
function lastToolOutput(request: ModelRequest | undefined): string | undefined {
  const items: AgentInputItem[] = typeof request?.input === 'string' ? [] : (request?.input ?? []);
  const result = items.findLast((i) => i.type === 'function_call_result');
  if (result === undefined || result.type !== 'function_call_result') return undefined;
  const { output } = result;
  if (typeof output === 'string') return output;
  return !Array.isArray(output) && output.type === 'text' ? output.text : JSON.stringify(output);
}

/** A shell tool that records every call instead of running anything. */
function shellTool(name = 'shell') {
  const ran: string[] = [];
  const shell = tool({
    name,
    description: 'Runs a shell command',
    parameters: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      ran.push(command);
      return command.includes('secret') ? 'SECRET=hunter2' : `ran: ${command}`;
    },
  });
  return { ran, shell };
}

const runner = () => new Runner({ tracingDisabled: true });
const args = (command: string) => JSON.stringify({ command });
const ofEvent = (events: ObservedEvent[], name: string) => events.filter((e) => e.event === name);

describe('[AD-OAI-1] toolInputGuardrail: one tool gated by the engine', () => {
  it('a deny rejects the call with the reason (the SDK rejectContent): the tool never ran, the model is told', async () => {
    const g = await guardedProject();
    const { ran, shell } = shellTool();
    shell.inputGuardrails = [toolInputGuardrail(g.engine, { sessionId: 'sess-oai' })];
    const model = new FakeModel([{ call: { name: 'shell', args: args('rm -rf /') } }, { say: 'ok' }]);
    const result = await runner().run(new Agent({ name: 'ops', model, tools: [shell] }), 'clean up');
    expect(result.finalOutput).toBe('ok');
    expect(ran).toEqual([]);
    expect(lastToolOutput(model.requests[1])).toBe(DENY_REASON);
    // The hook got the arguments parsed (the SDK gives them as a JSON string), Claude Code's way.
    expect(g.preInputs()).toMatchObject([
      {
        hook_event_name: 'PreToolUse',
        tool_name: 'shell',
        tool_input: { command: 'rm -rf /' },
        tool_use_id: 'call-1',
        session_id: 'sess-oai',
      },
    ]);
    expect(g.engine.runs({ event: 'PreToolUse' })).toMatchObject([{ outcome: 'deny' }]);
  });

  it('no objection: the tool runs with the model arguments', async () => {
    const g = await guardedProject();
    const { ran, shell } = shellTool();
    shell.inputGuardrails = [toolInputGuardrail(g.engine)];
    const model = new FakeModel([{ call: { name: 'shell', args: args('ls') } }, { say: 'ok' }]);
    await runner().run(new Agent({ name: 'ops', model, tools: [shell] }), 'list');
    expect(ran).toEqual(['ls']);
    expect(lastToolOutput(model.requests[1])).toBe('ran: ls');
  });

  it('alone it cannot hand on a rewrite: the call is refused with that said, never run with the old arguments', async () => {
    const g = await guardedProject();
    const { ran, shell } = shellTool();
    shell.inputGuardrails = [toolInputGuardrail(g.engine)];
    const model = new FakeModel([{ call: { name: 'shell', args: args('rewrite-me') } }, { say: 'ok' }]);
    await runner().run(new Agent({ name: 'ops', model, tools: [shell] }), 'go');
    expect(ran).toEqual([]);
    expect(lastToolOutput(model.requests[1])).toContain('gate the agent with gateAgent');
  });

  it('arguments that are not JSON never reach a hook, and the tool never runs', async () => {
    const g = await guardedProject();
    const { ran, shell } = shellTool();
    shell.inputGuardrails = [toolInputGuardrail(g.engine)];
    const model = new FakeModel([{ call: { name: 'shell', args: '{"command": ' } }, { say: 'ok' }]);
    await runner().run(new Agent({ name: 'ops', model, tools: [shell] }), 'go');
    expect(ran).toEqual([]);
    // The SDK refuses them itself before any guardrail (the guardrail would too).
    expect(lastToolOutput(model.requests[1])).toMatch(/JSON/);
    // Under gateAgent too (its tools' invoke is wrapped, so the SDK's own check may not come first).
    const gated = shellTool();
    const model2 = new FakeModel([{ call: { name: 'shell', args: '{"command": ' } }, { say: 'ok' }]);
    await runner().run(
      gateAgent(new Agent({ name: 'ops', model: model2, tools: [gated.shell] }), g.engine),
      'go',
    );
    expect(gated.ran).toEqual([]);
    expect(lastToolOutput(model2.requests[1])).toMatch(/JSON/);
    expect(g.preInputs()).toEqual([]);
  });
});

describe('[AD-OAI-1] gateAgent: every tool, the run lifecycle, the model, the handoffs', () => {
  it('denies, rewrites and withholds on every tool; tool events only for calls that ran; llm events from the model', async () => {
    const g = await guardedProject();
    const events = observeEvents(g.engine);
    const { ran, shell } = shellTool();
    const model = new FakeModel([
      { call: { name: 'shell', args: args('rm -rf /'), id: 'c-deny' } },
      { call: { name: 'shell', args: args('rewrite-me'), id: 'c-rewrite' } },
      { call: { name: 'shell', args: args('cat secret'), id: 'c-secret' } },
      { say: 'all done' },
    ]);
    const agent = gateAgent(new Agent({ name: 'ops', model, tools: [shell] }), g.engine, {
      sessionId: 'sess-g',
    });
    const result = await runner().run(agent, 'go');
    await g.engine.drain();

    expect(result.finalOutput).toBe('all done');
    expect(ran).toEqual(['echo rewritten', 'cat secret']);
    expect(lastToolOutput(model.requests[1])).toBe(DENY_REASON);
    expect(lastToolOutput(model.requests[2])).toBe('ran: echo rewritten');
    expect(lastToolOutput(model.requests[3])).toBe(WITHHELD_REASON);
    expect(JSON.stringify(model.requests[3]?.input)).not.toContain('hunter2');
    // PostToolUse was told the arguments the tool really ran with.
    expect(g.postInputs()).toMatchObject([
      {
        tool_use_id: 'c-rewrite',
        tool_input: { command: 'echo rewritten' },
        tool_response: 'ran: echo rewritten',
      },
      { tool_use_id: 'c-secret', tool_input: { command: 'cat secret' }, tool_response: 'SECRET=hunter2' },
    ]);

    expect(ofEvent(events, 'tool_call_start').map((e) => e.payload)).toEqual([
      { tool: 'shell', arguments: { command: 'echo rewritten' } },
      { tool: 'shell', arguments: { command: 'cat secret' } },
    ]);
    expect(ofEvent(events, 'tool_call').map((e) => e.payload)).toEqual([
      { tool: 'shell', success: true, output: 'ran: echo rewritten' },
      { tool: 'shell', success: true, output: WITHHELD_REASON },
    ]);
    expect(ofEvent(events, 'llm_request')).toHaveLength(4);
    expect(ofEvent(events, 'llm_request')[0]).toMatchObject({
      session_id: 'sess-g',
      payload: { provider: 'openai', model: 'FakeModel', messages_count: 1 },
    });
    expect(ofEvent(events, 'llm_response').map((e) => e.payload.success)).toEqual([true, true, true, true]);
  });

  it('a call the host own guardrail refuses first is not asked and has no tool events', async () => {
    const g = await guardedProject();
    const events = observeEvents(g.engine);
    const { ran, shell } = shellTool();
    shell.inputGuardrails = [
      {
        type: 'tool_input',
        name: 'host',
        run: async () => ({ behavior: { type: 'rejectContent', message: 'host says no' } }),
      },
    ];
    const model = new FakeModel([{ call: { name: 'shell', args: args('ls') } }, { say: 'ok' }]);
    await runner().run(gateAgent(new Agent({ name: 'ops', model, tools: [shell] }), g.engine), 'go');
    await g.engine.drain();
    expect(ran).toEqual([]);
    expect(lastToolOutput(model.requests[1])).toBe('host says no');
    expect(g.preInputs()).toEqual([]);
    expect(events.filter((e) => e.event.startsWith('tool_call'))).toEqual([]);
  });

  it('continue: false ends the run (the SDK throwException tripwire); the tool never ran', async () => {
    const g = await guardedProject();
    const { ran, shell } = shellTool();
    const model = new FakeModel([{ call: { name: 'shell', args: args('stop-me') } }, { say: 'never' }]);
    const agent = gateAgent(new Agent({ name: 'ops', model, tools: [shell] }), g.engine);
    const failure = await runner()
      .run(agent, 'go')
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    // The SDK wraps the tripwire in the ToolCallError of the tool step.
    expect(failure).toBeInstanceOf(ToolCallError);
    expect(failure instanceof ToolCallError && failure.error).toBeInstanceOf(
      ToolInputGuardrailTripwireTriggered,
    );
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it('gates the agents it hands off to (unless handoffs: false), once however often it is called', async () => {
    const g = await guardedProject();
    const inner = shellTool('inner_shell');
    const specialistModel = new FakeModel([
      { call: { name: 'inner_shell', args: args('rm -rf /') } },
      { say: 'specialist done' },
    ]);
    const specialist = new Agent({ name: 'specialist', model: specialistModel, tools: [inner.shell] });
    const triage = new Agent({
      name: 'triage',
      model: new FakeModel([{ call: { name: 'transfer_to_specialist', args: '{}' } }]),
      handoffs: [specialist],
    });
    gateAgent(triage, g.engine);
    gateAgent(triage, g.engine);
    expect(inner.shell.inputGuardrails).toHaveLength(1);
    const result = await runner().run(triage, 'go');
    expect(result.finalOutput).toBe('specialist done');
    expect(inner.ran).toEqual([]);
    expect(lastToolOutput(specialistModel.requests[1])).toBe(DENY_REASON);

    const other = shellTool('other_shell');
    const lone = new Agent({ name: 'lone', tools: [other.shell] });
    gateAgent(new Agent({ name: 'front', handoffs: [lone] }), g.engine, { handoffs: false });
    expect(other.shell.inputGuardrails ?? []).toHaveLength(0);
  });
});

describe('[AD-OAI-1] observedModel / observedModelProvider: the model calls as observe events', () => {
  it('a failing model: llm_response success false and an error event; the run still fails', async () => {
    const g = await guardedProject();
    const events = observeEvents(g.engine);
    const failing = new FakeModel([]);
    failing.getResponse = async () => {
      throw new Error('the provider is down');
    };
    const agent = gateAgent(new Agent({ name: 'ops', model: failing }), g.engine);
    await expect(runner().run(agent, 'go')).rejects.toThrow('the provider is down');
    await g.engine.drain();
    expect(events.map((e) => [e.event, e.payload.success ?? e.payload.message])).toEqual([
      ['llm_request', undefined],
      ['llm_response', false],
      ['error', 'the provider is down'],
    ]);
  });

  it('a provider for models named by a string gives observed models, named as asked; observing twice is once', async () => {
    const g = await guardedProject();
    const events = observeEvents(g.engine);
    const model = new FakeModel([{ say: 'hi' }]);
    const provider = observedModelProvider(g.engine, { getModel: () => model }, { provider: 'acme' });
    const resolved = await provider.getModel('gpt-test');
    expect(observedModel(g.engine, resolved)).toBe(resolved);
    const result = await new Runner({ tracingDisabled: true, modelProvider: provider }).run(
      new Agent({ name: 'ops', model: 'gpt-test' }),
      'hello',
    );
    expect(result.finalOutput).toBe('hi');
    await g.engine.drain();
    expect(events.map((e) => e.event)).toEqual(['llm_request', 'llm_response']);
    expect(events[0]?.payload).toMatchObject({ provider: 'acme', model: 'gpt-test' });
  });
});

describe('[G-PERM-1] toolInputGuardrail over an engine of the policy dialect', () => {
  it('the user and the approved project policy reject calls with the rule; the rest run', async () => {
    const p = await policyProject();
    const { ran, shell } = shellTool('Bash');
    const deployed: string[] = [];
    const deploy = tool({
      name: 'deploy',
      description: 'Deploys',
      parameters: z.object({}),
      execute: async () => {
        deployed.push('deploy');
        return 'deployed';
      },
    });
    for (const t of [shell, deploy]) t.inputGuardrails = [toolInputGuardrail(p.engine)];
    const turn = async (name: string, argsText: string) => {
      const model = new FakeModel([{ call: { name, args: argsText } }, { say: 'ok' }]);
      await runner().run(new Agent({ name: 'ops', model, tools: [shell, deploy] }), 'go');
      return lastToolOutput(model.requests[1]);
    };
    expect(await turn('Bash', args('sudo rm -r -f /srv'))).toBe(USER_REASON);
    expect(await turn('deploy', '{}')).toBe(p.projectReason);
    expect(await turn('Bash', args('ls'))).toBe('ran: ls');
    expect([ran, deployed]).toEqual([['ls'], []]);
  });
});
