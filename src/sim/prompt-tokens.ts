import { encode } from 'gpt-tokenizer';
import { messageText } from './message-text.js';

const PER_MESSAGE_OVERHEAD = 3;
const NO_SPECIAL_TOKEN_CHECK = { disallowedSpecial: new Set<string>() };

/**
 * The simulator's prompt token count, deterministic for a given request:
 * the gpt-tokenizer (o200k) token count of the concatenated text of every message
 * (string content, or the `text` of its text parts; other parts count nothing),
 * plus 3 tokens per message. Special-token markers in the text count as plain text.
 */
export function countPromptTokens(messages: readonly unknown[]): number {
  let text = '';
  for (const message of messages) text += messageText(message);
  const textTokens = text === '' ? 0 : encode(text, NO_SPECIAL_TOKEN_CHECK).length;
  return textTokens + PER_MESSAGE_OVERHEAD * messages.length;
}

/** Tokens of a text-completions prompt: its text alone, no per-message overhead. */
export function countTextPromptTokens(prompt: string): number {
  return prompt === '' ? 0 : encode(prompt, NO_SPECIAL_TOKEN_CHECK).length;
}
