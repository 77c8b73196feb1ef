/**
 * [AD-OAI-1] The run's model calls as observe events: OpenAI Agents 0.14 has no lifecycle event
 * around a model call, so the model itself is wrapped. `llm_request` before each call,
 * `llm_response` after it (duration, success), `error` for a failure; streamed calls end with
 * their stream.
 */
import type { Model, ModelProvider, ModelRequest } from '@openai/agents';
import { errorMessage } from '../../core/errno.ts';
import type { HookEngine } from '../../engine-api.ts';
import { startModelCall } from '../tool-events.ts';

export interface ObservedModelOptions {
  /** `provider` of the events. Default `openai`. */
  provider?: string;
  /** `model` of the events. Default: the name the provider was asked for, else the model's class name. */
  model?: string;
  sessionId?: string;
}

function messagesCount(request: ModelRequest): number {
  return typeof request.input === 'string' ? 1 : request.input.length;
}

function nameOf(model: Model): string {
  const name: unknown = Reflect.getPrototypeOf(model)?.constructor.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'model';
}

/** Models already observed: wrapping one again would report each call twice. */
const observed = new WeakSet<object>();

/**
 * The same model, observed (a model already observed is returned as it is). A proxy, not a copy: the SDK may look at the model's class, and a
 * model's methods may use private fields, so every other property is the model's own, bound to it.
 */
export function observedModel<M extends Model>(
  engine: HookEngine,
  model: M,
  opts: ObservedModelOptions = {},
): M {
  if (observed.has(model)) return model;
  const start = (request: ModelRequest) =>
    startModelCall(engine, {
      provider: opts.provider ?? 'openai',
      model: opts.model ?? nameOf(model),
      messagesCount: messagesCount(request),
      sessionId: opts.sessionId,
    });
  const getResponse: Model['getResponse'] = async (request) => {
    const end = start(request);
    try {
      const response = await model.getResponse(request);
      end();
      return response;
    } catch (err) {
      end({ message: errorMessage(err) });
      throw err;
    }
  };
  const getStreamedResponse: Model['getStreamedResponse'] = async function* (request) {
    const end = start(request);
    let done = false;
    try {
      yield* model.getStreamedResponse(request);
      done = true;
    } catch (err) {
      end({ message: errorMessage(err) });
      throw err;
    } finally {
      // A consumer that stops reading early: not a success, and not an error either.
      if (done) end();
      else end({ message: 'the stream was not read to its end', quiet: true });
    }
  };
  const proxy = new Proxy(model, {
    get(target, prop) {
      if (prop === 'getResponse') return getResponse;
      if (prop === 'getStreamedResponse') return getStreamedResponse;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' && prop !== 'constructor' ? value.bind(target) : value;
    },
  });
  observed.add(proxy);
  return proxy;
}

/** A model provider whose models are observed (for agents that name their model by a string). */
export function observedModelProvider(
  engine: HookEngine,
  provider: ModelProvider,
  opts: ObservedModelOptions = {},
): ModelProvider {
  return {
    async getModel(modelName) {
      const model = await provider.getModel(modelName);
      return observedModel(engine, model, {
        ...opts,
        ...(opts.model === undefined && modelName !== undefined && modelName !== ''
          ? { model: modelName }
          : {}),
      });
    },
  };
}
