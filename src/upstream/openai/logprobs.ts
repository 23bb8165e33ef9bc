import type { CoreEvent, TokenLogprob } from '../../core/events.js';
import { arrayOf, isPlainObject, objectOf, stringOf } from '../json-guards.js';
import { readTextWireLogprobs } from './text-choice.js';

/**
 * Reads an OpenAI-compatible `choices[i].logprobs` member (`{content: [{token, logprob,
 * top_logprobs: [{token, logprob}]}]}`) into one `logprobs` event; none when nothing usable came.
 */
export function readOpenAiLogprobs(logprobs: unknown, index: number): CoreEvent[] {
  const textWire = objectOf(logprobs);
  if (textWire && Array.isArray(textWire.tokens)) {
    const read = readTextWireLogprobs(textWire);
    return read.length > 0 ? [{ type: 'logprobs', index, tokens: read }] : [];
  }
  const tokens: TokenLogprob[] = [];
  for (const entry of arrayOf(objectOf(logprobs)?.content)) {
    const read = readToken(entry);
    if (!read) continue;
    const top = arrayOf(isPlainObject(entry) ? entry.top_logprobs : undefined)
      .map(readToken)
      .filter((alternative): alternative is { token: string; logprob: number } => alternative !== undefined);
    tokens.push({ ...read, top });
  }
  return tokens.length > 0 ? [{ type: 'logprobs', index, tokens }] : [];
}

function readToken(value: unknown): { token: string; logprob: number } | undefined {
  if (!isPlainObject(value)) return undefined;
  const token = stringOf(value.token);
  const logprob = value.logprob;
  if (token === undefined || typeof logprob !== 'number' || !Number.isFinite(logprob) || logprob > 0) return undefined;
  return { token, logprob };
}
