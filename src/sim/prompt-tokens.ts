import { countTextTokens } from '../core/text-tokens.js';
import { messageText } from './message-text.js';

const PER_MESSAGE_OVERHEAD = 3;

/**
 * The simulator's prompt token count, deterministic for a given request:
 * the gpt-tokenizer (o200k) token count of the concatenated text of every message
 * (string content, or the `text` of its text parts; other parts count nothing),
 * plus 3 tokens per message. Special-token markers in the text count as plain text. Counted in time
 * linear in the text (runs of one character are counted in slices), so no body stalls the simulator.
 */
export function countPromptTokens(messages: readonly unknown[]): number {
  let text = '';
  for (const message of messages) text += messageText(message);
  return countTextTokens(text) + PER_MESSAGE_OVERHEAD * messages.length;
}

/** Tokens of a text-completions prompt (or of any one text): its text alone, no per-message overhead. */
export function countTextPromptTokens(prompt: string): number {
  return countTextTokens(prompt);
}
