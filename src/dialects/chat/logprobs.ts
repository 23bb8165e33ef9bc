import type { TokenLogprob } from '../../core/events.js';

/** A choice's `logprobs` member as OpenAI-compatible clients read it: `{content: [...], refusal: null}`. */
export function encodeChatLogprobs(tokens: readonly TokenLogprob[]): Record<string, unknown> {
  return {
    content: tokens.map((token) => ({
      ...entry(token.token, token.logprob),
      top_logprobs: token.top.map((alternative) => entry(alternative.token, alternative.logprob)),
    })),
    refusal: null,
  };
}

function entry(token: string, logprob: number): { token: string; logprob: number; bytes: number[] } {
  return { token, logprob, bytes: [...Buffer.from(token, 'utf8')] };
}
