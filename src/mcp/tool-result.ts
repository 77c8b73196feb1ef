/**
 * What a `tools/call` answers (MCP's `CallToolResult`), read only as far as the gate needs it:
 * the result itself is passed on as the server gave it, unless the gate adds to it.
 */
import { z } from 'zod';

/** A `CallToolResult` as a host's MCP client returns it (any object: the gate reads it with zod). */
export type McpToolResult = Record<string, unknown>;

const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const readable = z.object({ content: z.array(z.unknown()), isError: z.boolean().optional() });

/** The answer to a call the gate refused: MCP's way to tell the model a tool failed, and why. */
export function deniedResult(reason: string): McpToolResult {
  return { content: [{ type: 'text', text: reason }], isError: true };
}

/** The server said the tool failed (`isError: true`): it ran and failed, as Claude Code counts it. */
export function isErrorResult(result: McpToolResult): boolean {
  return result.isError === true;
}

/** The text blocks of a result, joined: what PostToolUseFailure's `error` says. */
export function resultText(result: McpToolResult): string {
  const parsed = readable.safeParse(result);
  if (!parsed.success) return '';
  const texts: string[] = [];
  for (const block of parsed.data.content) {
    const text = textBlock.safeParse(block);
    if (text.success) texts.push(text.data.text);
  }
  return texts.join('\n');
}

/**
 * The result with `texts` added as text blocks at the end of its `content` (what hooks hand the
 * model: a PostToolUse block's reason, `additionalContext`); undefined when it has no content
 * list to add to.
 */
export function withTexts(result: McpToolResult, texts: readonly string[]): McpToolResult | undefined {
  if (texts.length === 0) return result;
  const parsed = readable.safeParse(result);
  if (!parsed.success) return undefined;
  return { ...result, content: [...parsed.data.content, ...texts.map((text) => ({ type: 'text', text }))] };
}
