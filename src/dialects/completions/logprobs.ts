import type { TokenLogprob } from '../../core/events.js';

export interface TextLogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Array<Record<string, number>>;
  text_offset: number[];
}

/** Token log-probabilities in the text-completions shape; offsets count from `offset` in the reply text. */
export function textLogprobs(tokens: readonly TokenLogprob[], offset = 0): TextLogprobs {
  const encoded: TextLogprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  let position = offset;
  for (const token of tokens) {
    encoded.tokens.push(token.token);
    encoded.token_logprobs.push(token.logprob);
    encoded.top_logprobs.push(Object.fromEntries(token.top.map((alternative) => [alternative.token, alternative.logprob])));
    encoded.text_offset.push(position);
    position += token.token.length;
  }
  return encoded;
}
