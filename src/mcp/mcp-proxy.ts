/**
 * [AD-MCP-1] The MCP gate proxy, at the JSON-RPC message level: every message from the client
 * goes to the server and every message from the server to the client as it came (requests both
 * ways, notifications, responses, progress, cancellation, sampling and elicitation), except
 * `tools/call`, which goes through the gate first. Only the transports' messages are handled, no
 * MCP method is re-implemented, so what a newer protocol adds passes through too.
 *
 * A `tools/call` sent as a notification (no id) cannot be gated — no answer could carry a denial —
 * and is dropped, never forwarded (audit mode lets it pass, saying so).
 *
 * Ids pass unchanged: the proxy sends no request of its own, so the client's ids are the only
 * ones towards the server, and the server's the only ones towards the client.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorMessage } from '../core/errno.ts';
import type { McpGate, McpGateMode } from './mcp-gate.ts';
import { deniedResult, type McpToolResult } from './tool-result.ts';

/** JSON-RPC's codes for the answers the proxy gives itself. */
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

export interface McpProxyOptions {
  /** Towards the MCP client: the proxy is its server (stdio, for `hookwerk mcp-proxy`). */
  client: Transport;
  /** Towards the real server (its process, or streamable HTTP). */
  upstream: Transport;
  /** Makes the gate of the server's calls once its name is known. */
  gate: (name: string) => McpGate;
  /** The server's name for the hooks; default its `serverInfo.name` from `initialize`. */
  name?: string;
  /** With `audit`, a call the proxy cannot gate still goes through. */
  mode: McpGateMode;
  /** One line for the user (the CLI's stderr). */
  log: (line: string) => void;
  /** The server went away (its process exited, or its transport closed) while the proxy was open. */
  onUpstreamClose?: () => void;
}

const toolCallParams = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
const cancelledParams = z.object({ requestId: z.union([z.string(), z.number()]) });
const initializeResult = z.object({
  protocolVersion: z.string().optional(),
  serverInfo: z.object({ name: z.string().min(1) }).optional(),
});

/** The server answered a call with a JSON-RPC error: the client gets that error as it came. */
class ServerErrorAnswer extends Error {
  readonly answer: JSONRPCErrorResponse;
  constructor(answer: JSONRPCErrorResponse) {
    super(answer.error.message);
    this.answer = answer;
  }
}

/** A `tools/call` between the client's request and the answer it gets. */
interface CallInFlight {
  readonly stop: AbortController;
  /** Sent to the server: a cancel goes on to it (else the cancel is the proxy's to honour). */
  forwarded: boolean;
  /** The server's answer, to the forward waiting for it. */
  settle?: (answer: JSONRPCResultResponse | JSONRPCErrorResponse) => void;
}

export class McpProxy {
  readonly #opts: McpProxyOptions;
  #gate: McpGate | undefined;
  #initializeId: RequestId | undefined;
  readonly #calls = new Map<RequestId, CallInFlight>();
  #closing = false;
  #closed: Promise<void> | undefined;

  constructor(opts: McpProxyOptions) {
    this.#opts = opts;
    if (opts.name !== undefined) this.#gate = opts.gate(opts.name);
  }

  /** The gate, once the server's name is known. */
  get gate(): McpGate | undefined {
    return this.#gate;
  }

  /** Starts the server's transport, then listens to the client. */
  async start(): Promise<void> {
    const { client, upstream, log } = this.#opts;
    upstream.onmessage = (message) => this.#fromServer(message);
    upstream.onerror = (err) => log(`server: ${errorMessage(err)}`);
    upstream.onclose = () => {
      if (!this.#closing) this.#opts.onUpstreamClose?.();
    };
    client.onmessage = (message) => this.#fromClient(message);
    client.onerror = (err) => log(`client: ${errorMessage(err)}`);
    await upstream.start();
    await client.start();
  }

  /** Stops both sides: the server first (its processes are gone when this resolves). */
  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<void> {
    this.#closing = true;
    for (const call of this.#calls.values()) call.stop.abort(new Error('the proxy is closing'));
    await this.#opts.upstream.close();
    await this.#opts.client.close();
  }

  #fromClient(message: JSONRPCMessage): void {
    if ('method' in message && !('id' in message) && message.method === 'tools/call') {
      this.#notifiedCall(message);
      return;
    }
    if ('method' in message && 'id' in message) {
      if (message.method === 'tools/call') {
        void this.#toolCall(message);
        return;
      }
      if (message.method === 'initialize') this.#initializeId = message.id;
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = cancelledParams.safeParse(message.params);
      const call = cancelled.success ? this.#calls.get(cancelled.data.requestId) : undefined;
      if (call !== undefined) {
        call.stop.abort(new Error('the client cancelled the call'));
        // A call still at the gate never reached the server: there is nothing to tell it.
        if (!call.forwarded) return;
      }
    }
    this.#toServer(message);
  }

  #fromServer(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      const call = this.#calls.get(message.id);
      if (call?.settle !== undefined) {
        call.settle(message);
        return;
      }
      if (message.id === this.#initializeId && 'result' in message) this.#initialized(message.result);
    }
    this.#toClient(message);
  }

