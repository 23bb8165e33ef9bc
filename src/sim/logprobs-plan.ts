import type { SimBehaviour } from './behaviour.js';
import { replyToken } from './reply-token.js';

/** One entry of OpenAI's `logprobs.content`. */
export interface LogprobEntry {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

/** Probability the simulator gives each answer token when no distribution was scripted. */
const DEFAULT_PROBABILITY = 0.9;
/** Probability of the runner-up alternative it lists beside it. */
const RUNNER_UP_PROBABILITY = 0.06;

/**
 * Log-probabilities of the answer tokens, as OpenAI reports them when a request sets
 * `logprobs: true`; `top_logprobs` (0 to 20) alternatives each. The first token follows the
 * scripted `top` distribution when there is one; others get a fixed probability and a runner-up.
 */
export function planLogprobs(content: readonly string[], body: Record<string, unknown>, behaviour: SimBehaviour): LogprobEntry[] | undefined {
  if (body.logprobs !== true) return undefined;
  const wanted = typeof body.top_logprobs === 'number' ? Math.max(0, Math.min(20, Math.floor(body.top_logprobs))) : 0;
  return content.map((token, i) => {
    if (i === 0 && behaviour.top) return scriptedEntry(token, behaviour.top, wanted);
    const alternatives = [entry(token, DEFAULT_PROBABILITY), entry(replyToken(i + 1).trim() || 'the', RUNNER_UP_PROBABILITY)];
    return { ...entry(token, DEFAULT_PROBABILITY), top_logprobs: alternatives.slice(0, wanted) };
  });
}

function scriptedEntry(token: string, top: readonly { token: string; probability: number }[], wanted: number): LogprobEntry {
  const own = top.find((alternative) => alternative.token === token)?.probability ?? 0.001;
  const sorted = [...top].sort((a, b) => b.probability - a.probability);
  return { ...entry(token, own), top_logprobs: sorted.slice(0, wanted).map((alternative) => entry(alternative.token, alternative.probability)) };
}

function entry(token: string, probability: number): { token: string; logprob: number; bytes: number[] } {
  return { token, logprob: Math.log(probability), bytes: [...Buffer.from(token, 'utf8')] };
}
