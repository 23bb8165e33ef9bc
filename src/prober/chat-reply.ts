import { isPlainObject } from '../core/plain-object.js';

/** What a check reads of a chat reply's first choice and its usage. */
export interface ChatAnswer {
  content: string | null;
  /** Reasoning shown in the reply: `reasoning` text, or `reasoning_details` entries. */
  reasoningShown: boolean;
  /** `usage.completion_tokens_details.reasoning_tokens`; 0 when not reported. */
  reasoningTokens: number;
  toolCalls: { id: string; name: string; arguments: string }[];
}

/** Reads a whole `chat.completion` body as the chat dialect encodes it. */
export function chatAnswer(body: unknown): ChatAnswer {
  const choices = isPlainObject(body) && Array.isArray(body.choices) ? body.choices : [];
  const first: unknown = choices[0];
  const message = isPlainObject(first) && isPlainObject(first.message) ? first.message : {};
  const usage = isPlainObject(body) && isPlainObject(body.usage) ? body.usage : {};
  const details = isPlainObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return {
    content: typeof message.content === 'string' ? message.content : null,
    reasoningShown: (typeof message.reasoning === 'string' && message.reasoning !== '')
      || (Array.isArray(message.reasoning_details) && message.reasoning_details.length > 0),
    reasoningTokens: typeof details.reasoning_tokens === 'number' ? details.reasoning_tokens : 0,
    toolCalls: calls.flatMap((call: unknown) => {
      const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : undefined;
      if (!isPlainObject(call) || !fn || typeof fn.name !== 'string') return [];
      return [{ id: typeof call.id === 'string' ? call.id : '', name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '' }];
    }),
  };
}

/** The JSON object in `text`, or undefined when it is not one. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Shortens what a reply said, for a verdict's detail. */
export function quoted(text: string, limit = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > limit ? `${flat.slice(0, limit)}…` : flat);
}