  /** The server's `initialize` answer: its protocol version for the transport, its name for the gate. */
  #initialized(result: unknown): void {
    this.#initializeId = undefined;
    const read = initializeResult.safeParse(result);
    if (!read.success) return;
    const { protocolVersion, serverInfo } = read.data;
    if (protocolVersion !== undefined) this.#opts.upstream.setProtocolVersion?.(protocolVersion);
    if (this.#gate !== undefined) return;
    if (serverInfo === undefined) {
      this.#opts.log("the server's initialize answer names no server (serverInfo.name); give --name");
      return;
    }
    this.#gate = this.#opts.gate(serverInfo.name);
  }

  /**
   * A `tools/call` sent as a notification (no id): JSON-RPC gives it no answer, so no denial could
   * reach the client, and a server that runs it anyway would run it ungated (issue 28). Enforce:
   * dropped — never sent to the server —, one line on stderr and a refused record each time.
   * Audit: it passes, said and recorded as a call enforce mode would refuse.
   */
  #notifiedCall(message: JSONRPCNotification): void {
    const params = toolCallParams.safeParse(message.params);
    const tool = params.success ? params.data.name : '';
    const what = `a tools/call${tool !== '' ? ` of ${tool}` : ''} sent as a notification (no id)`;
    this.#gate?.refused(tool, `${what} cannot be gated: a call must be a request, which gets an answer`);
    if (this.#opts.mode === 'enforce') {
      this.#opts.log(`refused ${what}: dropped, the server never sees it`);
      return;
    }
    this.#opts.log(`audit: ${what} passes ungated`);
    this.#toServer(message);
  }

  async #toolCall(request: JSONRPCRequest): Promise<void> {
    const { id } = request;
    const params = toolCallParams.safeParse(request.params);
    const gate = this.#gate;
    if (!params.success || gate === undefined) {
      const why = !params.success
        ? 'tools/call params must give the tool its name (a string) and its arguments as an object'
        : "the server's name is not known yet (no serverInfo.name from initialize): give --name";
      if (this.#opts.mode === 'audit') {
        this.#opts.log(`audit: a call passes ungated: ${why}`);
        this.#toServer(request);
      } else if (!params.success)
        this.#toClient(errorAnswer(id, INVALID_PARAMS, `hookwerk mcp-proxy: ${why}`));
      else this.#toClient({ jsonrpc: '2.0', id, result: deniedResult(`hookwerk mcp-proxy: ${why}`) });
      return;
    }
    const call: CallInFlight = { stop: new AbortController(), forwarded: false };
    this.#calls.set(id, call);
    const given = params.data.arguments ?? {};
    let sent: JSONRPCResultResponse | undefined;
    const forward = (args: Record<string, unknown>): Promise<McpToolResult> =>
      this.#forward(call, args === given ? request : withArguments(request, args)).then((answer) => {
        sent = answer;
        return answer.result;
      });
    try {
      const result = await gate.call(params.data.name, given, forward, { signal: call.stop.signal });
      // The server's own answer, untouched, unless the gate refused the call or added to it.
      this.#toClient(sent !== undefined && result === sent.result ? sent : { jsonrpc: '2.0', id, result });
    } catch (err) {
      if (err instanceof ServerErrorAnswer) this.#toClient(err.answer);
      // Cancelled: the client expects no answer.
      else if (!call.stop.signal.aborted)
        this.#toClient(errorAnswer(id, INTERNAL_ERROR, `hookwerk mcp-proxy: ${errorMessage(err)}`));
    } finally {
      this.#calls.delete(id);
    }
  }

  /** Sends the call on; resolves with the server's result, rejects with its error or a cancel. */
  #forward(call: CallInFlight, request: JSONRPCRequest): Promise<JSONRPCResultResponse> {
    return new Promise((resolve, reject) => {
      const { signal } = call.stop;
      const onAbort = () => {
        // An answer the server still sends goes to the client as it came.
        call.settle = undefined;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      call.settle = (answer) => {
        signal.removeEventListener('abort', onAbort);
        call.settle = undefined;
        if ('result' in answer) resolve(answer);
        else reject(new ServerErrorAnswer(answer));
      };
      call.forwarded = true;
      this.#opts.upstream.send(request).catch((err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(new Error(`the MCP server did not get the call: ${errorMessage(err)}`));
      });
    });
  }

  #toServer(message: JSONRPCMessage): void {
    this.#opts.upstream.send(message).catch((err: unknown) => {
      const why = `the MCP server did not get ${'method' in message ? message.method : 'a response'}: ${errorMessage(err)}`;
      if ('method' in message && 'id' in message)
        this.#toClient(errorAnswer(message.id, INTERNAL_ERROR, `hookwerk mcp-proxy: ${why}`));
      else this.#opts.log(why);
    });
  }

  #toClient(message: JSONRPCMessage): void {
    this.#opts.client.send(message).catch((err: unknown) => {
      if (!this.#closing) this.#opts.log(`the client did not get a message: ${errorMessage(err)}`);
    });
  }
}

function withArguments(request: JSONRPCRequest, args: Record<string, unknown>): JSONRPCRequest {
  return { ...request, params: { ...request.params, arguments: args } };
}

function errorAnswer(id: RequestId, code: number, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
