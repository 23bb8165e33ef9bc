import { countTokens } from 'gpt-tokenizer';
import type { ContentPart, CoreMessage, ToolDefinition } from './request.js';

/** Tokens every message costs beyond its text (role and separators), as chat templates add them. */
const PER_MESSAGE_OVERHEAD = 3;
/** Tokens reserved for an image or other non-text part whose real cost the endpoint decides. */
export const PER_MEDIA_PART = 85;
/** Above this many characters the text is estimated at a conservative ratio, not tokenized. */
const TOKENIZE_LIMIT_CHARS = 200_000;

/**
 * Estimates the prompt an endpoint receives: every message's text plus the tool schemas,
 * counted with a real BPE tokenizer.
 */
export function estimatePromptTokens(messages: readonly CoreMessage[], tools?: readonly ToolDefinition[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), estimateToolTokens(tools));
}

export function estimateMessageTokens(message: CoreMessage): number {
  let total = PER_MESSAGE_OVERHEAD + countText(message.name ?? '') + countContent(message.content);
  if (message.tool_calls) total += countText(JSON.stringify(message.tool_calls));
  if (message.reasoning) total += countText(message.reasoning);
  return total;
}

export function estimateToolTokens(tools: readonly ToolDefinition[] | undefined): number {
  return tools && tools.length > 0 ? countText(JSON.stringify(tools)) : 0;
}

/** Tokens of a piece of text, with the same tokenizer. */
export function countText(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > TOKENIZE_LIMIT_CHARS) return Math.ceil(text.length / 3);
  return countTokens(text);
}

function countContent(content: CoreMessage['content']): number {
  if (typeof content === 'string') return countText(content);
  if (!Array.isArray(content)) return 0;
  return content.reduce((sum, part) => sum + countPart(part), 0);
}

function countPart(part: ContentPart): number {
  return part.type === 'text' ? countText(part.text) : PER_MEDIA_PART;
}
