/**
 * The mock Anthropic Messages API of `npm run differential` (differential/mock-anthropic.js, the
 * one that drives the real Claude Code offline) and its environment for Claude Code
 * (differential/claude-tool.js), for tests in TypeScript. Those files are plain JS without types;
 * they are loaded by path and what a test uses of them is checked here.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { REPO } from './cli-runner.ts';

export async function exported(file: string, name: string): Promise<(...args: unknown[]) => unknown> {
  const mod: unknown = await import(pathToFileURL(path.join(REPO, 'differential', file)).href);
  const fn: unknown = typeof mod === 'object' && mod !== null ? Reflect.get(mod, name) : undefined;
  if (typeof fn !== 'function') throw new Error(`differential/${file} exports no function ${name}`);
  return (...args) => fn(...args);
}

/** A turn of the mock model: tool calls (Claude Code runs them), or a text that ends the turn. */
export interface MockTurn {
  tools?: Array<{ name: string; input: Record<string, unknown> }>;
  text?: string;
}

const request = z.looseObject({
  method: z.string().optional(),
  url: z.string().optional(),
  kind: z.string().optional(),
  body: z.unknown(),
});
export type MockRequest = z.infer<typeof request>;

export interface AnthropicMock {
  url: string;
  /** The requests so far, `kind: "main"` for the agent loop's (those that offer tools). */
  requests(): MockRequest[];
  close(): Promise<void>;
}

export async function startAnthropicMock(turns: MockTurn[]): Promise<AnthropicMock> {
  const start = await exported('mock-anthropic.js', 'startAnthropicMock');
  const mock: unknown = await start({ turns });
  const read = (key: string): unknown =>
    typeof mock === 'object' && mock !== null ? Reflect.get(mock, key) : undefined;
  const close = read('close');
  if (typeof close !== 'function') throw new Error('the mock has no close()');
  return {
    url: z.string().parse(read('url')),
    // Read afresh each time: the mock appends to its own array.
    requests: () => z.array(request).parse(read('requests')),
    close: async () => {
      await close();
    },
  };
}

/** The environment under which Claude Code talks to nothing but the mock. */
export async function claudeEnv(mockUrl: string): Promise<Record<string, string>> {
  const env = await exported('claude-tool.js', 'claudeEnv');
  return z.record(z.string(), z.string()).parse(env(mockUrl));
}
