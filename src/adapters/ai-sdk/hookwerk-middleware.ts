/**
 * [AD-AI-1] A language model middleware (`wrapLanguageModel({ model, middleware })`) that emits
 * `llm_request` before each model call and `llm_response` after it (provider, model, duration,
 * success), for generate and stream alike; a failed call gives `success: false` and `error`.
 */
import type { LanguageModelMiddleware } from 'ai';
import { errorMessage } from '../../core/errno.ts';
import type { HookEngine } from '../../engine-api.ts';
import { type ModelFailure, startModelCall } from '../tool-events.ts';

export interface HookwerkMiddlewareOptions {
  /** The session the events carry; default the engine's. */
  sessionId?: string;
}

type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
type EndCall = ReturnType<typeof startModelCall>;

export function hookwerkMiddleware(
  engine: HookEngine,
  opts: HookwerkMiddlewareOptions = {},
): LanguageModelMiddleware {
  const start = (model: { provider: string; modelId: string }, messages: number): EndCall =>
    startModelCall(engine, {
      provider: model.provider,
      model: model.modelId,
      messagesCount: messages,
      sessionId: opts.sessionId,
    });
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate, params, model }) {
      const end = start(model, params.prompt.length);
      try {
        const result = await doGenerate();
        end(
          result.finishReason.unified === 'error'
            ? { message: 'the model finished with an error' }
            : undefined,
        );
        return result;
      } catch (err) {
        end({ message: errorMessage(err) });
        throw err;
      }
    },
    async wrapStream({ doStream, params, model }) {
      const end = start(model, params.prompt.length);
      let result: StreamResult;
      try {
        result = await doStream();
      } catch (err) {
        end({ message: errorMessage(err) });
        throw err;
      }
      return { ...result, stream: observed(result.stream, end) };
    },
  };
}

/**
 * The stream passed through unchanged; the call ends when it does (its last part, an error, or
 * the reader cancelling: not a success, but no `error` either).
 */
function observed(stream: ReadableStream<StreamPart>, end: EndCall): ReadableStream<StreamPart> {
  const reader = stream.getReader();
  let failure: ModelFailure | undefined;
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (err) {
        end({ message: errorMessage(err) });
        controller.error(err);
        return;
      }
      if (next.done) {
        end(failure);
        controller.close();
        return;
      }
      const part = next.value;
      if (part.type === 'error') failure ??= { message: errorMessage(part.error) };
      else if (part.type === 'finish' && part.finishReason.unified === 'error')
        failure ??= { message: 'the model finished with an error' };
      controller.enqueue(part);
    },
    async cancel(reason) {
      end({ message: 'the stream was cancelled', quiet: true });
      await reader.cancel(reason);
    },
  });
}
