import type { TokenLogprob } from '../../core/events.js';
import { arrayOf, objectOf, type JsonObject } from '../json-guards.js';

/**
 * A choice of the text-completions wire (`{text, logprobs, finish_reason}`, whole or streamed) read
 * as the chat delta carrying the same text, so one decoder serves both wires.
 */
export function textChoiceDelta(choice: JsonObject | undefined): JsonObject | undefined {
  return typeof choice?.text === 'string' ? { content: choice.text } : undefined;
}

/**
 * The text wire's `logprobs` (`{tokens, token_logprobs, top_logprobs: [{token: logprob}], text_offset}`)
 * as token log-probabilities; a token without a figure (an echoed first prompt token) is skipped.
 */
export function readTextWireLogprobs(logprobs: JsonObject): TokenLogprob[] {
  const tokens = arrayOf(logprobs.tokens);
  const figures = arrayOf(logprobs.token_logprobs);
  const tops = arrayOf(logprobs.top_logprobs);
  const read: TokenLogprob[] = [];
  tokens.forEach((token, position) => {
    const logprob = figures[position];
    if (typeof token !== 'string' || !isLogprob(logprob)) return;
    const top = Object.entries(objectOf(tops[position]) ?? {})
      .filter((entry): entry is [string, number] => isLogprob(entry[1]))
      .map(([alternative, figure]) => ({ token: alternative, logprob: figure }));
    read.push({ token, logprob, top });
  });
  return read;
}

function isLogprob(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value <= 0;
}
