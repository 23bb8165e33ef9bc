import type { ReplyPlan } from './reply-plan.js';

/** The identity every body or chunk of one reply repeats. */
export interface ReplyMeta {
  id: string;
  created: number;
  /** The model name exactly as the request gave it. */
  model: string;
}

export interface UsageBody {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

/** OpenAI's usage object; the detail objects appear only when the plan reports their counts. */
export function usageBody(plan: ReplyPlan): UsageBody {
  const usage: UsageBody = {
    prompt_tokens: plan.promptTokens,
    completion_tokens: plan.completionTokens,
    total_tokens: plan.promptTokens + plan.completionTokens,
  };
  const { cachedTokens, cacheWriteTokens, reasoningTokens } = plan;
  if (cachedTokens !== undefined || cacheWriteTokens !== undefined) {
    usage.prompt_tokens_details = {};
    if (cachedTokens !== undefined) usage.prompt_tokens_details.cached_tokens = cachedTokens;
    if (cacheWriteTokens !== undefined) usage.prompt_tokens_details.cache_write_tokens = cacheWriteTokens;
  }
  if (reasoningTokens !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoningTokens };
  return usage;
}
